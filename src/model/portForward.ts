/**
 * Forwarding a port of a node to this machine (Forward Port…, Open TensorBoard, Open Jupyter): the
 * well-known ports offered, what the user typed read as a port request, the ssh argv of a tunnel and of
 * the small remote checks, and the Jupyter server list read from `jupyter server list --json`. Pure
 * functions; the ssh login (port, user, key, our known_hosts) comes from connectLogin.ts.
 */
import * as l10n from '@vscode/l10n';
import { SSH_OWN_CONNECTION } from './childEnv';
import { buildSshArgv, type SshTarget } from './sshCommand';

export interface CommonPort {
  readonly port: number;
  readonly label: string;
}

/** The ports people forward most, offered first (the labels are product names, not translated). */
export const COMMON_PORTS: readonly CommonPort[] = [
  /* eslint-disable tensorpool/l10n -- product names */
  { port: 6006, label: 'TensorBoard' },
  { port: 8888, label: 'Jupyter' },
  { port: 7860, label: 'Gradio' },
  { port: 8501, label: 'Streamlit' },
  { port: 8000, label: 'vLLM / OpenAI-compatible server' },
  /* eslint-enable tensorpool/l10n */
];

const TENSORBOARD_PORT = 6006;
export const JUPYTER_PORT = 8888;

/** A forward the user asked for: the node's port, and this machine's port when they named one. */
export interface PortRequest {
  readonly remote: number;
  /** Only when the user asked for this exact local port (`LOCAL:REMOTE`). */
  readonly local?: number;
}

const PORT_TEXT = /^\s*(?:(\d{1,5})\s*:\s*)?(\d{1,5})\s*$/;

function validPort(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

/** Why the typed text is not a port request (`8080`, or `18080:8080` for an exact local port); undefined when it is. */
export function validatePortText(text: string): string | undefined {
  if (text.trim() === '') return l10n.t('Enter the port on the node, such as 6006.');
  const m = PORT_TEXT.exec(text);
  if (!m)
    return l10n.t(
      'Enter a port number from 1 to 65535, or LOCAL:REMOTE (such as 16006:6006) for a chosen local port.',
    );
  for (const part of [m[1], m[2]])
    if (part !== undefined && !validPort(Number(part)))
      return l10n.t('{0} is not a port: ports are 1 to 65535.', part);
  return undefined;
}

/** The port request typed text stands for; undefined when validatePortText refuses it. */
export function parsePortText(text: string): PortRequest | undefined {
  if (validatePortText(text) !== undefined) return undefined;
  const m = PORT_TEXT.exec(text)!;
  return m[1] !== undefined ? { remote: Number(m[2]), local: Number(m[1]) } : { remote: Number(m[2]) };
}

/**
 * Which local port to try: the exact one asked for, else the node's port when it is free here, else any
 * free port (0: the system picks). `isFree` says whether a port can be bound on 127.0.0.1 now.
 */
export async function chooseLocalPort(
  req: PortRequest,
  isFree: (port: number) => Promise<boolean>,
  anyFree: () => Promise<number>,
): Promise<{ port: number; same: boolean } | { taken: number }> {
  if (req.local !== undefined)
    return (await isFree(req.local))
      ? { port: req.local, same: req.local === req.remote }
      : { taken: req.local };
  if (await isFree(req.remote)) return { port: req.remote, same: true };
  return { port: await anyFree(), same: false };
}

/** Whether a tunnel's ssh ended because it could not listen on its local port (another program holds it). */
export function localBindFailed(sshStderr: string): boolean {
  return /^bind \[[^\]]*\]:\d+: Address already in use$|cannot listen to port: \d+/m.test(sshStderr);
}

/** The login part of every ssh we run to a node, as buildSshArgv makes it (no shell involved). */
export type NodeSsh = SshTarget;

/** Options every non-interactive ssh of ours carries: never prompt, give up soon on a dead node, a connection
 *  of its own (with a user's ControlMaster a tunnel's ready line never prints and its forward outlives it). */
const QUIET = ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=15', ...SSH_OWN_CONNECTION];

/** ssh with our options before the destination (buildSshArgv puts user@host last). */
function withOptions(t: NodeSsh, options: readonly string[]): string[] {
  const argv = buildSshArgv(t);
  const dest = argv.pop()!;
  return [...argv, ...options, dest];
}

/**
 * What a tunnel's ssh prints once its local port listens: OpenSSH runs LocalCommand after it has set up the
 * forwards (and, with ExitOnForwardFailure, exits instead when it could not), so this line, not a port that
 * accepts connections (another program may hold it), says the tunnel is ready.
 */
