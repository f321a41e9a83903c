// The `message` texts: preformatted tables like the ones the official CLI prints verbatim.
// Tables are built in one pass over precomputed cells and joined once, so a list of 10,000 clusters
// (with instances) renders in a few milliseconds.

import { sshAddress } from './present';
import { iso } from './ids';
import {
  objectCount,
  type Bucket,
  type ClusterView,
  type Instance,
  type Org,
  type SshKey,
  type TextStyle,
  type User,
} from './types';

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

/** Each rule is four characters: left, between columns, right, horizontal. `v` holds the header's
 *  and the body's vertical line; `sep`, when given, is drawn between body rows. */
const BOXES: Record<
  'grid' | 'box' | 'heavy',
  { top: string; head: string; sep?: string; bottom: string; v: [string, string] }
> = {
  // tabulate "grid": a rule between every row, `=` under the header
  grid: { top: '+++-', head: '+++=', sep: '+++-', bottom: '+++-', v: ['|', '|'] },
  // prettytable with Unicode lines: one rule under the header
  box: { top: '┌┬┐─', head: '├┼┤─', bottom: '└┴┘─', v: ['│', '│'] },
  // rich's default (HEAVY_HEAD)
  heavy: { top: '┏┳┓━', head: '┡╇┩━', bottom: '└┴┘─', v: ['┃', '│'] },
};

function widthsOf(header: string[], rows: string[][]): number[] {
  const widths = header.map((h) => h.length);
  for (const row of rows) for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i], row[i].length);
  return widths;
}

/** Render a table in one of the text styles (`plain` is the CLI's own, two spaces between columns). */
export function styledTable(style: TextStyle, header: string[], rows: string[][]): string {
  if (style === 'plain') return table(header, rows);
  if (style === 'keyValue')
    return rows.map((r) => header.map((h, i) => `${h}: ${r[i]}`).join('\n')).join('\n\n');
  const widths = widthsOf(header, rows);
  if (style === 'markdown') {
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
    return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join(
      '\n',
    );
  }
  const b = BOXES[style === 'fieldValue' ? 'heavy' : style];
  const rule = (chars: string) =>
    chars[0] + widths.map((w) => chars[3].repeat(w + 2)).join(chars[1]) + chars[2];
  const line = (cells: string[], v: string) =>
    `${v} ${cells.map((c, i) => c.padEnd(widths[i])).join(` ${v} `)} ${v}`;
  const out = [rule(b.top), line(header, b.v[0]), rule(b.head)];
  rows.forEach((r, i) => {
    if (i > 0 && b.sep) out.push(rule(b.sep));
    out.push(line(r, b.v[1]));
  });
  out.push(rule(b.bottom));
  return out.join('\n');
}

export function clusterListText(
  views: ClusterView[],
  opts: { includeOrg: boolean; instances: boolean; style?: TextStyle },
): string {
  const style = opts.style ?? 'plain';
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
    `${views.length} cluster${views.length === 1 ? '' : 's'} in your ${scope}:\n` +
    styledTable(style, header, rows);
  if (opts.instances) {
    const irows: string[][] = [];
    const real = views.some((v) => v.addressed && v.cluster.instances.some((i) => sshAddress(i)));
    for (const v of views) {
      for (const i of v.cluster.instances) {
        irows.push([
          i.id,
          v.cluster.id,
          v.instanceStatus,
          v.addressed ? i.publicIp : '-',
          v.addressed ? i.privateIp : '-',
          ...(real ? sshColumns(v, i) : []),
        ]);
      }
    }
    const header = ['INSTANCE ID', 'CLUSTER ID', 'STATUS', 'PUBLIC IP', 'PRIVATE IP'];
    text += '\n\nInstances:\n' + styledTable(style, real ? [...header, ...SSH_HEADER] : header, irows);
  }
  return text;
}

const SSH_HEADER = ['SSH PORT', 'SSH USER'];

function sshColumns(v: ClusterView, i: Instance): string[] {
  const a = v.addressed ? sshAddress(i) : undefined;
  return a ? [String(a.port), a.user] : ['-', '-'];
}

