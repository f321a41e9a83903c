// Notebooks on a node under faults, in the real extension host against the engine's real node (OpenSSH sshd)
// and Debian's real Jupyter server and IPython kernel: Jupyter missing or broken on the node (what to install
// is said, nothing is installed), a node refusing the login (Add SSH Key), the server's port taken, a server
// refusing the token, an HTML error page or a hung port where the server should be (bounded, cancellable,
// no token said), a kernel killed mid-cell (Restart offered), 1,000,000 lines and 50 MB outputs (bounded, the
// cut said, the host responsive), hostile HTML/JavaScript outputs (mime items for VS Code's own renderers,
// no webview of ours) and cells in another language (refused, nothing sent to the kernel).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { pickNode, runCellOf } from '../../integration/notebookKit';
import { sshProcesses } from '../../integration/portsHelpers';
import { realCluster, removeCluster, type RealCluster } from '../../integration/realCluster';
import { descendants } from '../../shared/processTree';
import { faultSubject, type NotebookFaultKind } from '../catalogue';
import { ledger } from '../ledger';
import { freshAccount } from './common';
import * as spy from './spy';
import { until } from './util';

const decoder = new TextDecoder();
const STDOUT = 'application/vnd.code.notebook.stdout';
const ERROR = 'application/vnd.code.notebook.error';
const REPO = path.resolve(__dirname, '../../../..');

const textOf = (cell: vscode.NotebookCell, mime: string) =>
  cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === mime)
    .map((i) => decoder.decode(i.data))
    .join('');
const errorOf = (cell: vscode.NotebookCell) => {
  const e = textOf(cell, ERROR);
  return e ? (JSON.parse(e) as { message: string }).message : '';
};

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as net.AddressInfo).port;
}

