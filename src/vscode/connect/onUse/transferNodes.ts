/**
 * The nodes of a job's cluster as an upload or a pull reaches them: the ssh a terminal uses (connectLogin.ts:
 * the node's port and user, the cluster's key, our known_hosts with the cluster's host-key alias), never
 * asking anything (BatchMode), a connection of its own (no ControlMaster from the user's config). The
 * service's command is rewritten to use this ssh (model/transferCommand.ts), whatever remote shell it named.
 */
import { errorMessage } from '../../../api/errors';
import { SSH_OWN_CONNECTION } from '../../../model/childEnv';
import { clusterPhase, type Cluster } from '../../../model/cluster';
import { isSshHost, isSshPort, isSshUser } from '../../../model/sshAddress';
import type { TransferNode } from '../../../model/transferCommand';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import { loginArgv, nodeLogin } from './connectLogin';

const QUIET = ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=15', '-o', 'LogLevel=ERROR'];

/** The cluster's nodes with an address and a user ssh accepts (none when it is not running). */
export async function transferNodes(
  cluster: Cluster,
  identityFiles: Readonly<Record<string, string>>,
  home: string,
  log: Log,
): Promise<TransferNode[]> {
  if (cluster.status && clusterPhase(cluster.status) !== 'running') return [];
  const out: TransferNode[] = [];
  for (const instance of cluster.instances) {
    const ip = instance.ip;
    if (!ip || !isSshHost(ip)) continue;
    const login = nodeLogin(cluster, instance, identityFiles, home);
    if (!isSshUser(login.user) || !isSshPort(login.port)) continue;
    const argv = loginArgv(login, ip);
    argv.pop(); // the destination: rsync and scp add it
    out.push({ user: login.user, host: ip, ssh: [...argv, ...QUIET, ...SSH_OWN_CONNECTION] });
  }
  if (out.length > 0) {
    try {
      await configWriters().ensureKnownHostsFile(configWriters().sshPaths(home));
    } catch (e) {
      log.warn(`Could not create the TensorPool known_hosts file: ${errorMessage(e)}`);
    }
  }
  return out;
}
