/**
 * Starting a tunnel (dist/actions.js): spawn `ssh -N -L …` (argv from model/portForward.ts) as a child of the
 * extension host, register it with PortForwards at once (so the window's end reaches it even while it starts),
 * and wait until ssh says its local port listens (TUNNEL_READY) or exits. A tunnel that later ends by itself is
 * marked dropped and the user is offered Reconnect (the same argv, so the same local port) or Stop Forwarding.
 */
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as vscode from 'vscode';
import { Commands } from '../../shared/commands';
import { childEnv } from '../../../model/childEnv';
import { notices } from '../../shared/notices';
import { TUNNEL_READY } from '../../../model/portForward';
import type { ForwardSpec, PortForwards, Forward } from '../portForwards';

export type StartResult =
  { readonly ok: true; readonly forward: Forward } | { readonly ok: false; readonly message: string };

const READY_TIMEOUT_MS = 25_000;
const MAX_STDERR = 4_000;

/** Can 127.0.0.1:<port> be bound now? */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Start the tunnel; resolves once ssh says its local port listens, or with why it did not. `signal` (a
 *  notebook's stop button) ends the wait: the tunnel's ssh is ended and forgotten. */
export async function startTunnel(
  forwards: PortForwards,
  spec: ForwardSpec,
  signal?: AbortSignal,
): Promise<StartResult> {
  const log = forwards.log;
  const [file, ...args] = spec.argv;
  const env = childEnv(process.env, process.platform, 'ssh');
  const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  const forward = forwards.add(spec, child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    if (stderr.length < MAX_STDERR) stderr += d;
  });
  let stdout = '';
  let ready = false;
  const listening = new Promise<void>((resolve) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (d: string) => {
      if (stdout.length < MAX_STDERR) stdout += d;
      if (!ready && stdout.includes(TUNNEL_READY)) {
        ready = true;
        resolve();
      }
    });
  });
  let exited: string | undefined;
  const ended = new Promise<void>((resolve) => {
    child.once('error', (e) => {
      exited = e.message;
      resolve();
    });
    child.once('exit', (code, signal) => {
      exited ??= `exit ${code ?? signal}`;
      resolve();
    });
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const live = () => forwards.has(forward.id) && !signal?.aborted;
  while (!ready && exited === undefined && Date.now() < deadline && live())
    await Promise.race([listening, ended, new Promise((r) => setTimeout(r, 150))]);
  if (!ready || exited !== undefined || !live()) {
    const why = log.secrets.redact(stderr.trim()) || exited || 'timed out';
    forwards.end(forward.id);
    return { ok: false, message: why };
  }
  forwards.setState(forward.id, 'up');
  void ended.then(() => dropped(forwards, forward, stderr));
  log.info(
    `Forwarding 127.0.0.1:${forward.local} to port ${forward.remote} of node ${forward.instanceId} (${forward.clusterId}).`,
  );
  return { ok: true, forward };
}

/** The tunnel's ssh ended by itself (not stopped or closed): mark it dropped and offer to reconnect. */
function dropped(forwards: PortForwards, f: Forward, stderr: string): void {
  if (!forwards.has(f.id)) return;
  forwards.setState(f.id, 'dropped');
  const detail = forwards.log.secrets.redact(stderr.trim().split(/\r?\n/).pop() ?? '');
  forwards.log.warn(
    `The tunnel ${f.id} to port ${f.remote} of ${f.instanceId} dropped${detail ? `: ${detail}` : ''}.`,
  );
  const reconnect = vscode.l10n.t('Reconnect');
  const stop = vscode.l10n.t('Stop Forwarding');
  void notices
    .showWarningMessage(
      vscode.l10n.t(
        'The forward of port {0} on node {1} of {2} (local port {3}) dropped.',
        f.remote,
        f.node,
        f.clusterName,
        f.local,
      ),
      reconnect,
      stop,
    )
    .then((a) => {
      if (a === reconnect) void vscode.commands.executeCommand(Commands.reconnectForward, f.id);
      else if (a === stop) forwards.stop(f.id);
    });
}

/** Start a dropped forward again with the argv it had (so on the same local port). */
export async function reconnectTunnel(forwards: PortForwards, id: string): Promise<StartResult | undefined> {
  const f = forwards.get(id);
  if (!f || f.state !== 'dropped') return undefined;
  const openPath = forwards.openPath(f);
  forwards.end(id);
  const { id: _id, state: _state, ...spec } = f;
  return startTunnel(forwards, { ...spec, openPath });
}
