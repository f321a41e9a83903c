/**
 * Text-only answers to the domain model: the clusters, instances and SSH keys a `message` table
 * names, read by header names (src/api/textRecords.ts). Everything read here is marked
 * `source: 'text'` so the UI can say it was read from text rather than given as data.
 */
import { sshLogin, type Cluster, type Instance } from '../model/cluster';
import {
  CLUSTER_COLUMNS,
  INSTANCE_COLUMNS,
  recordsFromText,
  type ClusterField,
  type InstanceField,
} from './textRecords';

const NONE = new Set(['', '-', '--', '—', '–', 'n/a', 'na', 'none', 'null', '?']);
const YES = new Set(['yes', 'y', 'true', 'on', 'enabled', 'protected', '✓', '✔', 'x']);
const NO = new Set(['no', 'n', 'false', 'off', 'disabled', 'unprotected', '✗', '✘']);

/** A cell's text, or undefined for the ways tables say "nothing" (-, n/a, none...). */
export function cell(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t === undefined || NONE.has(t.toLowerCase()) ? undefined : t;
}

/** An address, not a word such as "pending" or "waiting". */
function address(v: string | undefined): string | undefined {
  const t = cell(v);
  return t && /[\d.:]/.test(t) && !/\s/.test(t) ? t : undefined;
}

/** "● RUNNING", "🟢 running" → the word. */
function statusWord(v: string | undefined): string | undefined {
  const t = cell(v)?.replace(/^[^\p{L}\p{N}]+/u, '');
  return t || undefined;
}

function yesNo(v: string | undefined): boolean | undefined {
  const t = v?.trim().toLowerCase() ?? '';
  return YES.has(t) ? true : NO.has(t) ? false : undefined;
}

function textInstance(f: Partial<Record<InstanceField, string>>): Instance | undefined {
  const id = cell(f.id);
  if (!id) return undefined;
  return {
    id,
    status: statusWord(f.status),
    ip: address(f.ip),
    privateIp: address(f.privateIp),
    ...sshLogin(cell(f.sshPort), cell(f.sshUser)),
  };
}

/** `i-1a2b (203.0.113.5), i-3c4d (203.0.113.6)` (or just ids) → the instances it names. */
function listedInstances(list: string): Instance[] {
  const out: Instance[] = [];
  const entry = /([^\s,;()]+)(?:\s*\(([^)]*)\))?/g;
  for (let m = entry.exec(list); m; m = entry.exec(list)) {
    const ip = m[2]
      ?.split(/[\s,;]+/)
      .map(address)
      .find((a) => a !== undefined);
    out.push(ip ? { id: m[1], ip } : { id: m[1] });
  }
  return out;
}

function textCluster(
  f: Partial<Record<ClusterField, string>>,
  instances: readonly { clusterId?: string; instance: Instance }[],
  single: boolean,
): Cluster {
  const id = f.id!.trim();
  const list = cell(f.instanceList);
  // An "Instances" cell that is only a number counts them.
  const nodes = cell(f.nodes) ?? (list && /^\d+$/.test(list) ? list : undefined);
  const count = nodes && /^\d+\b/.test(nodes) ? Number(/^\d+/.exec(nodes)![0]) : undefined;
  const listed =
    list && !/^\d+$/.test(list)
      ? listedInstances(list)
      : nodes && count === undefined
        ? listedInstances(nodes)
        : [];
  const own = instances.filter((i) => i.clusterId === id || (single && i.clusterId === undefined));
  const container = cell(f.container);
  return {
    id,
    name: cell(f.name),
    instanceType: cell(f.instanceType),
    numNodes: count ?? (listed.length || undefined),
    status: statusWord(f.status),
    deletionProtection: yesNo(f.deletionProtection),
    createdAt: cell(f.created),
    owner: cell(f.owner),
    container: container === 'default' ? undefined : container,
    instances: own.length ? own.map((i) => i.instance) : listed,
    source: 'text',
    ip: address(f.ip),
    ...sshLogin(cell(f.sshPort), cell(f.sshUser)),
  };
}

/** A table with these headers lists storage volumes (e.g. a cluster's attached volumes), not clusters. */
const VOLUME_HEADERS = ['storage id', 'volume id', 'mount path', 'storage name', 'volume name'];

function readClusters(
  text: unknown,
  infoId?: string,
): { clusters: Cluster[]; unread: string[]; instances: { clusterId?: string; instance: Instance }[] } {
  const instances = recordsFromText(text, INSTANCE_COLUMNS, {
    key: 'id',
    reject: ['name', 'instance type', ...VOLUME_HEADERS],
  })
    .records.map((r) => ({ clusterId: cell(r.fields.clusterId), instance: textInstance(r.fields) }))
    .filter((i): i is { clusterId: string | undefined; instance: Instance } => i.instance !== undefined);
  const read = recordsFromText(text, CLUSTER_COLUMNS, {
    key: 'id',
    reject: ['instance id', 'node id', 'instance', 'instance name', ...VOLUME_HEADERS],
    keyDefault: infoId,
  });
  const single = read.records.length === 1;
  const clusters = read.records.map((r) => textCluster(r.fields, instances, single));
  return { clusters, unread: read.unread, instances };
}

/** The clusters a text-only list answer names, each marked `source: 'text'`, and the rows it could not read. */
export function clustersFromText(text: unknown): { clusters: Cluster[]; unread: string[] } {
  const { clusters, unread } = readClusters(text);
  return { clusters, unread };
}

/** The cluster a text-only info answer describes (its id is the one asked about when the text has none). */
export function clusterFromText(text: unknown, id: string): Cluster | undefined {
  const { clusters, instances } = readClusters(text, id);
  const found = clusters.find((c) => c.id === id) ?? (clusters.length === 1 ? clusters[0] : undefined);
  if (found) return found;
  // Only an instances table (no cluster fields): those nodes are the asked cluster's, unless they name another.
  const own = instances.filter((i) => i.clusterId === undefined || i.clusterId === id).map((i) => i.instance);
  return own.length ? { id, instances: own, source: 'text' } : undefined;
}
