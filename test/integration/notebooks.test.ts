// A TensorPool node as a notebook kernel, against the engine's real nodes (OpenSSH sshd) with Debian's real
// Jupyter server and IPython kernel: the kernel picker's entry (cluster, node, GPUs), a notebook whose folder
// is synced to the node (the kernel runs there: a module of the folder imports), every output kind
// (stream, execute_result, display_data with html/markdown/svg/json/png/jpeg, update_display_data,
// clear_output(wait=True), errors), interrupt of time.sleep(60), input(), reattach to the same kernel after
// every connection and tunnel of this host was dropped (a variable survives), Restart, Shut Down, and the
// cluster destroyed while a cell runs (the cell says why, the entry leaves the list, no ssh of ours is left).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { until, useJobKit } from './jobKit';
import { freshHome, nodeEntry, pickNode, runCellOf, showNotebook } from './notebookKit';
import { sshProcesses } from './portsHelpers';
import { removeCluster, writeFiles } from './realCluster';

const CELLS = [
  /* 0 */ '1+1',
  /* 1 */ 'import os\nprint(os.getcwd())\nfrom helper import answer\nanswer()',
  /* 2 */ [
    'from IPython.display import display, HTML, Markdown, SVG, JSON',
    "display(HTML('<b>bold</b>'))",
    "display(Markdown('# Title'))",
    'display(SVG(\'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>\'))',
    "display(JSON({'a': 1}))",
    "display({'image/jpeg': '/9j/4AAQSkZJRg=='}, raw=True)",
  ].join('\n'),
  /* 3 */ '%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()',
  /* 4 */ "h = display('first', display_id=True)\nh.update('second')",
  /* 5 */ 'from IPython.display import clear_output\nfor i in range(5):\n    clear_output(wait=True)\n    print(f"step {i}")',
  /* 6 */ '1/0',
  /* 7 */ "import sys\nprint('to stderr', file=sys.stderr)",
  /* 8 */ 'import time\ntime.sleep(60)',
  /* 9 */ 'x = 41',
  /* 10 */ 'x + 1',
  /* 11 */ "name = input('Your name? ')\nprint('hello', name)",
  /* 12 */ 'import time\ntime.sleep(6)',
];

