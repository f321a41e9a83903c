/**
 * How the extension logs in to a node, the same way everywhere (the ssh config entry, the command it
 * builds for Open SSH Terminal and Copy SSH Command, the Remote-SSH target): the node's own ssh port and
 * user when the service gives them (else the tensorpool.sshPort / sshUser settings), the key the cluster
 * was created with when we know it, and our own known_hosts with `StrictHostKeyChecking accept-new`,
 * the key stored under `<alias>.<cluster id>` (config/knownHosts.ts drops it when the cluster goes).
 */
import * as os from 'node:os';
import { errorMessage } from '../../../api/errors';
import type { SshPaths } from '../../../config/sshConfig';
import type { RenderOptions } from '../../../config/sshHosts';
import type { Cluster, Instance } from '../../../model/cluster';
import { buildSshArgv } from '../../../model/sshCommand';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import type { StoredState } from '../../shared/storedState';
import { readSshSettings } from '../../shared/settings';

export interface NodeLogin {
  readonly user: string;
  readonly port: number;
  readonly identity?: string;
  /** The host entry's name (`tp-<cluster>-<n>`). */
  readonly alias: string;
  /** The name its host key is stored under in our known_hosts. */
  readonly keyAlias: string;
  /** Our known_hosts as ssh reads it (`~/.ssh/tensorpool/known_hosts`, or the full path elsewhere). */
  readonly knownHosts: string;
}

/**
 * The home folder to write as `~` in ssh_config and commands: only the account's own (ssh expands `~` to
 * the home the system has for the account, not to $HOME or a folder a test chose), else paths in full.
 */
export function tildeHome(home: string): string | undefined {
  let account: string;
  try {
    account = os.userInfo().homedir;
  } catch {
    account = os.homedir();
  }
  return home === account ? home : undefined;
}

/** Our known_hosts, as the entries and the commands name it. */
export function knownHostsRefFor(home: string): string {
  const w = configWriters();
  return w.knownHostsRef(w.sshPaths(home).knownHosts, tildeHome(home));
}

export function nodeLogin(
  cluster: Cluster,
  instance: Instance,
  identityFiles: Readonly<Record<string, string>>,
  home: string,
  /** Port and user from elsewhere (the service's checked ssh command) when the node record has none. */
  fallback: { port?: number; user?: string } = {},
): NodeLogin {
  const s = readSshSettings();
  const index = Math.max(
    0,
    cluster.instances.findIndex((i) => i.id === instance.id),
  );
  const alias = configWriters().hostAlias(cluster.name ?? cluster.id, index + 1);
  return {
    user: instance.sshUser ?? cluster.sshUser ?? fallback.user ?? s.user,
    port: instance.sshPort ?? cluster.sshPort ?? fallback.port ?? s.port,
    identity: identityFiles[cluster.id],
    alias,
    keyAlias: configWriters().hostKeyAlias(alias, cluster.id),
    knownHosts: knownHostsRefFor(home),
  };
}

/** ssh's words to log into a node at `host` as `login` says (its port, user and key, our known_hosts and the
 *  host-key alias), the destination last: what a terminal, the GPU sampler and an upload each start from. */
export function loginArgv(login: NodeLogin, host: string): string[] {
  return buildSshArgv({
    user: login.user,
    host,
    port: login.port,
    identity: login.identity,
    knownHosts: login.knownHosts,
    hostKeyAlias: login.keyAlias,
  });
}

/**
 * Remove a destroyed cluster's hosts (our own file and the block, whichever holds them), then drop its
 * nodes' host keys from our known_hosts, so a new cluster at the same address is not taken for an attack.
 */
export async function removeClusterHosts(
  paths: SshPaths,
  clusterId: string,
  opts: RenderOptions,
  log: Log,
): Promise<void> {
  const w = configWriters();
  const names = new Set<string>();
  for (const file of [paths.hostsFile, paths.userConfig]) {
    const text = await w.readTextFile(file).catch(() => undefined);
    if (text) for (const n of w.knownHostNamesForCluster(text.split(/\r?\n/), clusterId)) names.add(n);
  }
  for (const edit of [w.editOwnHostsFile, w.editBlockFile]) {
    try {
      const result = await edit(paths, { kind: 'remove', clusterId }, opts);
      if (result.changed) log.info(`Removed the SSH hosts of ${clusterId} from ${result.path}.`);
    } catch (e) {
      log.warn(`Could not remove the SSH hosts of ${clusterId}: ${errorMessage(e)}`);
    }
  }
  try {
    const result = await w.removeKnownHosts(paths.knownHosts, [...names]);
    if (result.changed) log.info(`Dropped the host keys of ${clusterId} from ${result.path}.`);
  } catch (e) {
    log.warn(`Could not drop the host keys of ${clusterId}: ${errorMessage(e)}`);
  }
}

/**
 * Clusters a complete list no longer has (destroyed elsewhere): their host entries and host keys go
 * (removeClusterHosts, atomic writes), and the key file remembered for each is forgotten. The key file
 * itself stays: it may be the user's own key, used elsewhere too.
 */
export async function forgetClusters(
  paths: SshPaths,
  clusterIds: readonly string[],
  opts: RenderOptions,
  log: Log,
  state: StoredState,
): Promise<void> {
  for (const id of clusterIds) await removeClusterHosts(paths, id, opts, log);
  const all = { ...state.get('tensorpool.identityFiles', {}) };
  const known = clusterIds.filter((id) => id in all);
  if (known.length === 0) return;
  for (const id of known) delete all[id];
  await state.update('tensorpool.identityFiles', all);
  log.info(`Forgot the key files remembered for ${known.join(', ')}, which are gone.`);
}
