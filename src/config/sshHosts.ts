/**
 * Our SSH host entries: one `Host tp-<cluster>-<n>` per node, grouped per cluster under a marker
 * comment (`# TensorPool cluster <id> (<name>)`) so a cluster's hosts can be replaced or removed
 * without touching the others. The same grouped text is the content of our own file
 * (~/.ssh/tensorpool/config) or of the marked block in ~/.ssh/config (see sshConfig.ts).
 *
 * Each host pins `StrictHostKeyChecking accept-new` and `UserKnownHostsFile` to a known_hosts of
 * our own, so node keys never land in the user's main known_hosts; `HostKeyAlias` adds the
 * cluster id to the name the key is stored under, so when the cloud hands a node's IP to a new
 * cluster, its different key is a new entry rather than a "REMOTE HOST IDENTIFICATION HAS
 * CHANGED" refusal.
 */
import * as l10n from '@vscode/l10n';
import { sep } from 'node:path';
import { isSshHost, isSshUser } from '../model/sshAddress';
import { ConfigError } from './errors';
import { hasControlChars, isBlank } from './text';

export interface SshHost {
  /** The name the user types (`ssh tp-train-1`); see `hostAlias`. */
  readonly alias: string;
  /** The node's address (IPv4, IPv6 or DNS name). */
  readonly hostName: string;
  readonly user: string;
  /** Default 22. */
  readonly port?: number;
  /** The private half of the chosen key; omitted when the user relies on an agent. */
  readonly identityFile?: string;
  readonly clusterId: string;
  readonly clusterName: string;
}

/** Our known_hosts, as written in the entries (ssh expands `~`). */
export const KNOWN_HOSTS_REF = '~/.ssh/tensorpool/known_hosts';
export const ALIAS_PREFIX = 'tp-';

const MARKER = /^\s*#\s*TensorPool cluster\s+(\S+)/;
const CLUSTER_ID = /^[A-Za-z0-9_.-]{1,128}$/;
const ALIAS = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const MAX_NAME_PART = 40;

/** A cluster name as an alias part: lower case, runs of anything but [a-z0-9] as one `-`, at most 40 characters. */
export function sanitizeAliasPart(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned.slice(0, MAX_NAME_PART).replace(/-+$/, '') || 'cluster';
}

/** `tp-<cluster-name>-<n>` with n the 1-based node index: stable as long as the cluster's name is. */
export function hostAlias(clusterName: string, node: number): string {
  if (!Number.isInteger(node) || node < 1)
    throw new ConfigError('invalid-value', l10n.t('node index {0} is not a whole number from 1.', node));
  return `${ALIAS_PREFIX}${sanitizeAliasPart(clusterName)}-${node}`;
}

/**
 * A path as an ssh_config argument: the home directory as `~`, forward slashes (Windows OpenSSH
 * accepts them, and a backslash can be an escape), `%` doubled (ssh expands %-tokens in
 * IdentityFile), double quotes around paths with spaces.
 */
export function sshPath(path: string, home?: string): string {
  if (hasControlChars(path) || path.includes('"')) {
    throw new ConfigError(
      'invalid-value',
      l10n.t(
        'the key path contains a line break, a control character or a double quote, which ssh_config cannot express.',
      ),
    );
  }
  let p = path;
  if (home && (p === home || p.startsWith(home + sep) || p.startsWith(home + '/')))
    p = '~' + p.slice(home.length);
  p = p.replace(/\\/g, '/').replace(/%/g, '%%');
  return /\s/.test(p) ? `"${p}"` : p;
}

function oneLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 80);
}

function validateHost(h: SshHost): void {
  const bad = (what: string): never => {
    throw new ConfigError(
      'invalid-value',
      l10n.t('cannot write the SSH host "{0}": {1}.', oneLine(h.alias), what),
    );
  };
  if (!ALIAS.test(h.alias))
    bad(l10n.t('the alias may only contain letters, digits, _ . - (no spaces or wildcards)'));
  if (!isSshHost(h.hostName)) bad(l10n.t('the address is not an IP address or host name'));
  if (!isSshUser(h.user)) bad(l10n.t('the user name may only contain letters, digits, _ . -'));
  if (h.port !== undefined && (!Number.isInteger(h.port) || h.port < 1 || h.port > 65535))
    bad(l10n.t('the port is not a whole number from 1 to 65535'));
  if (!CLUSTER_ID.test(h.clusterId)) bad(l10n.t('the cluster id may only contain letters, digits, _ . -'));
}

