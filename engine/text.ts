// The `message` texts: preformatted tables like the ones the official CLI prints verbatim.
// Tables are built in one pass over precomputed cells and joined once, so a list of 10,000 clusters
// (with instances) renders in a few milliseconds.

import { iso } from './state';
import type { Bucket, ClusterView, Org, SshKey, User } from './types';

/** Render rows as left-aligned columns separated by two spaces. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h) => h.length);
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) if (row[i].length > widths[i]) widths[i] = row[i].length;
  }
  const line = (cells: string[]): string => {
    let s = '';
    const last = cells.length - 1;
    for (let i = 0; i < cells.length; i++) s += i === last ? cells[i] : cells[i].padEnd(widths[i] + 2);
    return s;
  };
  const out = new Array<string>(rows.length + 1);
  out[0] = line(header);
  for (let r = 0; r < rows.length; r++) out[r + 1] = line(rows[r]);
  return out.join('\n');
}

export function clusterListText(
  views: ClusterView[],
  opts: { includeOrg: boolean; instances: boolean },
): string {
  const scope = opts.includeOrg ? 'organization' : 'account';
  if (views.length === 0)
    return `No clusters found in your ${scope}. Create one with: tp cluster create -t 1xH100`;
  const header = ['CLUSTER ID', 'NAME', 'INSTANCE TYPE', 'NODES', 'STATUS', 'PROTECTED', 'CREATED'];
  if (opts.includeOrg) header.push('OWNER');
  const rows: string[][] = [];
  for (const v of views) {
    const c = v.cluster;
    const row = [
      c.id,
      c.name,
      c.instanceType,
      String(c.numNodes),
      v.status,
      c.deletionProtection ? 'yes' : 'no',
      iso(c.createdMs).slice(0, 19) + 'Z',
    ];
    if (opts.includeOrg) row.push(v.owner?.email ?? c.ownerUid);
    rows.push(row);
  }
  let text =
    `${views.length} cluster${views.length === 1 ? '' : 's'} in your ${scope}:\n` + table(header, rows);
  if (opts.instances) {
    const irows: string[][] = [];
    for (const v of views) {
      for (const i of v.cluster.instances) {
        irows.push([
          i.id,
          v.cluster.id,
          v.instanceStatus,
          v.addressed ? i.publicIp : '-',
          v.addressed ? i.privateIp : '-',
        ]);
      }
    }
    text +=
      '\n\nInstances:\n' + table(['INSTANCE ID', 'CLUSTER ID', 'STATUS', 'PUBLIC IP', 'PRIVATE IP'], irows);
  }
  return text;
}

export function clusterInfoText(v: ClusterView): string {
  const c = v.cluster;
  const lines = [
    `Cluster ${c.id} (${c.name})`,
    `  Status:              ${v.status}`,
    `  Instance type:       ${c.instanceType}`,
    `  Nodes:               ${c.numNodes}`,
    `  Deletion protection: ${c.deletionProtection ? 'enabled' : 'disabled'}`,
    `  Container:           ${c.container ?? 'default'}`,
    `  Owner:               ${v.owner?.email ?? c.ownerUid}`,
    `  Created:             ${iso(c.createdMs)}`,
    '',
    'Instances:',
    table(
      ['INSTANCE ID', 'STATUS', 'PUBLIC IP', 'PRIVATE IP'],
      c.instances.map((i) => [
        i.id,
        v.instanceStatus,
        v.addressed ? i.publicIp : '-',
        v.addressed ? i.privateIp : '-',
      ]),
    ),
  ];
  if (v.status === 'RUNNING' && c.instances.length > 0)
    lines.push('', `Connect with: tp ssh ${c.instances[0].id}`);
  return lines.join('\n');
}

export function userInfoText(u: User, org: Org): string {
  return [
    `User:          ${u.name} <${u.email}>`,
    `User ID:       ${u.uid}`,
    `Organization:  ${org.name} (${org.id})`,
    `Balance:       $${org.balanceUsd.toFixed(2)}`,
    `Access:        ${u.readonly ? 'read-only' : 'full'}`,
  ].join('\n');
}

export function sshKeysText(keys: SshKey[], users: Map<string, User>, includeOrg: boolean): string {
  if (keys.length === 0)
    return includeOrg
      ? 'No SSH keys in your organization.'
      : 'No SSH keys saved. Add one with: tp ssh key add ~/.ssh/id_ed25519.pub';
  const header = ['KEY ID', 'NAME', 'TYPE', 'FINGERPRINT', 'ADDED'];
  if (includeOrg) header.push('OWNER');
  const rows = keys.map((k) => {
    const row = [k.id, k.name, k.keyType, k.fingerprint, iso(k.createdMs).slice(0, 10)];
    if (includeOrg) row.push(users.get(k.ownerUid)?.email ?? k.ownerUid);
    return row;
  });
  return table(header, rows);
}

export function bucketsText(buckets: Bucket[]): string {
  if (buckets.length === 0) return 'No buckets.';
  return table(
    ['BUCKET', 'OBJECTS', 'CREATED'],
    buckets.map((b) => [b.name, String(b.objects.size), iso(b.createdMs)]),
  );
}
