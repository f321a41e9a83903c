// `npm run demo`: the local engine with demo data, and the extension (this repository, as a development
// extension) pointed at it:
//   - in VS Code desktop when a `code` command is on PATH (an Extension Development Host window with a
//     throwaway profile);
//   - otherwise in code-server 4.100.3 on 127.0.0.1 (installed into .cache/ on first use): open the
//     printed URL in a browser.
// Either way it prints the development token to paste into "TensorPool: Sign In", and runs until Ctrl-C
// (or until the desktop window is closed), then stops everything it started.
//
// usage: npm run demo [-- --code-server] [-- --check]
//   --code-server  use code-server even when `code` is on PATH
//   --check        (code-server) open the workbench once in headless Chromium, sign in, save
//                  test-results/demo.png, then stop: a smoke test of the demo itself
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchChromium, workbenchUrl } from './browser';
import { newRunDir, startCodeServer } from './codeServer';
import { startLocalEngine, type LocalEngine } from './engine';
import { ensureInstalled } from './install';
import { cleanupAll, guardProcess, spawnGroup } from './processes';
import { TARGETS } from './targets';
import { Workbench } from '../ui/workbench';
import { freePort } from '../shared/net';
import { sleep } from '../shared/wait';
import { REPO, RESULTS, log } from './util';

const args = process.argv.slice(2);

/** The sample project (samples/training-job: a Node training script and its job file), in the workspace. */
function addSampleProject(workspace: string): string {
  const to = path.join(workspace, 'training-job');
  fs.cpSync(path.join(REPO, 'samples', 'training-job'), to, { recursive: true });
  return to;
}

/** What the banner says about jobs: they really run here, with the user's key. */
const JOBS_LINES = [
  "Jobs run for real on this machine, in the engine's data folder (each node is an sshd on 127.0.0.1;",
  'without sshd installed, the engine said so above and its nodes and jobs are simulated).',
  'Sample job: training-job/train.tp.toml (Run on Cluster…). The demo clusters accept the SSH keys saved',
  'in the SSH Keys view: add your public key there first (ssh uses your own ~/.ssh key or agent).',
  ...notebookLines(),
];

/** Notebooks run on the nodes' real Jupyter (Select Kernel → TensorPool): said once when it is missing here. */
function notebookLines(): string[] {
  if (fs.existsSync('/usr/bin/jupyter-server') && fs.existsSync('/usr/lib/python3/dist-packages/ipykernel'))
    return ['Notebooks: open an .ipynb, Select Kernel → TensorPool → a node; Jupyter runs on the node.'];
  return [
    "Notebooks on the demo's nodes need Jupyter here (the nodes are this machine): install it with",
    '  sudo apt-get install jupyter-server python3-ipykernel python3-numpy python3-matplotlib',
  ];
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, command);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** Port `preferred` when it is free, otherwise any free one. */
async function portNear(preferred: number): Promise<number> {
  const probe = await import('node:net');
  return new Promise((resolve) => {
    const server = probe.createServer();
    server.once('error', () => void freePort().then(resolve));
    server.listen(preferred, '127.0.0.1', () => server.close(() => resolve(preferred)));
  });
}

function banner(lines: string[]): void {
  const width = Math.min(100, Math.max(...lines.map((l) => l.length)));
  console.log(`\n${'='.repeat(width)}\n${lines.join('\n')}\n${'='.repeat(width)}\n`);
}

async function inDesktop(code: string, engine: LocalEngine): Promise<void> {
  const runDir = newRunDir('demo');
  const userData = path.join(runDir, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({ 'tensorpool.apiUrl': engine.url }, null, 2),
  );
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(workspace);
  addSampleProject(workspace);
  banner([
    'TensorPool demo: VS Code desktop (Extension Development Host)',
    `  engine:  ${engine.url}  (demo data)`,
    `  token:   ${engine.token}`,
    'Run "TensorPool: Sign In" (or click Sign In in the TensorPool view) and paste the token.',
    ...JOBS_LINES,
    'Close the window or press Ctrl-C here to stop.',
  ]);
  // --wait keeps `code` running until the window closes; then the demo ends.
  const child = spawnGroup(
    'code',
    code,
    ['--wait', '--new-window', '--user-data-dir', userData, `--extensionDevelopmentPath=${REPO}`, workspace],
    { stdio: 'inherit' },
  );
  await new Promise((resolve) => child.once('exit', resolve));
}

async function inCodeServer(engine: LocalEngine, check: boolean): Promise<void> {
  const target = TARGETS[0]; // 4.100.3: runs on this machine's Node
  await ensureInstalled([target], { browser: check });
  const runDir = newRunDir('demo');
  const server = await startCodeServer(target, {
    runDir,
    port: await portNear(8080),
    realHome: true,
    machineSettings: { 'tensorpool.apiUrl': engine.url },
  });
  addSampleProject(server.workspace);
  const url = workbenchUrl(server, { extensionDevelopmentPath: REPO });
  const response = await fetch(url);
  if (!response.ok) throw new Error(`code-server answered ${response.status} for ${url}`);
  banner([
    `TensorPool demo: VS Code ${target.name} in code-server, serving (HTTP ${response.status})`,
    `  open:    ${url}`,
    `  engine:  ${engine.url}  (demo data)`,
    `  token:   ${engine.token}`,
    'Run "TensorPool: Sign In" (or click Sign In in the TensorPool view) and paste the token.',
    ...JOBS_LINES,
    'Press Ctrl-C to stop.',
  ]);
  if (check) {
    const browser = await launchChromium(runDir);
    await browser.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    const workbench = new Workbench(browser.page, RESULTS);
    await workbench.ready('TensorPool');
    await workbench.openViewContainer('TensorPool', 'Clusters');
    await workbench.runCommand('TensorPool: Sign In');
    await workbench.typeIntoInputBox(/API token/i, engine.token);
    await workbench.acceptInput();
    log(`notification: "${await workbench.notification(/Signed in to TensorPool/)}"`);
    const listing = (await engine.get('/cluster/list')) as { clusters?: Array<{ name?: string }> };
    const rows = await workbench.waitForRows((listing.clusters ?? []).map((c) => String(c.name)));
    await sleep(500);
    log(`tree rows: ${JSON.stringify(rows)}; screenshot ${await workbench.screenshot('demo')}`);
    await browser.close();
    return;
  }
  await new Promise(() => undefined); // until Ctrl-C (the guard cleans up)
}

if (require.main === module) {
  const guard = guardProcess('demo', { exitCodeOnSignal: 0 });
  void (async () => {
    let code = 0;
    try {
      const engine = await startLocalEngine({
        port: await portNear(8750),
        seed: 'demo',
        quick: false,
        realNodes: 'auto',
      });
      const desktop = args.includes('--code-server') || args.includes('--check') ? undefined : onPath('code');
      if (desktop) await inDesktop(desktop, engine);
      else await inCodeServer(engine, args.includes('--check'));
    } catch (err) {
      console.error(`demo failed: ${(err as Error)?.stack ?? err}`);
      code = 1;
    }
    guard.disarm();
    await cleanupAll();
    process.exit(code);
  })();
}