function ipynb(cells: readonly string[]): string {
  return JSON.stringify({
    cells: cells.map((c, i) => ({
      cell_type: 'code',
      id: `c${i}`,
      metadata: {},
      execution_count: null,
      outputs: [],
      source: c.split(/(?<=\n)/),
    })),
    metadata: { language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

/** A process that runs (not ended, not a zombie waiting for its parent). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const decoder = new TextDecoder();
const mimes = (cell: vscode.NotebookCell) => cell.outputs.flatMap((o) => o.items.map((i) => i.mime));
const textOf = (cell: vscode.NotebookCell, mime: string) =>
  cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === mime)
    .map((i) => decoder.decode(i.data))
    .join('');
const STDOUT = 'application/vnd.code.notebook.stdout';
const STDERR = 'application/vnd.code.notebook.stderr';
const ERROR = 'application/vnd.code.notebook.error';

suite('Notebooks on a real node (Jupyter server, IPython kernel)', function () {
  this.timeout(180_000);
  const kit = useJobKit('nb-itest', 'nbproj');
  let home: string;
  let nb: vscode.NotebookDocument;
  let controllerId: string;
  /** This suite's ssh tunnels (`ssh -N -L …`), not the folder sync's own connection (its master, `-M -N`). */
  const tunnels = () => sshProcesses(home).filter((p) => p.args.includes(' -L '));
  const remoteDir = () => path.join(kit.cluster.nodeDir, 'home', 'nbproj');

  /** Run cell i (the notebook's own Run command) and wait until its run ended. */
  const runCell = async (i: number, timeoutMs = 90_000) => (await runCellOf(nb, i, timeoutMs)).cell;

  suiteSetup(async function () {
    this.timeout(120_000);
    home = freshHome('nb-home');
    kit.ext.testing.configure({ home: () => home, isTrusted: () => true });
    writeFiles(kit.folder, { 'helper.py': 'def answer():\n    return 42\n', 'nb.ipynb': ipynb(CELLS) });
    // The folder is synced to the node first (Sync Folder to Node): the kernel starts in it.
    kit.ext.setPrompter(new ScriptedPrompter([kit.cluster.name, ACCEPT]));
    const synced = await vscode.commands.executeCommand<{ ok: boolean }>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(kit.folder),
    );
    assert.equal(synced?.ok, true, JSON.stringify(synced));
    nb = await showNotebook(path.join(kit.folder, 'nb.ipynb'));
    const c = await nodeEntry(kit.ext, kit.cluster);
    controllerId = c.controller.id;
    assert.equal(c.controller.label, `TensorPool: ${kit.cluster.name}`);
    // The GPUs, and the hourly price the service quoted (once the quote came).
    await until('the price is shown', () => /^1×H100 · \$\d+\.\d\d\/h$/.test(c.controller.description ?? ''));
    assert.equal(c.controller.notebookType, 'jupyter-notebook');
    assert.equal(await pickNode(kit.ext, nb, kit.cluster), c);
  });

  // The kit's teardown restores the host seams after each test: this suite's home again.
  setup(() => kit.ext.testing.configure({ home: () => home, isTrusted: () => true }));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.stopSync');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('1+1 runs on the node: Jupyter started there, detached, token in a 0600 file only', async () => {
    const cell = await runCell(0);
    assert.equal(textOf(cell, 'text/plain'), '2');
    assert.equal(cell.executionSummary?.success, true);
    assert.equal(cell.executionSummary?.executionOrder, 1);
    const t = cell.executionSummary?.timing;
    assert.ok(t && t.endTime >= t.startTime, 'the run time is shown');
    const dir = path.join(kit.cluster.nodeDir, 'home', '.tensorpool', 'jupyter');
    assert.equal(fs.statSync(path.join(dir, 'config.json')).mode & 0o777, 0o600);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const pid = Number(fs.readFileSync(path.join(dir, 'server.pid'), 'utf8'));
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const token = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).ServerApp
      .token as string;
    assert.match(token, /^[0-9a-f]{48}$/);
    assert.ok(!cmdline.includes(token), 'the token is on no command line');
    assert.ok(!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(token), 'nor in its environment');
    assert.ok(!kit.ext.testing.logTail.join('\n').includes(token), 'nor in the log');
    assert.ok(
      !JSON.stringify(kit.ext.testing.workspaceState.get('tensorpool.notebookKernels', {})).includes(token),
    );
    // Its own session (setsid): it outlives our ssh.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    assert.equal(Number(stat[3]), pid, 'the server leads its own session');
  });

  test('the kernel runs in the synced folder: a module of the folder imports', async () => {
    const cell = await runCell(1);
    assert.equal(textOf(cell, STDOUT).trim(), remoteDir());
    assert.equal(textOf(cell, 'text/plain'), '42');
  });

  test('a notebook outside the synced folder: asked first; "Use Home Folder" starts its kernel in the home', async () => {
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const file = path.join(root, 'nb-outside.ipynb');
    fs.writeFileSync(file, ipynb(['import os\nos.getcwd()']));
    try {
      const other = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
      await vscode.window.showNotebookDocument(other);
      await vscode.commands.executeCommand('notebook.selectKernel', {
        id: controllerId,
        extension: 'tensorpool.tensorpool-vscode',
      });
      const p = new ScriptedPrompter(['Use Home Folder']);
      kit.ext.setPrompter(p);
      const started = Date.now();
      await vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: 0, end: 1 }],
        document: other.uri,
      });
      await until('the cell ran', () => (other.cellAt(0).executionSummary?.timing?.endTime ?? 0) >= started);
      assert.match(p.shown[0]?.message ?? '', /^Sync .+ to node 1 of nb-itest for this notebook\?$/);
      assert.equal(textOf(other.cellAt(0), 'text/plain'), `'${path.join(kit.cluster.nodeDir, 'home')}'`);
      await vscode.commands.executeCommand('tensorpool.shutDownKernel');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      fs.rmSync(file, { force: true });
      await vscode.window.showNotebookDocument(nb);
    }
  });

  test('display_data of each mime type, matplotlib PNG', async () => {
    const rich = await runCell(2);
    for (const m of ['text/html', 'text/markdown', 'image/svg+xml', 'application/json', 'image/jpeg'])
      assert.ok(mimes(rich).includes(m), `${m} in ${mimes(rich).join(', ')}`);
    assert.equal(textOf(rich, 'text/html'), '<b>bold</b>');
    assert.deepEqual(JSON.parse(textOf(rich, 'application/json')), { a: 1 });
    const jpeg = rich.outputs.flatMap((o) => o.items).find((i) => i.mime === 'image/jpeg')!;
    assert.deepEqual([...jpeg.data.slice(0, 3)], [0xff, 0xd8, 0xff], 'base64 decoded to bytes');
    const plot = await runCell(3);
    const png = plot.outputs.flatMap((o) => o.items).find((i) => i.mime === 'image/png');
    assert.ok(png, mimes(plot).join(', '));
    assert.deepEqual([...png.data.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG image');
    assert.ok(png.data.length > 1000);
  });

  test('update_display_data replaces in place; clear_output(wait=True) leaves the last step', async () => {
    const upd = await runCell(4);
    assert.equal(upd.outputs.length, 1);
    assert.equal(textOf(upd, 'text/plain'), "'second'");
    const progress = await runCell(5);
    assert.equal(progress.outputs.length, 1, JSON.stringify(mimes(progress)));
    assert.equal(textOf(progress, STDOUT), 'step 4\n');
  });

  test('an error shows its traceback; stderr is its own stream', async () => {
    const err = await runCell(6);
    assert.equal(err.executionSummary?.success, false);
    const e = JSON.parse(textOf(err, ERROR)) as { name: string; message: string; stack: string };
    assert.equal(e.name, 'ZeroDivisionError');
    assert.match(e.message, /division by zero/);
    // IPython colours its traceback with ANSI codes.
    assert.match(e.stack.replace(/\x1b\[[0-9;]*m/g, ''), /----> 1 1\/0/);
    const se = await runCell(7);
    assert.equal(textOf(se, STDERR), 'to stderr\n');
  });

  test('the stop button interrupts time.sleep(60) on the node', async () => {
    const started = Date.now();
    const run = runCell(8);
    await until(
      'the kernel runs the cell',
      async () => (await kit.ext.testing.notebooks().activeSession())?.s?.kernel.status === 'busy',
    );
    await new Promise((r) => setTimeout(r, 1000));
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', {
      ranges: [{ start: 8, end: 9 }],
      document: nb.uri,
    });
    await until('the stop button reached the kernel', () =>
      kit.ext.testing.logTail.some((l) => l.includes('Interrupting kernel')),
    );
    const cell = await run;
    assert.ok(Date.now() - started < 30_000, 'ended long before 60 s');
    assert.equal(JSON.parse(textOf(cell, ERROR)).name, 'KeyboardInterrupt');
  });

  test('input() asks in an input box', async () => {
    const p = new ScriptedPrompter(['Ada']);
    kit.ext.setPrompter(p);
    const cell = await runCell(11);
    assert.equal(p.shown[0]?.prompt, 'Your name? ');
    assert.equal(textOf(cell, STDOUT), 'hello Ada\n');
  });

  test('reattach: with every connection and tunnel of this host gone, the same kernel and its variables', async () => {
    await runCell(9);
    const stored = kit.ext.testing.workspaceState.get('tensorpool.notebookKernels', {})[nb.uri.toString()];
    assert.ok(stored?.kernelId, 'the kernel id is kept in workspace state');
    await kit.ext.testing.notebooks().dropConnections();
    await until('the tunnel ended with the connections', () => tunnels().length === 0);
    const cell = await runCell(10);
    assert.equal(textOf(cell, 'text/plain'), '42', 'x survived');
    assert.ok(kit.ext.testing.logTail.some((l) => l.includes(`Reattached to kernel ${stored.kernelId}`)));
  });

  test('the tunnel drops while a cell runs: the cell says so; the next run reconnects to the same kernel', async () => {
    const run = runCell(12);
    await new Promise((r) => setTimeout(r, 2000));
    const [tunnel] = tunnels();
    assert.ok(tunnel, JSON.stringify(sshProcesses(home)));
    process.kill(tunnel.pid, 'SIGKILL');
    const cell = await run;
    assert.equal(cell.executionSummary?.success, false);
    assert.match(textOf(cell, ERROR), /connection to node 1 was lost while this cell ran/);
    const next = await runCell(10);
    assert.equal(textOf(next, 'text/plain'), '42', 'the same kernel: x is still there');
  });

  test('Restart Kernel: the variables are gone, the count starts again', async () => {
    assert.equal(await vscode.commands.executeCommand('tensorpool.restartKernel'), true);
    const cell = await runCell(10);
    assert.equal(JSON.parse(textOf(cell, ERROR)).name, 'NameError');
    assert.equal(cell.executionSummary?.executionOrder, 1);
  });

  test('Shut Down Kernel: the next run starts a new kernel', async () => {
    const before = kit.ext.testing.workspaceState.get('tensorpool.notebookKernels', {})[nb.uri.toString()];
    assert.equal(await vscode.commands.executeCommand('tensorpool.shutDownKernel'), true);
    assert.equal(
      kit.ext.testing.workspaceState.get('tensorpool.notebookKernels', {})[nb.uri.toString()],
      undefined,
    );
    const cell = await runCell(0);
    assert.equal(textOf(cell, 'text/plain'), '2');
    const after = kit.ext.testing.workspaceState.get('tensorpool.notebookKernels', {})[nb.uri.toString()];
    assert.notEqual(after?.kernelId, before?.kernelId);
  });

  test('Stop Jupyter on Node (asked first) ends the server; the next run starts a new one', async () => {
    const dir = path.join(kit.cluster.nodeDir, 'home', '.tensorpool', 'jupyter');
    const pid = Number(fs.readFileSync(path.join(dir, 'server.pid'), 'utf8'));
    const p = new ScriptedPrompter([kit.cluster.name, 'Stop Jupyter']);
    kit.ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.stopJupyter'), true);
    assert.match(p.shown.at(-1)?.message ?? '', /^Stop Jupyter on node 1 of nb-itest\?$/);
    assert.ok(!alive(pid), 'the server ended');
    await until('its tunnel ended', () => tunnels().length === 0);
    const cell = await runCell(0);
    assert.equal(textOf(cell, 'text/plain'), '2');
    assert.notEqual(Number(fs.readFileSync(path.join(dir, 'server.pid'), 'utf8')), pid);
  });

  test('the cluster destroyed while a cell runs: the cell says why, the entry leaves, no ssh is left', async () => {
    const run = runCell(8);
    await new Promise((r) => setTimeout(r, 3000));
    await removeCluster(kit.cluster);
    await kit.ext.refresh();
    const cell = await run;
    assert.equal(cell.executionSummary?.success, false);
    assert.match(textOf(cell, ERROR), /nb-itest (was|is being) destroyed/);
    assert.equal(
      kit.ext.testing.notebooks().controllers.byNode(kit.cluster.id, kit.cluster.instanceId),
      undefined,
    );
    await until('no ssh of ours is left', async () => sshProcesses(home).length === 0);
  });
});
