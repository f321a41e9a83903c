// Notebooks in the bench (issue 42; called by ./index.ts), on a real node of the engine's (its OpenSSH sshd on
// 127.0.0.1) running Debian's Jupyter Server and IPython kernel, started there by the extension: an untitled
// notebook whose kernel is the node's entry of the kernel picker, its cells run with VS Code's own Run command.
// Beside it, a plain client (../notebookClient.ts): the same client library (@jupyterlab/services) in a Node
// process of its own, with a kernel of its own on the same server through the same tunnel (the extension's
// local port; the token handed over on the child's stdin). Same run, interleaved, the order alternating:
//   - 1+1: from the Run command to the cell's end (its output, count and success) seen in this host's notebook
//     document, beside the client's execute request to its reply and idle status; TRIVIAL_PAIRS pairs. Where the
//     extension's run goes (VS Code to its execute handler, to the request, the kernel, to the end) is reported
//     beside (./notebookProbe.ts RunParts), and the client straight to the server's port (no tunnel); the same
//     cell through a minimal controller in this host (./notebookReference.ts), each of the three first in turn.
//   - 100,000 lines (print(i) for each i): the same, LINES_RUNS pairs, the client's receive time the baseline;
//     the host's event-loop delay p99 over the extension's run, the text the cell shows (checked whole), and
//     heapUsed and the ArrayBuffers' memory (where the outputs' bytes live) after a full GC before and after the
//     run (what the cell's output leaves). Then the same cell through the minimal controller, its notebook in
//     the extension's place, beside the plain client in LINES_RUNS pairs of their own.
//   - reattach (./notebookReattach.ts): every connection and tunnel of the extension dropped (the test seam
//     dropConnections(), as a new extension host starts without them), then the notebook's kernel session
//     opened again (the server is found running: the probe over ssh, a new tunnel, the kernel looked up by id
//     and its WebSocket connected), beside `ssh node true` (the extension's own ssh words) plus one GET
//     /api/kernels through a new tunnel (its own tunnel words, another local port) in the plain client's
//     process; REATTACH_PAIRS pairs.
// The server gets Jupyter's IOPub rate limits raised (tensorpool.notebooks.jupyterCommand, this workspace) so
// that 100,000 lines are not cut by the server: both sides get the same server.
// Injections (../inject.ts): `notebook-cell-stall` busy work in the host as the 1+1 cell's execute reply
// arrives (4 times the plain client's last round trip: the rows fail past 4x), `notebook-lines-stall` the same
// for the 100,000-line cell (4 times the client's last receive time), `notebook-reattach-sleep` a sleep before
// the extension's ssh probe (the last baseline's time).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { realCluster, removeCluster } from '../../integration/realCluster';
import { sleep, until } from '../../shared/wait';
import type { Injection } from '../inject';
import { collector } from './gc';
import {
  difference,
  PlainClient,
  runCell,
  textOf,
  watchRequests,
  type Notebooks,
  type RunParts,
} from './notebookProbe';
import { ReferenceNotebook } from './notebookReference';
import { reattachPairs } from './notebookReattach';
import { SpawnSpy } from './syncProbe';

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const TRIVIAL_PAIRS = num('TENSORPOOL_BENCH_NB_PAIRS', 20);
/** Pairs of the 100,000-line cell: the plain client's receive time alone moves from 160 to 215 ms between
 *  runs, so with fewer pairs one slow pair sets the median. */
const LINES_RUNS = num('TENSORPOOL_BENCH_NB_LINES_RUNS', 6);
const REATTACH_PAIRS = num('TENSORPOOL_BENCH_NB_REATTACH', 3);
/** Runs of 1+1 by the plain client straight to the server's port, for the notes (what the tunnel adds). */
const DIRECT_RUNS = 10;
const NB_LINES = 100_000;
const TRIVIAL = '1+1';
const LINES = `for i in range(${NB_LINES}):\n    print(i)`;
const EXPECTED = Array.from({ length: NB_LINES }, (_, i) => `${i}\n`).join('');
const JUPYTER = 'jupyter-server --ServerApp.iopub_data_rate_limit=1e12 --ServerApp.iopub_msg_rate_limit=1e9';
const STDOUT = 'application/vnd.code.notebook.stdout';

