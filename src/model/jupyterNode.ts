/**
 * The Jupyter server a notebook kernel runs under on a node (src/vscode/notebooks/onUse): the shell scripts
 * our ssh runs there and how their output reads. Everything the server needs lives in
 * `~/.tensorpool/jupyter/` on the node (mode 700; files 600): `config.json` (the token, written from ssh's
 * standard input, never a command line or an environment variable), `server.pid`, `server.log`, and Jupyter's
 * own runtime folder `runtime/` whose `jpserver-<pid>.json` says the port it bound and the token. The server
 * is started detached (setsid, nohup) so it outlives the ssh session and the editor; it binds 127.0.0.1 only.
 * Pure functions.
 */
import { randomBytes } from 'node:crypto';

/** The mark the scripts print when the Jupyter command is not on the node's PATH. */
const JUPYTER_MISSING = 'tp-jupyter-missing';
/** The mark the start script prints before the server's record. */
const STARTED = 'tp-jupyter-started';
const FAILED = 'tp-jupyter-failed';

/** What is known of a server running on the node. */
export interface NodeJupyter {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
}

/** A fresh token (48 hex digits). */
export function newJupyterToken(): string {
  return randomBytes(24).toString('hex');
}

const DIR = '"$HOME/.tensorpool/jupyter"';

/** Print the record of the server we started, when it still runs; nothing otherwise. */
export function probeScript(): string {
  return [
    `d=${DIR}`,
    'pid=$(cat "$d/server.pid" 2>/dev/null) || exit 0',
    'kill -0 "$pid" 2>/dev/null || exit 0',
    'cat "$d/runtime/jpserver-$pid.json" 2>/dev/null',
  ].join('\n');
}

/** The first word of the user's command (what `command -v` checks). */
function program(command: string): string {
  return command.trim().split(/\s+/)[0] ?? '';
}

/** A word for a POSIX shell inside double quotes' absence: single-quoted unless plain. */
function word(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Start a server detached: the token is the first line of standard input; `command` is the user's setting
 * (words split on blanks, nothing else of a shell); `firstPort` where Jupyter starts looking for a free port
 * (it tries up to 50 more on the node). Prints JUPYTER_MISSING, or STARTED and the runtime record once the
 * server listens (or FAILED and the end of its log).
 */
export function startScript(command: string, firstPort: number): string {
  const words = command.trim().split(/\s+/).filter(Boolean).map(word).join(' ');
  return [
    'umask 077',
    `d=${DIR}`,
    'mkdir -p "$d/runtime" && chmod 700 "$HOME/.tensorpool" "$d" "$d/runtime" || exit 90',
    'IFS= read -r tok || exit 91',
    `command -v ${word(program(command))} >/dev/null 2>&1 || { echo ${JUPYTER_MISSING}; exit 0; }`,
    // printf is a shell builtin: the token is on no process's command line.
    `printf '{"ServerApp": {"token": "%s", "password": "", "open_browser": false, "ip": "127.0.0.1", "port": ${firstPort}, "port_retries": 50, "allow_root": true, "root_dir": "%s"}}\\n' "$tok" "$HOME" > "$d/config.json" || exit 92`,
    `cd "$HOME" && JUPYTER_RUNTIME_DIR="$d/runtime" setsid nohup ${words} --config="$d/config.json" >"$d/server.log" 2>&1 </dev/null &`,
    'pid=$!',
    'echo "$pid" > "$d/server.pid"',
    'i=0',
    'while [ $i -lt 300 ]; do',
    '  if [ -s "$d/runtime/jpserver-$pid.json" ]; then',
    `    echo ${STARTED}; cat "$d/runtime/jpserver-$pid.json"; exit 0`,
    '  fi',
    `  kill -0 "$pid" 2>/dev/null || { echo ${FAILED}; tail -n 20 "$d/server.log"; exit 0; }`,
    '  sleep 0.1; i=$((i+1))',
    'done',
    `echo ${FAILED}; tail -n 20 "$d/server.log"`,
  ].join('\n');
}

/** Stop the server we started (TERM, then KILL after 5 s); prints `tp-jupyter-stopped` when one ran. */
export function stopScript(): string {
  return [
    `d=${DIR}`,
    'pid=$(cat "$d/server.pid" 2>/dev/null) || exit 0',
    'if kill -0 "$pid" 2>/dev/null; then',
    '  kill -TERM "$pid"; i=0',
    '  while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done',
    '  kill -KILL "$pid" 2>/dev/null',
    '  echo tp-jupyter-stopped',
    'fi',
    'rm -f "$d/server.pid" "$d/runtime/jpserver-$pid.json"',
  ].join('\n');
}

export type StartAnswer =
  | { readonly kind: 'started'; readonly server: NodeJupyter }
  | { readonly kind: 'missing' }
  | { readonly kind: 'failed'; readonly log: string };

/** The runtime record Jupyter wrote (`jpserver-<pid>.json`), when the text holds one. */
export function parseServerRecord(text: string): NodeJupyter | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const r = JSON.parse(text.slice(start)) as Record<string, unknown>;
    const port = Number(r.port);
    const pid = Number(r.pid);
    if (!Number.isInteger(port) || port < 1 || port > 65535 || !Number.isInteger(pid)) return undefined;
    return { pid, port, token: typeof r.token === 'string' ? r.token : '' };
  } catch {
    return undefined;
  }
}

/** What the start script printed. */
export function parseStartAnswer(stdout: string): StartAnswer | undefined {
  if (stdout.includes(JUPYTER_MISSING)) return { kind: 'missing' };
  const started = stdout.indexOf(STARTED);
  if (started >= 0) {
    const server = parseServerRecord(stdout.slice(started + STARTED.length));
    return server ? { kind: 'started', server } : { kind: 'failed', log: '' };
  }
  const failed = stdout.indexOf(FAILED);
  if (failed >= 0) return { kind: 'failed', log: stdout.slice(failed + FAILED.length).trim() };
  return undefined;
}

/** `8xH100` as the kernel picker shows it (`8×H100`); other shapes as they are. */
export function gpuLabel(instanceType: string | undefined): string | undefined {
  if (!instanceType) return undefined;
  const m = /^(\d+)x(\S+)$/i.exec(instanceType);
  return m ? `${m[1]}×${m[2]}` : instanceType;
}

/** The path of a notebook for Jupyter's sessions (relative to the server's root, the login's home):
 *  the folder on the node and the notebook's path inside the local folder, `/` separated. */
export function sessionPath(remoteFolder: string | undefined, relative: string): string {
  const rel = relative
    .split(/[\\/]+/)
    .filter(Boolean)
    .join('/');
  return remoteFolder ? `${remoteFolder.replace(/\/+$/, '')}/${rel}` : rel;
}
