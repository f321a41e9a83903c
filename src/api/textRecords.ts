/**
 * From the tables of a text answer to records, by header names rather than positions. A
 * vocabulary maps each field to the header names it goes by (case, punctuation and `_`/`-` do not
 * matter); columns it does not know are ignored, so extra or non-English columns are harmless.
 * Rows without a key are kept as text. No `vscode` import.
 */
import { readTextTables, type TextTable } from './textTable';

export type Vocabulary<F extends string> = { readonly [K in F]: readonly string[] };

export interface TextRecord<F extends string> {
  readonly fields: Partial<Record<F, string>>;
  /** The row as written (cells joined), for tooltips and logs. */
  readonly raw: string;
}

export interface TextRecords<F extends string> {
  readonly records: TextRecord<F>[];
  /** Rows of matching tables that had no key value, as text. */
  readonly unread: string[];
}

export interface RecordOptions<F extends string> {
  /** The field every record needs (the id). */
  readonly key: F;
  /** Tables with any of these headers are about something else (e.g. "Instance ID" for clusters). */
  readonly reject?: readonly string[];
  /** Key for tables without a key column that still match two or more fields (an info answer). */
  readonly keyDefault?: string;
}

function headerKey(header: string): string {
  return header
    .toLowerCase()
    .replace(/[_\-./#:()[\]*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Which field each column of a table holds (undefined for columns the vocabulary does not know). */
export function mapColumns<F extends string>(
  headers: readonly string[],
  vocabulary: Vocabulary<F>,
): (F | undefined)[] {
  const lookup = new Map<string, F>();
  for (const field of Object.keys(vocabulary) as F[]) {
    for (const name of vocabulary[field])
      if (!lookup.has(headerKey(name))) lookup.set(headerKey(name), field);
  }
  const taken = new Set<F>();
  return headers.map((h) => {
    const f = lookup.get(headerKey(h));
    if (f === undefined || taken.has(f)) return undefined;
    taken.add(f);
    return f;
  });
}

function tableRecords<F extends string>(
  table: TextTable,
  vocabulary: Vocabulary<F>,
  options: RecordOptions<F>,
  out: TextRecords<F>,
): void {
  const reject = new Set((options.reject ?? []).map(headerKey));
  if (table.headers.some((h) => reject.has(headerKey(h)))) return;
  const columns = mapColumns(table.headers, vocabulary);
  const known = columns.filter((c) => c !== undefined).length;
  const hasKey = columns.includes(options.key);
  if (!hasKey && (options.keyDefault === undefined || known < 2)) return;
  for (const row of table.rows) {
    const fields: Partial<Record<F, string>> = {};
    columns.forEach((field, i) => {
      const v = row[i]?.trim();
      if (field !== undefined && v) fields[field] = v;
    });
    if (!hasKey && options.keyDefault !== undefined) fields[options.key] = options.keyDefault;
    const raw = row.filter((c) => c !== '').join(' · ');
    const key = fields[options.key];
    if (key && !/^[-–—]+$/.test(key)) out.records.push({ fields, raw });
    else if (raw) out.unread.push(raw);
  }
}

/** Records for one vocabulary from every matching table of a text answer. Never throws. */
export function recordsFromText<F extends string>(
  text: unknown,
  vocabulary: Vocabulary<F>,
  options: RecordOptions<NoInfer<F>>,
): TextRecords<F> {
  const out: TextRecords<F> = { records: [], unread: [] };
  try {
    for (const table of readTextTables(text).tables) tableRecords(table, vocabulary, options, out);
  } catch {
    // A reader bug must not cost the user the answer: the raw text is still shown.
  }
  return out;
}

// ---- vocabularies --------------------------------------------------------------------------------

/* eslint-disable tensorpool/l10n -- column headings the service's text tables use (matched, never shown) */

const ID = ['id', 'uuid', 'identifier'];
const NAME = ['name', 'display name'];
const STATUS = ['status', 'state', 'phase', 'health'];
const CREATED = [
  'created',
  'created at',
  'creation time',
  'creation date',
  'date created',
  'launched',
  'added',
];
// Only names that say ssh: a bare PORT or USER column may be a notebook's port or the owner.
const SSH_PORT = ['ssh port'];
const SSH_USER = ['ssh user', 'ssh username', 'ssh login', 'login user'];
const OWNER = ['owner', 'owner email', 'user', 'user email', 'created by', 'email'];

export const CLUSTER_COLUMNS = {
  id: ['cluster id', 'cluster', 'cluster uuid', ...ID],
  name: ['cluster name', 'tp cluster name', ...NAME],
  instanceType: ['instance type', 'type', 'gpu type', 'gpus', 'gpu', 'machine type', 'hardware', 'shape'],
  nodes: ['nodes', 'num nodes', 'node count', 'number of nodes', 'nodes count', 'size', 'count'],
  /** The nodes by id, each maybe with its address: `i-1a2b (203.0.113.5), i-3c4d (203.0.113.6)`. */
  instanceList: ['instances', 'instance ids', 'nodes list', 'node ids'],
  status: ['cluster status', ...STATUS],
  ip: ['public ip', 'ip', 'ip address', 'public ip address', 'external ip', 'address', 'host', 'ssh host'],
  sshPort: SSH_PORT,
  sshUser: SSH_USER,
  deletionProtection: ['deletion protection', 'protected', 'protection', 'delete protection'],
  created: CREATED,
  owner: OWNER,
  container: ['container', 'image', 'container image'],
} as const satisfies Vocabulary<string>;
export type ClusterField = keyof typeof CLUSTER_COLUMNS;

export const INSTANCE_COLUMNS = {
  id: ['instance id', 'instance', 'node id', 'instance name'],
  clusterId: ['cluster id', 'cluster'],
  status: ['instance status', ...STATUS],
  ip: ['public ip', 'ip', 'ip address', 'external ip', 'address', 'host'],
  privateIp: ['private ip', 'internal ip', 'private ip address'],
  sshPort: SSH_PORT,
  sshUser: SSH_USER,
} as const satisfies Vocabulary<string>;
export type InstanceField = keyof typeof INSTANCE_COLUMNS;

export const JOB_COLUMNS = {
  id: ['job id', 'job', ...ID],
  name: ['job name', ...NAME],
  status: ['job status', ...STATUS],
  clusterId: ['cluster id', 'cluster'],
  created: CREATED,
  owner: OWNER,
} as const satisfies Vocabulary<string>;

export const VOLUME_COLUMNS = {
  id: ['storage id', 'volume id', 'volume', 'storage', ...ID],
  name: ['storage name', 'volume name', ...NAME],
  size: ['size', 'size gb', 'capacity', 'size gib'],
  status: STATUS,
  created: CREATED,
} as const satisfies Vocabulary<string>;

export const SSH_KEY_COLUMNS = {
  id: ['key id', 'ssh key id', 'key', ...ID],
  name: ['key name', ...NAME],
  type: ['type', 'key type', 'algorithm'],
  fingerprint: ['fingerprint', 'sha256 fingerprint'],
  created: CREATED,
  owner: OWNER,
} as const satisfies Vocabulary<string>;
/* eslint-enable tensorpool/l10n */