export const TUNNEL_READY = 'tp-tunnel-ready';

/** `ssh -N -L 127.0.0.1:<local>:127.0.0.1:<remote> -o ExitOnForwardFailure=yes -o BatchMode=yes … user@host`,
 *  printing TUNNEL_READY when the local port listens. */
export function tunnelArgv(t: NodeSsh, local: number, remote: number): string[] {
  return withOptions(t, [
    '-N',
    '-L',
    `127.0.0.1:${local}:127.0.0.1:${remote}`,
    '-o',
    'ExitOnForwardFailure=yes',
    '-o',
    'PermitLocalCommand=yes',
    '-o',
    `LocalCommand=echo ${TUNNEL_READY}`,
    ...QUIET,
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'ServerAliveCountMax=3',
  ]);
}

/** The marker the remote checks print, so ssh's own failure (no marker) is told from the check's answer. */
export const PROBE_MARK = 'tp-probe:';

/** ssh running `command` on the node (one argument: the remote shell reads it). */
export function remoteArgv(t: NodeSsh, command: string): string[] {
  return [...withOptions(t, QUIET), command];
}

/** Does something listen on the node's 127.0.0.1:<port>? Prints `tp-probe:0` when it does. */
export function probeCommand(port: number): string {
  if (!validPort(port)) throw new RangeError(String(port));
  return `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' 2>/dev/null; echo ${PROBE_MARK}$?`;
}

/** Is `program` installed on the node? Prints `tp-probe:0` when it is on PATH. */
export function whichCommand(program: 'tensorboard' | 'jupyter'): string {
  return `command -v ${program} >/dev/null 2>&1; echo ${PROBE_MARK}$?`;
}

/** The exit status a probe printed; undefined when ssh failed before it ran. */
export function probeStatus(stdout: string): number | undefined {
  const m = new RegExp(`${PROBE_MARK}(\\d+)\\s*$`).exec(stdout.trim());
  return m ? Number(m[1]) : undefined;
}

/** A word for a POSIX shell: plain when it is safe, else in single quotes. `~/` stays unquoted so it expands. */
export function shellWord(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  if (text.startsWith('~/')) return `~/${shellWord(text.slice(2))}`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command a terminal on the node runs to start TensorBoard on `port` (by default its usual one), on the
 *  node's loopback. */
export function tensorboardCommand(logdir: string, port = TENSORBOARD_PORT): string {
  return `tensorboard --logdir ${shellWord(logdir)} --host 127.0.0.1 --port ${port}`;
}

/** The command a terminal on the node runs to start JupyterLab (the token stays on the node). */
export function jupyterCommand(): string {
  return `jupyter lab --no-browser --ip 127.0.0.1 --port ${JUPYTER_PORT}`;
}

export interface JupyterServer {
  readonly port: number;
  readonly token: string;
  readonly baseUrl: string;
}

/** The servers `jupyter server list --json` prints (one JSON object a line; older versions an array). */
export function parseJupyterServers(stdout: string): JupyterServer[] {
  const out: JupyterServer[] = [];
  const take = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    const r = v as Record<string, unknown>;
    const port = Number(r.port);
    if (!validPort(port)) return;
    const base = typeof r.base_url === 'string' && r.base_url.startsWith('/') ? r.base_url : '/';
    out.push({ port, token: typeof r.token === 'string' ? r.token : '', baseUrl: base });
  };
  for (const line of stdout.split(/\r?\n/)) {
    const t = line.trim();
    if (!t.startsWith('{') && !t.startsWith('[')) continue;
    try {
      const v: unknown = JSON.parse(t);
      if (Array.isArray(v)) v.forEach(take);
      else take(v);
    } catch {
      // not JSON: a warning line Jupyter printed
    }
  }
  return out;
}

/** The local address of a forward (with a path and query, e.g. Jupyter's `/lab?token=…`). */
export function localUrl(port: number, pathAndQuery = '/'): string {
  return `http://127.0.0.1:${port}${pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`}`;
}

/** Jupyter's signed-in address: the server's base URL and its token (a secret: only for the browser). */
export function jupyterPath(server: JupyterServer): string {
  const base = server.baseUrl.endsWith('/') ? server.baseUrl : `${server.baseUrl}/`;
  return server.token ? `${base}lab?token=${encodeURIComponent(server.token)}` : `${base}lab`;
}