export interface RenderOptions {
  /** The user's home directory, so IdentityFile paths under it are written as `~/…`. */
  readonly home?: string;
  /** Our known_hosts as the entries name it (default KNOWN_HOSTS_REF; see knownHostsRef). */
  readonly knownHosts?: string;
}

/** Our known_hosts file as ssh_config and a command line name it: `~/…` under `home`, else the path. */
export function knownHostsRef(knownHostsPath: string, home?: string): string {
  return sshPath(knownHostsPath, home);
}

/** The name a node's host key is stored under: its alias and the cluster id (checked: it reaches ssh's
 *  arguments), so a new cluster that reuses the address (or the alias) never meets the old key. */
export function hostKeyAlias(alias: string, clusterId: string): string {
  const why = l10n.t('the cluster id may only contain letters, digits, _ . -');
  if (!ALIAS.test(alias) || !CLUSTER_ID.test(clusterId)) throw new ConfigError('invalid-value', why);
  return `${alias}.${clusterId}`;
}

/** The lines for one cluster: its marker comment, then one Host entry per node. */
export function renderClusterHosts(hosts: readonly SshHost[], opts: RenderOptions = {}): string[] {
  if (hosts.length === 0) return [];
  const { clusterId, clusterName } = hosts[0];
  const lines = [`# TensorPool cluster ${clusterId} (${oneLine(clusterName)})`];
  for (const h of hosts) {
    validateHost(h);
    if (h.clusterId !== clusterId)
      throw new ConfigError(
        'invalid-value',
        l10n.t('hosts of two clusters ({0}, {1}) were given as one.', clusterId, h.clusterId),
      );
    lines.push(
      `Host ${h.alias}`,
      `    HostName ${h.hostName}`,
      `    User ${h.user}`,
      `    Port ${h.port ?? 22}`,
      ...(h.identityFile
        ? [`    IdentityFile ${sshPath(h.identityFile, opts.home)}`, '    IdentitiesOnly yes']
        : []),
      '    StrictHostKeyChecking accept-new',
      `    UserKnownHostsFile ${opts.knownHosts ?? KNOWN_HOSTS_REF}`,
      `    HostKeyAlias ${hostKeyAlias(h.alias, clusterId)}`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// The grouped text: lines before the first marker, then one chunk per cluster

interface Chunk {
  readonly clusterId: string;
  readonly lines: string[];
}

interface HostsBody {
  readonly preamble: string[];
  readonly chunks: Chunk[];
}

function trimBlankEnd(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && isBlank(lines[end - 1])) end--;
  return lines.slice(0, end);
}

function parseBody(lines: readonly string[]): HostsBody {
  const preamble: string[] = [];
  const chunks: Chunk[] = [];
  for (const line of lines) {
    const marker = MARKER.exec(line);
    if (marker) chunks.push({ clusterId: marker[1], lines: [line] });
    else if (chunks.length) chunks[chunks.length - 1].lines.push(line);
    else preamble.push(line);
  }
  return {
    preamble: trimBlankEnd(preamble),
    chunks: chunks.map((c) => ({ ...c, lines: trimBlankEnd(c.lines) })),
  };
}

/** The preamble, then the chunks, one blank line between each. */
function renderBody(body: HostsBody): string[] {
  const parts = [body.preamble, ...body.chunks.map((c) => c.lines)].filter((p) => p.length > 0);
  return parts.flatMap((p, i) => (i === 0 ? p : ['', ...p]));
}

function aliasesIn(lines: readonly string[]): string[] {
  return lines.flatMap((l) => {
    const m = /^\s*Host(?:\s*=\s*|\s+)(.+)$/i.exec(l);
    return m ? m[1].trim().split(/\s+/) : [];
  });
}

export interface ClusterHosts {
  readonly clusterId: string;
  readonly aliases: readonly string[];
}

/** The clusters and aliases a grouped text holds. */
export function listClusterHosts(lines: readonly string[]): ClusterHosts[] {
  return parseBody(lines).chunks.map((c) => ({ clusterId: c.clusterId, aliases: aliasesIn(c.lines) }));
}

export interface HostEntry {
  readonly alias: string;
  readonly hostName?: string;
  readonly port?: number;
}

/** Each cluster's entries with their HostName and Port, as written (for dropping their host keys). */
export function listClusterHostEntries(
  lines: readonly string[],
): { clusterId: string; hosts: HostEntry[] }[] {
  return parseBody(lines).chunks.map((c) => {
    const hosts: { alias: string; hostName?: string; port?: number }[] = [];
    for (const l of c.lines) {
      const m = /^\s*(Host|HostName|Port)(?:\s*=\s*|\s+)(\S+)/i.exec(l);
      if (!m) continue;
      const key = m[1].toLowerCase();
      if (key === 'host') hosts.push({ alias: m[2] });
      else if (hosts.length && key === 'hostname') hosts[hosts.length - 1].hostName = m[2];
      else if (hosts.length && /^\d+$/.test(m[2])) hosts[hosts.length - 1].port = Number(m[2]);
    }
    return { clusterId: c.clusterId, hosts };
  });
}

export type HostsEdit =
  /** Replace all hosts of a cluster (in place, or appended when new); no hosts removes the cluster. */
  | { readonly kind: 'set'; readonly clusterId: string; readonly hosts: readonly SshHost[] }
  | { readonly kind: 'remove'; readonly clusterId: string }
  /** Keep only these clusters: the hosts of destroyed clusters go. */
  | { readonly kind: 'prune'; readonly keep: readonly string[] };

function checkAliases(body: HostsBody, clusterId: string, hosts: readonly SshHost[]): void {
  const mine = new Set<string>();
  for (const h of hosts) {
    if (mine.has(h.alias))
      throw new ConfigError(
        'alias-taken',
        l10n.t('the alias {0} is given to two nodes of cluster {1}.', h.alias, clusterId),
      );
    mine.add(h.alias);
  }
  for (const c of body.chunks.filter((c) => c.clusterId !== clusterId)) {
    const taken = aliasesIn(c.lines).find((a) => mine.has(a));
    if (taken) {
      throw new ConfigError(
        'alias-taken',
        l10n.t(
          "the alias {0} already belongs to cluster {1}; give one of the clusters another name (or remove the old cluster's hosts) and try again.",
          taken,
          c.clusterId,
        ),
      );
    }
  }
}

/** Apply an edit to a grouped text (as lines); everything but the edited cluster's chunk is kept. */
export function editHostsLines(
  lines: readonly string[],
  edit: HostsEdit,
  opts: RenderOptions = {},
): string[] {
  const body = parseBody(lines);
  let chunks: Chunk[];
  if (edit.kind === 'prune') {
    const keep = new Set(edit.keep);
    chunks = body.chunks.filter((c) => keep.has(c.clusterId));
  } else if (edit.kind === 'remove' || edit.hosts.length === 0) {
    chunks = body.chunks.filter((c) => c.clusterId !== edit.clusterId);
  } else {
    if (edit.hosts.some((h) => h.clusterId !== edit.clusterId)) {
      throw new ConfigError(
        'invalid-value',
        l10n.t('hosts of another cluster were given for cluster {0}.', edit.clusterId),
      );
    }
    checkAliases(body, edit.clusterId, edit.hosts);
    const chunk = { clusterId: edit.clusterId, lines: renderClusterHosts(edit.hosts, opts) };
    const at = body.chunks.findIndex((c) => c.clusterId === edit.clusterId);
    chunks = body.chunks
      .filter((c, i) => c.clusterId !== edit.clusterId || i === at)
      .map((c) => (c.clusterId === edit.clusterId ? chunk : c));
    if (at < 0) chunks.push(chunk);
  }
  return renderBody({ preamble: body.preamble, chunks });
}

/** Whether a grouped text holds no cluster and nothing else worth keeping. */
export function isEmptyHostsLines(lines: readonly string[]): boolean {
  const body = parseBody(lines);
  return body.chunks.length === 0 && body.preamble.length === 0;
}
