/**
 * How the GPU telemetry reaches a node: the real OpenSSH client with the node's port, user and key and our
 * own known_hosts (connectLogin.ts, as for a terminal), never asking anything (BatchMode), its own
 * connection (no ControlMaster a user's config may set up), and keep-alives so a node that stops
 * answering ends the session instead of freezing it. The child gets a small environment of its own:
 * no token or storage key travels into an ssh process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv, SSH_OWN_CONNECTION } from '../../../model/childEnv';
import { clusterPhase, type Cluster } from '../../../model/cluster';
import { isSshHost, isSshPort, isSshUser } from '../../../model/sshAddress';
import { loginArgv, nodeLogin } from '../../connect/onUse';
import type { NodeTarget } from '../gpuSampler';

const OPTIONS = [
  ['BatchMode', 'yes'],
  ['ConnectTimeout', '10'],
  ['ServerAliveInterval', '5'],
  ['ServerAliveCountMax', '3'],
  ['LogLevel', 'ERROR'],
]
  .flatMap(([k, v]) => ['-o', `${k}=${v}`])
  .concat(SSH_OWN_CONNECTION);

/** The running cluster's nodes that have an address, as telemetry targets. */
export function nodeTargets(
  cluster: Cluster,
  identityFiles: Readonly<Record<string, string>>,
  home: string,
): NodeTarget[] {
  if (clusterPhase(cluster.status) !== 'running') return [];
  const out: NodeTarget[] = [];
  for (const instance of cluster.instances) {
    const ip = instance.ip;
    if (!ip || !isSshHost(ip) || (instance.status && clusterPhase(instance.status) !== 'running')) continue;
    const login = nodeLogin(cluster, instance, identityFiles, home);
    if (!isSshUser(login.user) || !isSshPort(login.port)) continue;
    const argv = loginArgv(login, ip);
    const dest = argv.pop()!;
    out.push({ clusterId: cluster.id, instanceId: instance.id, argv: [...argv, ...OPTIONS, '-T', dest] });
  }
  return out;
}

/** Start an ssh argv without a shell, with only the variables ssh needs (model/childEnv.ts: on Windows
 *  SystemRoot and the rest Winsock and ssh need; never a credential). */
export function spawnSsh(argv: readonly string[], cwd: string): ChildProcess {
  const env = childEnv(process.env, process.platform, 'ssh');
  return spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
}
