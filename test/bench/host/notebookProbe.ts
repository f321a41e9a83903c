// What the notebook step of the bench (./notebookBench.ts) uses in the extension host: the plain client
// (../notebookClient.ts) in a Node process of its own, a cell run with VS Code's Run command timed to its end in
// the notebook document, and where the extension's run went on its kernel connection (its execute requests and
// their answers, from the connection's anyMessage signal).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as readline from 'node:readline';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { sleep } from '../../shared/wait';

export type Notebooks = ReturnType<TensorPoolExtensionApi['testing']['notebooks']>;
export type KernelConnection = Awaited<ReturnType<Notebooks['session']>>['kernel'];

/** Where an extension run's time went (ms): the Run command to VS Code calling the extension's execute
 *  handler; the handler to its execute request on the kernel's WebSocket; the request to its reply and idle
 *  status (the kernel's round trip as the extension's connection sees it); from there to the handler's return;
 *  the handler's return to the cell's end seen in this host's notebook document. */
export interface RunParts {
  toHandlerMs: number;
  toRequestMs: number;
  kernelMs: number;
  toReturnMs: number;
  toDocumentMs: number;
}

/** The execute requests sent on `kernel` and when the last of their reply and idle status came; `stall(code)`:
 *  ms of busy work in this host as the reply of a request running `code` arrives (the injected costs). */
export function watchRequests(kernel: KernelConnection, stall: (code: string) => number) {
  const spans: Array<{ id: string; code: string; sent: number; done?: number }> = [];
  const on = (
    _: unknown,
    a: {
      msg: { header: { msg_type: string; msg_id: string }; parent_header: unknown; content: unknown };
      direction: 'send' | 'recv';
    },
  ) => {
    const m = a.msg;
    if (a.direction === 'send') {
      if (m.header.msg_type === 'execute_request')
        spans.push({
          id: m.header.msg_id,
          code: String((m.content as { code?: unknown }).code),
          sent: performance.now(),
        });
      return;
    }
    const parent = (m.parent_header as { msg_id?: string } | undefined)?.msg_id;
    const span = spans.find((x) => x.id === parent);
    const idle =
      m.header.msg_type === 'status' &&
      (m.content as { execution_state?: string }).execution_state === 'idle';
    if (!span || !(idle || m.header.msg_type === 'execute_reply')) return;
    span.done = performance.now();
    if (m.header.msg_type !== 'execute_reply') return;
    const ms = stall(span.code);
    while (performance.now() - span.done < ms);
  };
  kernel.anyMessage.connect(on);
  return {
    /** The parts of a run from t0 to t1 (its request the last one sent). */
    parts(run: { t0: number; t1: number }, handler: { start: number; end?: number } | undefined): RunParts {
      const last = spans.at(-1);
      if (!last?.done || last.sent < run.t0) throw new Error('the execute request of the run was not seen');
      if (!handler?.end || handler.start < run.t0) throw new Error("the run's execute handler was not seen");
      return {
        toHandlerMs: handler.start - run.t0,
        toRequestMs: last.sent - handler.start,
        kernelMs: last.done - last.sent,
        toReturnMs: handler.end - last.done,
        toDocumentMs: run.t1 - handler.end,
      };
    },
    stop: () => kernel.anyMessage.disconnect(on),
  };
}

/** The plain client (../notebookClient.ts) in a Node process of its own; one request at a time. */
export class PlainClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly answers: AsyncIterator<string>;
  private stderr = '';

  constructor(port: number, token: string) {
    const script = path.join(__dirname, '..', 'notebookClient.js');
    // code-server's extension host runs on a plain `node` (test/harness/codeServer.ts); under Electron the same
    // binary needs ELECTRON_RUN_AS_NODE to be one.
    this.child = spawn(process.execPath, [script], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (this.stderr.length < 4000) this.stderr += d;
    });
    this.answers = readline.createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    this.child.stdin.write(`${JSON.stringify({ port, token })}\n`);
  }

  async ask<T>(message: Record<string, unknown>): Promise<T> {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    let next: IteratorResult<string, unknown>;
    do
      next = await Promise.race([
        this.answers.next(),
        sleep(120_000).then(() => ({ done: true as const, value: undefined })),
      ]);
    while (!next.done && !String(next.value).startsWith('{'));
    if (next.done)
      throw new Error(`the plain client did not answer ${message.op}: ${this.stderr.slice(-500)}`);
    const a = JSON.parse(String(next.value)) as T & { error?: string };
    if (a.error) throw new Error(`the plain client: ${a.error}`);
    return a;
  }

  async quit(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.stdin.end(`${JSON.stringify({ op: 'quit' })}\n`);
    await Promise.race([gone, sleep(10_000)]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** Run cell `i` with VS Code's Run command: from the command (t0) to its end seen in the document (t1). */
export async function runCell(nb: vscode.NotebookDocument, i: number): Promise<{ t0: number; t1: number }> {
  const before = nb.cellAt(i).executionSummary?.executionOrder ?? 0;
  let sub: vscode.Disposable | undefined;
  const ended = new Promise<number>((resolve) => {
    sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook !== nb) return;
      const s = nb.cellAt(i).executionSummary;
      if ((s?.executionOrder ?? 0) !== before && s?.success !== undefined) resolve(performance.now());
    });
  });
  try {
    const t0 = performance.now();
    const done = vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: i, end: i + 1 }],
      document: nb.uri,
    });
    const t1 = await Promise.race([ended, sleep(120_000).then(() => undefined)]);
    await done;
    if (t1 === undefined) throw new Error(`cell ${i} did not end within 120 s`);
    const s = nb.cellAt(i).executionSummary;
    if (!s?.success)
      throw new Error(`cell ${i} failed: ${textOf(nb.cellAt(i), 'application/vnd.code.notebook.error')}`);
    return { t0, t1 };
  } finally {
    sub?.dispose();
  }
}

/** Where `got` first differs from `want`, in words (a few characters around it, escaped). */
export function difference(got: string, want: string, run: number, outputs: number): string {
  let at = 0;
  while (at < got.length && got[at] === want[at]) at++;
  const around = (t: string) => JSON.stringify(t.slice(Math.max(0, at - 20), at + 40));
  return `run ${run + 1}: ${got.length} characters in ${outputs} output(s), the first difference at ${at}: ${around(got)}, expected ${around(want)}`;
}

const decoder = new TextDecoder();
export const textOf = (cell: vscode.NotebookCell, mime: string) =>
  cell.outputs
    .flatMap((o) => o.items)
    .filter((item) => item.mime === mime)
    .map((item) => decoder.decode(item.data))
    .join('');

/** Wait for a kernel connection's WebSocket to be connected. */
export function connected(kernel: Awaited<ReturnType<Notebooks['session']>>['kernel']): Promise<void> {
  if (kernel.connectionStatus === 'connected') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the reattached kernel did not connect in 30 s')),
      30_000,
    );
    const on = (_: unknown, s: string) => {
      if (s !== 'connected') return;
      clearTimeout(timer);
      kernel.connectionStatusChanged.disconnect(on);
      resolve();
    };
    kernel.connectionStatusChanged.connect(on);
  });
}
