// The plain client of the notebook rows (issue 42; started by ./host/notebookBench.ts in a Node process of its
// own: the extension host's node, this file and nothing of the extension): the same client library the
// extension's notebooks use (./jupyterLink.ts), against the same Jupyter server on
// the node through the same tunnel (the extension's local port).
//
// It reads JSON lines on standard input and answers each with one JSON line on standard output. The first line
// is `{ port, token }`: the token comes over stdin only (never argv or the environment) and is never printed.
//   { op: 'start' }                 start a kernel of its own on the server (not the notebook's) and run one
//                                   cell on it (warm): { kernelId }
//   { op: 'run', code }             run `code` on it, from the execute request to its reply and idle status
//                                   (all output received): { ms, chars, status }
//   { op: 'reattachBaseline', ssh, tunnel }
//                                   what reattaching must do at least: `ssh node true` (ssh: the extension's
//                                   argv of its probe, the remote command replaced by `true`), then a new tunnel
//                                   (tunnel: the extension's tunnel argv, another free local port in its -L) up to
//                                   its ready line, and one GET /api/kernels through it; the tunnel ends after:
//                                   { ms, sshMs, tunnelMs, getMs, kernels }
//   { op: 'direct', port, runs }    a second connection to its kernel straight to the server's port on the node
//                                   (no tunnel: the engine's nodes are this machine), `runs` runs of 1+1:
//                                   { ms: [...] } (what the tunnel adds, for the notes)
//   { op: 'quit' }                  shut its kernel down and exit.
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import { performance } from 'node:perf_hooks';
import * as readline from 'node:readline';
import { KernelConnection, type Kernel } from '@jupyterlab/services';
import { connected, settings, startKernel, type Link } from './jupyterLink';

/** What the extension's tunnel prints once its local port listens (src/model/portForward.ts TUNNEL_READY). */
const TUNNEL_READY = 'tp-tunnel-ready';

async function run(kernel: Kernel.IKernelConnection, code: string) {
  const t0 = performance.now();
  let text = '';
  const future = kernel.requestExecute({ code, store_history: true, stop_on_error: true });
  future.onIOPub = (m) => {
    const c = m.content as { text?: unknown };
    if (m.header.msg_type === 'stream' && typeof c.text === 'string') text += c.text;
  };
  const reply = await future.done;
  return { ms: performance.now() - t0, chars: text.length, status: reply.content.status };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function exited(file: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? -1));
  });
}

async function reattachBaseline(link: Link, ssh: string[], tunnel: string[]) {
  const t0 = performance.now();
  const code = await exited(ssh[0], ssh.slice(1));
  if (code !== 0) throw new Error(`ssh node true exited ${code}`);
  const t1 = performance.now();
  const local = await freePort();
  const argv = tunnel.map((a) => a.replace(/^127\.0\.0\.1:\d+:/, `127.0.0.1:${local}:`));
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes(TUNNEL_READY)) resolve();
      });
      child.once('error', reject);
      child.once('exit', (c) => reject(new Error(`the tunnel's ssh exited ${c}`)));
    });
    const t2 = performance.now();
    const res = await fetch(`http://127.0.0.1:${local}/api/kernels`, {
      headers: { Authorization: `token ${link.token}` },
    });
    if (!res.ok) throw new Error(`GET /api/kernels: HTTP ${res.status}`);
    const kernels = ((await res.json()) as unknown[]).length;
    const t3 = performance.now();
    return { ms: t3 - t0, sshMs: t1 - t0, tunnelMs: t2 - t1, getMs: t3 - t2, kernels };
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  // Standard output carries the answers only: the library's own logging ("Starting WebSocket: …") goes to stderr.
  console.log = console.info = console.debug = (...a: unknown[]) => console.error(...a);
  const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const first = await lines.next();
  const link = JSON.parse(String(first.value)) as Link;
  const s = settings(link);
  let kernel: KernelConnection | undefined;
  const answer = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    const m = JSON.parse(String(next.value)) as {
      op: string;
      code?: string;
      ssh?: string[];
      tunnel?: string[];
      port?: number;
      runs?: number;
    };
    try {
      if (m.op === 'start') {
        kernel = await startKernel(s);
        await run(kernel, '0');
        answer({ kernelId: kernel.id });
      } else if (m.op === 'run') {
        if (!kernel) throw new Error('no kernel: start first');
        answer(await run(kernel, m.code ?? ''));
      } else if (m.op === 'direct') {
        if (!kernel) throw new Error('no kernel: start first');
        const direct = new KernelConnection({
          model: kernel.model,
          serverSettings: settings({ port: Number(m.port), token: link.token }),
          handleComms: false,
          username: 'bench',
        });
        await connected(direct);
        const ms: number[] = [];
        for (let i = 0; i < Number(m.runs); i++) ms.push((await run(direct, '1+1')).ms);
        direct.dispose();
        answer({ ms });
      } else if (m.op === 'reattachBaseline') {
        answer(await reattachBaseline(link, m.ssh ?? [], m.tunnel ?? []));
      } else if (m.op === 'quit') break;
      else throw new Error(`unknown op ${m.op}`);
    } catch (e) {
      // The server's answers are not echoed: only the error's first line, without anything it may hold.
      answer({ error: (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 300) });
    }
  }
  if (kernel) {
    await kernel.shutdown().catch(() => undefined);
    kernel.dispose();
  }
  process.exit(0);
}

void main();