export interface NotebookSample {
  trivial: {
    extensionMs: number[];
    parts: RunParts[];
    clientMs: number[];
    /** The plain client straight to the server's port (no tunnel; the node is this machine). */
    directMs: number[];
    /** The same cell through a minimal controller in this host (./notebookReference.ts): VS Code's own part. */
    referenceMs: number[];
  };
  lines: {
    extensionMs: number[];
    clientMs: number[];
    /** The extension host's event-loop delay p99 / max over each extension run (ms, 10 ms resolution). */
    loopP99Ms: number[];
    loopMaxMs: number[];
    /** The cell's stdout as shown (bytes), what the client received (characters), and whether the cell's
     *  text was the whole of what was printed. */
    outputBytes: number;
    clientChars: number;
    whole: boolean;
    /** Where the first run whose text was not the whole of what was printed differs from it. */
    differs?: string;
    /** The same cell through the minimal controller (./notebookReference.ts: the text put in the cell at once),
     *  its notebook alone in the editor, after the extension's runs, alternating with the plain client's. */
    referenceMs: number[];
    referenceClientMs: number[];
    parts: RunParts[];
    /** heapUsed and arrayBuffers after a full GC (MB) before and after each extension run. */
    heapMB: Array<{ before: number; after: number; buffersBefore: number; buffersAfter: number }> | undefined;
  };
  reattach: {
    extensionMs: number[];
    baselineMs: number[];
    /** The baseline's parts: ssh node true, the new tunnel up, GET /api/kernels. */
    parts: Array<{ sshMs: number; tunnelMs: number; getMs: number }>;
  };
  injected: string[];
  elapsedMs: number;
}

