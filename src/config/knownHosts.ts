/**
 * Our known_hosts (~/.ssh/tensorpool/known_hosts): ssh records a node's host key there on first use
 * (`StrictHostKeyChecking accept-new`) and refuses a key that changes under the same name. When a
 * cluster is destroyed, its nodes' keys are dropped here, so a new cluster that gets the same address
 * (or, on the local engine, the same port) starts fresh instead of meeting "REMOTE HOST IDENTIFICATION
 * HAS CHANGED". Names are those our entries and commands use: `HostKeyAlias <alias>.<cluster id>`, and
 * the node's own `[host]:port` / host. Hashed lines (`|1|salt|hash`, HashKnownHosts) are matched too.
 * Atomic edits only (atomicWrite.ts); a missing file is left missing.
 */
import { createHmac } from 'node:crypto';
import { editTextFile, type AtomicWriteOptions, type WriteResult } from './atomicWrite';
import { listClusterHostEntries } from './sshHosts';

/** The names ssh stores a host's key under: `[host]:port`, or the bare host on port 22. */
export function knownHostName(host: string, port = 22): string {
  return port === 22 ? host.toLowerCase() : `[${host.toLowerCase()}]:${port}`;
}

/** Every name the keys of a cluster's nodes may be stored under, from its grouped host entries. */
export function knownHostNamesForCluster(lines: readonly string[], clusterId: string): string[] {
  const names = new Set<string>();
  for (const e of listClusterHostEntries(lines)
    .filter((c) => c.clusterId === clusterId)
    .flatMap((c) => c.hosts)) {
    names.add(`${e.alias}.${clusterId}`.toLowerCase()); // as hostKeyAlias writes it; read back, never refused
    if (e.hostName) names.add(knownHostName(e.hostName, e.port));
  }
  return [...names];
}

function hashedMatches(field: string, names: readonly string[]): boolean {
  const m = /^\|1\|([^|]+)\|([^|]+)$/.exec(field);
  if (!m) return false;
  const salt = Buffer.from(m[1], 'base64');
  return names.some((n) => createHmac('sha1', salt).update(n).digest('base64') === m[2]);
}

/** The known_hosts text without the keys stored under `names` (a line naming others keeps those). */
export function dropKnownHosts(text: string, names: readonly string[]): string {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  if (drop.size === 0) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      out.push(line);
      continue;
    }
    const fields = trimmed.split(/\s+/);
    const at = fields[0].startsWith('@') ? 1 : 0;
    const hosts = fields[at] ?? '';
    if (hosts.startsWith('|')) {
      if (!hashedMatches(hosts, [...drop])) out.push(line);
      continue;
    }
    const kept = hosts.split(',').filter((h) => !drop.has(h.toLowerCase()));
    if (kept.length === hosts.split(',').length) out.push(line);
    else if (kept.length > 0)
      out.push([...fields.slice(0, at), kept.join(','), ...fields.slice(at + 1)].join(' '));
  }
  return out.join(eol);
}

/** Drop the keys stored under `names` from a known_hosts file, atomically; nothing when it is missing. */
export function removeKnownHosts(
  file: string,
  names: readonly string[],
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return editTextFile(file, (old) => (old === undefined ? '' : dropKnownHosts(old, names)), opts);
}