suite('Reliability: notebooks on a node under faults', function () {
  this.timeout(240_000);
  let ext: TensorPoolExtensionApi;
  let cluster: RealCluster;
  let home: string;
  const jupyterDir = () => path.join(cluster.nodeDir, 'home', '.tensorpool', 'jupyter');
  const notebooks = () => ext.testing.notebooks();
  const setCommand = (v: string | undefined) =>
    vscode.workspace
      .getConfiguration('tensorpool')
      .update('notebooks.jupyterCommand', v, vscode.ConfigurationTarget.Global);
  /** The record of the server running on the node (what the extension reads there). */
  const record = () => {
    const pid = fs.readFileSync(path.join(jupyterDir(), 'server.pid'), 'utf8').trim();
    const file = path.join(jupyterDir(), 'runtime', `jpserver-${pid}.json`);
    return { pid, file, text: fs.readFileSync(file, 'utf8') };
  };

  /** A new untitled notebook with these cells, shown, its kernel the node of `c`. */
  async function notebook(cells: string[], c: RealCluster = cluster): Promise<vscode.NotebookDocument> {
    const nb = await vscode.workspace.openNotebookDocument(
      'jupyter-notebook',
      new vscode.NotebookData(
        cells.map((s) => new vscode.NotebookCellData(vscode.NotebookCellKind.Code, s, 'python')),
      ),
    );
    await vscode.window.showNotebookDocument(nb);
    await pickNode(ext, nb, c);
    return nb;
  }

  /** Run cell i and wait until its run ended. */
  const runCell = (nb: vscode.NotebookDocument, i: number, timeoutMs = 120_000) =>
    runCellOf(nb, i, timeoutMs);

  const cover = (kind: NotebookFaultKind, title: string, fn: () => Promise<void>) =>
    ledger.cover(test(title, fn), faultSubject(kind));

  suiteSetup(async function () {
    this.timeout(120_000);
    ext = await freshAccount();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-rel-nb-'));
    fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
    ext.testing.configure({ home: () => home, isTrusted: () => true });
    cluster = await realCluster(`rel-nb-${Date.now()}`);
    await ext.refresh();
  });
  setup(() => ext.testing.configure({ home: () => home, isTrusted: () => true }));
  suiteTeardown(async () => {
    const entry = notebooks().controllers.byNode(cluster.id, cluster.instanceId);
    if (entry)
      await notebooks()
        .stopServer(entry.target)
        .catch(() => undefined);
    await setCommand(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeCluster(cluster);
    fs.rmSync(home, { recursive: true, force: true });
  });

  cover(
    'nb-jupyter-missing',
    'Jupyter missing on the node, or there but not runnable: what to install is said, nothing is started or installed',
    async () => {
      const nb = await notebook(['1+1']);
      await setCommand('tp-no-such-jupyter-server');
      let { cell } = await runCell(nb, 0);
      assert.equal(cell.executionSummary?.success, false);
      let msg = errorOf(cell);
      assert.match(msg, /Jupyter is not installed on node 1 .*`tp-no-such-jupyter-server`/);
      assert.match(msg, /sudo apt-get install python3-jupyter-server python3-ipykernel/);
      assert.match(msg, /pip install jupyter-server ipykernel/);
      assert.match(msg, /container image/);
      assert.match(msg, /installs nothing there without you/);
      assert.equal(cell.document.getText(), '1+1', 'the cell is kept');
      assert.ok(!fs.existsSync(path.join(jupyterDir(), 'server.pid')), 'nothing started');
      // Jupyter there, but its Python module missing (the node's bin/ is first on its PATH).
      const shadow = path.join(cluster.nodeDir, 'bin', 'jupyter-server');
      fs.writeFileSync(
        shadow,
        '#!/bin/sh\necho "ModuleNotFoundError: No module named \'jupyter_server\'" >&2\nexit 1\n',
        { mode: 0o755 },
      );
      try {
        await setCommand(undefined);
        ({ cell } = await runCell(nb, 0));
        msg = errorOf(cell);
        assert.equal(cell.executionSummary?.success, false);
        assert.match(msg, /Jupyter is not installed on node 1 .*`jupyter-server`.* does not run/);
        assert.match(msg, /python3-jupyter-server python3-ipykernel/);
      } finally {
        fs.rmSync(shadow, { force: true });
      }
    },
  );

  let nb: vscode.NotebookDocument;
  const HOSTILE = [
    'from IPython.display import display, HTML, Javascript',
    'display(HTML(\'<script>document.title="pwned"</script><img src=x onerror="alert(1)">\'))',
    "display(Javascript('alert(document.cookie)'))",
  ].join('\n');
  const CELLS = [
    /* 0 */ 'import os\nos.getpid()',
    /* 1 */ 'for i in range(1_000_000):\n    print(i)',
    /* 2 */ "print('x' * 50_000_000)\n'y' * 50_000_000",
    /* 3 */ HOSTILE,
    /* 4 */ 'cat("from R\\n")',
    /* 5 */ 'println("from Julia")',
    /* 6 */ "import os, time\nprint('before', flush=True)\ntime.sleep(1)\nos.kill(os.getpid(), 9)",
    /* 7 */ '1+1',
  ];

  cover(
    'nb-port-taken',
    'the port the server would use is taken on the node: the server starts on another one',
    async () => {
      const taken = net.createServer((s) => s.destroy());
      const port = await listen(taken);
      try {
        // The node is this machine: its 127.0.0.1 is ours. The later tests' outputs go past Jupyter's
        // own rate limits, so the extension's bounds are what they meet.
        await setCommand(
          `jupyter-server --ServerApp.port=${port} --ServerApp.iopub_data_rate_limit=1e12 --ServerApp.iopub_msg_rate_limit=1e9`,
        );
        nb = await notebook(CELLS);
        const { cell } = await runCell(nb, 0);
        assert.equal(cell.executionSummary?.success, true, errorOf(cell));
        const r = JSON.parse(record().text) as { port: number };
        assert.notEqual(r.port, port);
        assert.ok(r.port > port && r.port <= port + 50, `server on ${r.port}, taken ${port}`);
      } finally {
        taken.close();
      }
    },
  );

  cover(
    'nb-million-lines',
    'a cell printing 1,000,000 lines: the host stays responsive, the output is bounded and says it was cut',
    async () => {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const { cell, ms } = await runCell(nb, 1, 200_000);
      delay.disable();
      const p99 = delay.percentile(99) / 1e6;
      const max = delay.max / 1e6;
      console.log(
        `    1,000,000 lines in ${ms} ms; event-loop delay p99 ${p99.toFixed(0)} ms, max ${max.toFixed(0)} ms`,
      );
      assert.equal(cell.executionSummary?.success, true, errorOf(cell));
      const out = textOf(cell, STDOUT);
      assert.ok(out.length <= 1_100_000, `${out.length} characters kept`);
      assert.ok(out.startsWith('0\n1\n2\n'), out.slice(0, 20));
      assert.match(out, /… output cut here: \d+ more characters not shown\.\n$/);
      assert.ok(p99 < 500, `event-loop p99 ${p99} ms`);
      assert.ok(max < 3000, `event-loop max ${max} ms`);
    },
  );

  cover('nb-50mb-output', 'a 50 MB output: bounded, said, no crash', async () => {
    const { cell } = await runCell(nb, 2, 200_000);
    assert.equal(cell.executionSummary?.success, true, errorOf(cell));
    const out = textOf(cell, STDOUT);
    assert.ok(out.length <= 1_100_000, `${out.length} characters of stdout kept`);
    assert.match(out, /output cut here: \d+ more characters not shown/);
    const sizes = cell.outputs.flatMap((o) => o.items).map((i) => i.data.byteLength);
    assert.ok(Math.max(...sizes) <= 5_000_000, `items of ${sizes.join(', ')} bytes`);
    assert.match(
      textOf(cell, 'text/plain'),
      /This text\/plain output is 50\.0 MB, more than a notebook cell shows: it was cut and is not shown\./,
    );
    // The host still runs cells.
    const { cell: next } = await runCell(nb, 7);
    assert.equal(textOf(next, 'text/plain'), '2');
  });

  cover(
    'nb-hostile-html',
    'HTML and JavaScript outputs: passed as mime items to VS Code’s own renderers; no webview or renderer of ours',
    async () => {
      const { cell } = await runCell(nb, 3);
      assert.equal(cell.executionSummary?.success, true, errorOf(cell));
      assert.equal(
        textOf(cell, 'text/html'),
        '<script>document.title="pwned"</script><img src=x onerror="alert(1)">',
      );
      assert.equal(textOf(cell, 'application/javascript'), 'alert(document.cookie)');
      const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
        contributes: Record<string, unknown>;
      };
      assert.equal(pkg.contributes.notebookRenderer, undefined, 'no notebook renderer contributed');
      const dir = path.join(REPO, 'src', 'vscode', 'notebooks');
      const files = fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'));
      assert.ok(files.length >= 5, files.join(', '));
      for (const f of files)
        assert.doesNotMatch(
          fs.readFileSync(path.join(dir, f), 'utf8'),
          /createWebviewPanel|registerWebviewViewProvider|createRendererMessaging|notebookRenderer/,
          f,
        );
    },
  );

  cover(
    'nb-other-language',
    'cells in R or Julia: refused with a message, nothing sent to the kernel, the cells kept',
    async () => {
      const before = (await runCell(nb, 7)).cell.executionSummary?.executionOrder ?? 0;
      for (const [i, lang] of [
        [4, 'r'],
        [5, 'julia'],
      ] as const) {
        await vscode.languages.setTextDocumentLanguage(nb.cellAt(i).document, lang);
        const { cell } = await runCell(nb, i);
        assert.equal(cell.executionSummary?.success, false);
        assert.equal(errorOf(cell), `This kernel runs Python; this cell is ${lang}.`);
        assert.equal(cell.document.getText(), CELLS[i]);
      }
      // The kernel's execution count moved by one: the other cells never reached it.
      const after = (await runCell(nb, 7)).cell.executionSummary?.executionOrder ?? 0;
      assert.equal(after, before + 1);
    },
  );

  cover(
    'nb-kernel-died',
    'a kernel killed mid-cell: "the kernel died", Restart offered, the cell failed',
    async () => {
      const mark = spy.notifications.length;
      const { cell, ms } = await runCell(nb, 6, 60_000);
      assert.equal(cell.executionSummary?.success, false);
      assert.match(textOf(cell, STDOUT), /before/);
      assert.match(errorOf(cell), /The kernel died while this cell ran \(on node 1\)/);
      const told = spy.since(mark).find((n) => /died while a cell ran/.test(n.message));
      assert.ok(told, JSON.stringify(spy.since(mark)));
      assert.deepEqual(told.items, ['Restart Kernel']);
      assert.ok(ms < 30_000, `${ms} ms`);
      // Jupyter started the kernel again: the next cell runs, without waiting out the 60 s a run gives a
      // kernel to come back (the new kernel's first statuses can be gone before the connection is back: it is
      // asked). Three deaths in a row: that case came in about two of five here under load.
      for (let round = 0; round < 3; round++) {
        if (round > 0) await runCell(nb, 6, 60_000);
        const { cell: next, ms: after } = await runCell(nb, 7);
        assert.equal(textOf(next, 'text/plain'), '2', errorOf(next));
        assert.ok(after < 20_000, `the cell after the kernel died took ${after} ms`);
      }
    },
  );

  /** Put a stand-in server record on the node (the extension finds it on its next connection), run cell 7. */
  async function withRecord(
    change: (r: { pid: string; file: string; text: string }) => void,
    run: () => Promise<void>,
  ): Promise<void> {
    const r = record();
    const pidFile = path.join(jupyterDir(), 'server.pid');
    await notebooks().dropConnections();
    try {
      change(r);
      await run();
    } finally {
      fs.writeFileSync(pidFile, `${r.pid}\n`);
      fs.writeFileSync(r.file, r.text);
      await notebooks().dropConnections();
    }
  }

  /** A stand-in server's record: a live pid (this host's) and the stand-in's port. */
  const standIn = (port: number) => {
    const pidFile = path.join(jupyterDir(), 'server.pid');
    fs.writeFileSync(pidFile, `${process.pid}\n`);
    fs.writeFileSync(
      path.join(jupyterDir(), 'runtime', `jpserver-${process.pid}.json`),
      JSON.stringify({ port, pid: process.pid, token: 'stand-in-token-0123456789abcdef' }),
    );
  };

  const assertNoToken = (msg: string, real: string) => {
    assert.ok(!msg.includes(real), 'the real token is not said');
    assert.doesNotMatch(msg, /stand-in-token|wrong-token/);
  };

  cover('nb-wrong-token', 'a real server refusing the token: said (403), no token in it', async () => {
    const real = (JSON.parse(record().text) as { token: string }).token;
    await withRecord(
      (r) =>
        fs.writeFileSync(r.file, JSON.stringify({ ...JSON.parse(r.text), token: 'wrong-token-0123456789' })),
      async () => {
        const { cell } = await runCell(nb, 7);
        const msg = errorOf(cell);
        assert.equal(cell.executionSummary?.success, false);
        assert.match(msg, /Jupyter on node 1 refused the token TensorPool holds for it \(HTTP 403\)/);
        assert.match(msg, /Stop Jupyter on Node/);
        assertNoToken(msg, real);
      },
    );
  });

  cover('nb-html-page', 'an HTML error page where the server should be: said, no token in it', async () => {
    const real = (JSON.parse(record().text) as { token: string }).token;
    const page = http.createServer((_, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    const port = await listen(page);
    try {
      await withRecord(
        () => standIn(port),
        async () => {
          const { cell } = await runCell(nb, 7);
          const msg = errorOf(cell);
          assert.equal(cell.executionSummary?.success, false);
          assert.match(
            msg,
            /What answers on the Jupyter port of node 1 is not a Jupyter server \(HTTP 502 with an HTML page\)/,
          );
          assertNoToken(msg, real);
        },
      );
    } finally {
      page.close();
    }
  });

  cover(
    'nb-hung-port',
    'a port that never answers: a bounded wait, said; the stop button cancels sooner',
    async () => {
      const real = (JSON.parse(record().text) as { token: string }).token;
      const held: net.Socket[] = [];
      const hung = net.createServer((s) => held.push(s));
      const port = await listen(hung);
      try {
        await withRecord(
          () => standIn(port),
          async () => {
            const { cell, ms } = await runCell(nb, 7, 90_000);
            const msg = errorOf(cell);
            assert.equal(cell.executionSummary?.success, false);
            assert.match(msg, /Jupyter on node 1 did not answer within 30 seconds/);
            assert.ok(ms < 60_000, `${ms} ms`);
            assertNoToken(msg, real);
            // Again, and the stop button pressed while it waits.
            const started = Date.now();
            const before = held.length;
            const run = runCell(nb, 7, 60_000);
            await until('the request to the hung port', () => held.length > before, 20_000);
            await vscode.commands.executeCommand('notebook.cancelExecution');
            const { cell: again } = await run;
            assert.match(errorOf(again), /Connecting to node 1 was cancelled\./);
            assert.ok(Date.now() - started < 25_000, `${Date.now() - started} ms`);
          },
        );
      } finally {
        for (const s of held) s.destroy();
        hung.close();
      }
    },
  );

  cover(
    'nb-hung-login',
    'the node’s sshd accepts and never answers: the stop button ends our ssh at once (its login, then its tunnel) and the cell says so',
    async () => {
      // The node's sshd stopped: a new connection is accepted (the listen backlog) and never answered.
      const sshd = Number(fs.readFileSync(path.join(cluster.nodeDir, 'etc', 'sshd.pid'), 'utf8'));
      /** Our ssh logging in to look for Jupyter on the node (nodeServer.ts), not the tunnels or GPU sampling.
       *  A process that ended has no command line any more: it is not listed. */
      const logins = () =>
        sshProcesses(home).filter((p) => p.args.includes('.tensorpool/jupyter') && !p.args.includes(' -L '));
      await notebooks().dropConnections();
      process.kill(sshd, 'SIGSTOP');
      try {
        const started = Date.now();
        const run = runCell(nb, 7, 60_000);
        await until('our ssh is logging in', () => logins().length > 0, 20_000);
        await new Promise((r) => setTimeout(r, 1000));
        await vscode.commands.executeCommand('notebook.cancelExecution');
        // Killed at once, not left to ssh's own 15 s ConnectTimeout.
        await until('no ssh login of ours is left', () => logins().length === 0, 3000);
        const { cell } = await run;
        assert.equal(cell.executionSummary?.success, false);
        assert.match(errorOf(cell), /Connecting to node 1 was cancelled\./);
        assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
      } finally {
        process.kill(sshd, 'SIGCONT');
      }
      // The node answers again: the next run connects.
      const { cell: next } = await runCell(nb, 7);
      assert.equal(textOf(next, 'text/plain'), '2', errorOf(next));

      // The same while the tunnel to the server is made (the node answered the look for Jupyter): sshd and
      // its sessions are stopped as the tunnel's ssh is spawned (child_process's spawn wrapped in place, the
      // module object the extension calls through), so that ssh waits; the stop button ends it at once, not
      // after the tunnel's own 25 s wait.
      await notebooks().dropConnections();
      // Tunnels of earlier tests (to their stand-in servers) are not this run's.
      const earlier = new Set(sshProcesses(home).map((p) => p.pid));
      const tunnels = () => sshProcesses(home).filter((p) => p.args.includes(' -L ') && !earlier.has(p.pid));
      const cp = require('node:child_process') as Record<string, (...a: unknown[]) => unknown>;
      const spawn = cp.spawn;
      const stopped: number[] = [];
      cp.spawn = (...a: unknown[]) => {
        if (stopped.length === 0 && Array.isArray(a[1]) && a[1].includes('-L'))
          for (const pid of [sshd, ...descendants(sshd).keys()]) {
            process.kill(pid, 'SIGSTOP');
            stopped.push(pid);
          }
        return spawn.apply(cp, a);
      };
      try {
        const started = Date.now();
        const run = runCell(nb, 7, 60_000);
        await until('the tunnel’s ssh', () => stopped.length > 0 && tunnels().length > 0, 30_000);
        await new Promise((r) => setTimeout(r, 1000));
        const pressed = Date.now();
        await vscode.commands.executeCommand('notebook.cancelExecution');
        await until('no tunnel of ours is left', () => tunnels().length === 0, 3000);
        const { cell } = await run;
        assert.equal(cell.executionSummary?.success, false);
        assert.match(errorOf(cell), /Connecting to node 1 was cancelled\./);
        assert.ok(Date.now() - pressed < 5000, `${Date.now() - pressed} ms after the stop button`);
        assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
      } finally {
        cp.spawn = spawn;
        for (const pid of stopped) process.kill(pid, 'SIGCONT');
      }
      const { cell: after } = await runCell(nb, 7);
      assert.equal(textOf(after, 'text/plain'), '2', errorOf(after));
    },
  );

  cover(
    'nb-login-refused',
    'a node refusing the login: its cluster’s entry and the cell say so, Add SSH Key offered',
    async () => {
      // A cluster created with another key only: its sshd answers and refuses the user's key.
      const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-rel-nbkey-'));
      execFileSync('ssh-keygen', [
        '-q',
        '-t',
        'ed25519',
        '-N',
        '',
        '-f',
        path.join(keyDir, 'id'),
        '-C',
        'other',
      ]);
      const key = fs.readFileSync(path.join(keyDir, 'id.pub'), 'utf8').trim();
      fs.rmSync(keyDir, { recursive: true, force: true });
      const other = await realCluster(`rel-nb-other-${Date.now()}`, [key]);
      try {
        await ext.refresh();
        const mark = spy.notifications.length;
        // The notebook shown, each node's login is checked once: the cluster's entry says it refuses the keys.
        const refused = await vscode.workspace.openNotebookDocument(
          'jupyter-notebook',
          new vscode.NotebookData([
            new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '1+1', 'python'),
          ]),
        );
        await vscode.window.showNotebookDocument(refused);
        await until(
          'the cluster says it refuses the keys',
          () => !!notebooks().controllers.refused.get(other.id),
          60_000,
        );
        assert.equal(notebooks().controllers.byNode(other.id, other.instanceId), undefined, 'no node entry');
        await vscode.commands.executeCommand('notebook.selectKernel', {
          id: notebooks().controllers.refused.get(other.id)!.id,
          extension: 'tensorpool.tensorpool-vscode',
        });
        const { cell } = await runCell(refused, 0);
        assert.equal(cell.executionSummary?.success, false);
        assert.match(errorOf(cell), /accepted none of your SSH keys.*Add SSH Key…/);
        assert.equal(cell.document.getText(), '1+1');
        await until('Add SSH Key offered', () =>
          spy.since(mark).some((n) => n.items.some((i) => /Add SSH Key/.test(i))),
        );
      } finally {
        await removeCluster(other);
        await ext.refresh();
      }
    },
  );
});