export function clusterInfoText(v: ClusterView, style: TextStyle = 'plain'): string {
  const c = v.cluster;
  // Real nodes (engine/nodes.ts) add where their sshd listens and who logs in.
  const real = v.addressed && c.instances.some((i) => sshAddress(i));
  const instanceHeader = ['INSTANCE ID', 'STATUS', 'PUBLIC IP', 'PRIVATE IP', ...(real ? SSH_HEADER : [])];
  const instanceRows = c.instances.map((i) => [
    i.id,
    v.instanceStatus,
    v.addressed ? i.publicIp : '-',
    v.addressed ? i.privateIp : '-',
    ...(real ? sshColumns(v, i) : []),
  ]);
  if (style === 'fieldValue') return fieldValueInfo(v);
  if (style !== 'plain') {
    const header = [
      'CLUSTER ID',
      'NAME',
      'INSTANCE TYPE',
      'NODES',
      'STATUS',
      'DELETION PROTECTION',
      'CREATED',
    ];
    const row = [c.id, c.name, c.instanceType, String(c.numNodes), v.status];
    row.push(c.deletionProtection ? 'enabled' : 'disabled', iso(c.createdMs));
    return [
      styledTable(style, header, [row]),
      '',
      'Instances:',
      styledTable(style, instanceHeader, instanceRows),
    ].join('\n');
  }
  const lines = [
    `Cluster ${c.id} (${c.name})`,
    `  Cluster ID:          ${c.id}`,
    `  Name:                ${c.name}`,
    `  Status:              ${v.status}`,
    `  Instance type:       ${c.instanceType}`,
    `  Nodes:               ${c.numNodes}`,
    `  Deletion protection: ${c.deletionProtection ? 'enabled' : 'disabled'}`,
    `  Container:           ${c.container ?? 'default'}`,
    `  Owner:               ${v.owner?.email ?? c.ownerUid}`,
    `  Created:             ${iso(c.createdMs)}`,
    '',
    'Instances:',
    table(instanceHeader, instanceRows),
  ];
  if (v.status === 'RUNNING' && c.instances.length > 0)
    lines.push('', `Connect with: tp ssh ${c.instances[0].id}`);
  return lines.join('\n');
}

/** Cells wider than this wrap onto the next line of the table, at a ", " (rich wraps long values). */
const VALUE_WIDTH = 40;

/** Rows of a `Field | Value` table with the value wrapped: the field on the first line only. */
function wrapped(field: string, value: string): string[][] {
  const parts = value.split(', ');
  const lines: string[] = [];
  for (const p of parts) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + p.length + 2 <= VALUE_WIDTH) lines[last] += ` ${p},`;
    else lines.push(`${p},`);
  }
  lines[lines.length - 1] = lines[lines.length - 1].replace(/,$/, '');
  return lines.map((l, i) => [i === 0 ? field : '', l.trim()]);
}

/** A cluster's info as rich prints a record: one `Field | Value` table, the nodes in one cell. */
function fieldValueInfo(v: ClusterView): string {
  const c = v.cluster;
  const nodes = c.instances.map((i) => (v.addressed && i.publicIp ? `${i.id} (${i.publicIp})` : i.id));
  const rows = [
    ['Cluster ID', c.id],
    ['Name', c.name],
    ['Status', v.status],
    ['Instance Type', c.instanceType],
    ['Nodes', String(c.numNodes)],
    ['Deletion Protection', c.deletionProtection ? 'enabled' : 'disabled'],
    ['Created', iso(c.createdMs)],
  ];
  const all = [...rows, ...wrapped('Instances', nodes.join(', ') || '-')];
  return styledTable('fieldValue', ['Field', 'Value'], all);
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

export function sshKeysText(
  keys: SshKey[],
  users: Map<string, User>,
  includeOrg: boolean,
  style: TextStyle = 'plain',
): string {
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
  return styledTable(style, header, rows);
}

export function bucketsText(buckets: Bucket[]): string {
  if (buckets.length === 0) return 'No buckets.';
  return table(
    ['BUCKET', 'OBJECTS', 'CREATED'],
    buckets.map((b) => [b.name, String(objectCount(b)), iso(b.createdMs)]),
  );
}

/** /me as text: how a service that only says who you are in words answers. */
export function meText(u: User): string {
  return `Logged in as ${u.email}`;
}