export async function notebookBench(
  api: TensorPoolExtensionApi,
  inject: ReadonlySet<Injection>,
): Promise<NotebookSample> {
  const started = performance.now();
  const gc = collector();
  const heap = () => {
    gc?.();
    const m = process.memoryUsage();
    return { heap: m.heapUsed / 2 ** 20, buffers: m.arrayBuffers / 2 ** 20 };
  };
  const config = vscode.workspace.getConfiguration('tensorpool');
  await config.update('notebooks.jupyterCommand', JUPYTER, vscode.ConfigurationTarget.Workspace);
  const c = await realCluster(`bench-nb-${Date.now()}`);
  await api.refresh();
  const notebooks = api.testing.notebooks();
  const spy = new SpawnSpy(() => true);
  let client: PlainClient | undefined;
  let entry: ReturnType<Notebooks['controllers']['byNode']>;
  let original: vscode.NotebookController['executeHandler'] | undefined;
  let reference: ReferenceNotebook | undefined;
  try {
    const nb = await vscode.workspace.openNotebookDocument(
      'jupyter-notebook',
      new vscode.NotebookData(
        [TRIVIAL, LINES].map((s) => new vscode.NotebookCellData(vscode.NotebookCellKind.Code, s, 'python')),
      ),
    );
    await vscode.window.showNotebookDocument(nb);
    await until(
      'the node in the kernel list',
      () => {
        notebooks.controllers.update();
        return !!notebooks.controllers.byNode(c.id, c.instanceId);
      },
      30_000,
    );
    entry = notebooks.controllers.byNode(c.id, c.instanceId)!;
    const controller = entry.controller;
    await vscode.commands.executeCommand('notebook.selectKernel', {
      id: controller.id,
      extension: 'tensorpool.tensorpool-vscode',
    });
    await until(
      'the notebook picked the node',
      () => notebooks.controllers.selected.get(nb) === entry,
      30_000,
    );
    // The extension's handler, timed (and, injected, delayed): VS Code calls the property it reads each time.
    original = controller.executeHandler;
    const calls: Array<{ start: number; end?: number }> = [];
    const delays = { trivial: 0, lines: 0 };
    controller.executeHandler = async (cells, notebook, ctrl) => {
      const call: { start: number; end?: number } = { start: performance.now() };
      calls.push(call);
      await original!.call(controller, cells, notebook, ctrl);
      call.end = performance.now();
    };
    // The server started (or found) and the kernel warm.
    await runCell(nb, 0);
    if (textOf(nb.cellAt(0), 'text/plain') !== '2') throw new Error('1+1 did not show 2');
    const session = (await notebooks.activeSession())?.s;
    if (!session) throw new Error('no kernel session for the notebook');
    client = new PlainClient(session.link.local, session.link.server.token);
    await client.ask({ op: 'start' });
    // The injected costs: busy work in this host as the reply of the cell's request arrives (a sleep before the
    // request instead let the connection go idle, and the kernel's answers then came some 40 ms sooner).
    const requests = watchRequests(session.kernel, (code) =>
      code === TRIVIAL && inject.has('notebook-cell-stall')
        ? delays.trivial
        : code === LINES && inject.has('notebook-lines-stall')
          ? delays.lines
          : 0,
    );

    const trivial: NotebookSample['trivial'] = {
      extensionMs: [],
      parts: [],
      clientMs: [],
      directMs: [],
      referenceMs: [],
    };
    const link = { port: session.link.local, token: session.link.server.token };
    reference = await ReferenceNotebook.open(link, [], vscode.ViewColumn.Beside);
    for (let i = 0; i < TRIVIAL_PAIRS; i++) {
      const ext = async () => {
        const run = await runCell(nb, 0);
        trivial.extensionMs.push(run.t1 - run.t0);
        trivial.parts.push(requests.parts(run, calls.at(-1)));
      };
      const plain = async () => {
        const r = await client!.ask<{ ms: number; status: string }>({ op: 'run', code: TRIVIAL });
        if (r.status !== 'ok') throw new Error(`the plain client's 1+1: ${r.status}`);
        trivial.clientMs.push(r.ms);
        delays.trivial = 4 * r.ms;
      };
      const ref = async () => void trivial.referenceMs.push(await reference!.time());
      // Each of the three first, second and third in turn.
      const order = [
        [plain, ext, ref],
        [ext, ref, plain],
        [ref, plain, ext],
      ][i % 3];
      for (const side of order) await side();
    }
    await reference.close();
    reference = undefined;
    await vscode.window.showNotebookDocument(nb);
    trivial.directMs = (
      await client.ask<{ ms: number[] }>({ op: 'direct', port: session.link.server.port, runs: DIRECT_RUNS })
    ).ms;

    const lines: NotebookSample['lines'] = {
      extensionMs: [],
      clientMs: [],
      loopP99Ms: [],
      loopMaxMs: [],
      outputBytes: 0,
      clientChars: 0,
      whole: true,
      parts: [],
      heapMB: gc ? [] : undefined,
      referenceMs: [],
      referenceClientMs: [],
    };
    const plainLines = async (into: number[]) => {
      const r = await client!.ask<{ ms: number; chars: number; status: string }>({ op: 'run', code: LINES });
      if (r.status !== 'ok') throw new Error(`the plain client's 100,000 lines: ${r.status}`);
      into.push(r.ms);
      lines.clientChars = r.chars;
      delays.lines = 4 * r.ms;
    };
    for (let i = 0; i < LINES_RUNS; i++) {
      const plain = () => plainLines(lines.clientMs);
      const ext = async () => {
        const before = heap();
        const delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        const run = await runCell(nb, 1);
        delay.disable();
        lines.extensionMs.push(run.t1 - run.t0);
        lines.parts.push(requests.parts(run, calls.at(-1)));
        lines.loopP99Ms.push(delay.percentile(99) / 1e6);
        lines.loopMaxMs.push(delay.max / 1e6);
        const shown = nb
          .cellAt(1)
          .outputs.flatMap((o) => o.items)
          .filter((item) => item.mime === STDOUT);
        lines.outputBytes = shown.reduce((n, item) => n + item.data.byteLength, 0);
        const text = textOf(nb.cellAt(1), STDOUT);
        lines.whole &&= text === EXPECTED;
        if (text !== EXPECTED) lines.differs ??= difference(text, EXPECTED, i, nb.cellAt(1).outputs.length);
        const after = heap();
        lines.heapMB?.push({
          before: before.heap,
          after: after.heap,
          buffersBefore: before.buffers,
          buffersAfter: after.buffers,
        });
      };
      if (i % 2 === 0) await plain().then(ext);
      else await ext().then(plain);
    }
    // The minimal controller's runs: its notebook in the extension's place (that one hidden behind it), so the
    // window shows one such output at a time, as for the extension's.
    reference = await ReferenceNotebook.open(link, [LINES], vscode.ViewColumn.Active);
    for (let i = 0; i < LINES_RUNS; i++) {
      const ref = async () => {
        const { ms, cell } = await reference!.timeCell(1);
        if (textOf(cell, STDOUT) !== EXPECTED)
          throw new Error('the minimal controller did not show the 100,000 lines');
        lines.referenceMs.push(ms);
      };
      const plain = () => plainLines(lines.referenceClientMs);
      if (i % 2 === 0) await plain().then(ref);
      else await ref().then(plain);
    }
    await reference.close();
    reference = undefined;
    await vscode.window.showNotebookDocument(nb);

    requests.stop();
    const reattach = await reattachPairs({
      notebooks,
      nb,
      entry,
      client,
      spy,
      kernelId: session.kernel.id,
      sleepInjected: inject.has('notebook-reattach-sleep'),
      pairs: REATTACH_PAIRS,
    });
    // The reattached session runs a cell.
    await runCell(nb, 0);
    return {
      trivial,
      lines,
      reattach,
      injected: [...inject].filter((n) => n.startsWith('notebook-')),
      elapsedMs: performance.now() - started,
    };
  } finally {
    spy.rewrite = undefined;
    spy.restore();
    if (entry && original) entry.controller.executeHandler = original;
    await client?.quit();
    await reference?.close();
    if (entry) await notebooks.stopServer(entry.target).catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await removeCluster(c);
    await api.refresh();
    await config.update('notebooks.jupyterCommand', undefined, vscode.ConfigurationTarget.Workspace);
    await sleep(200);
  }
}
