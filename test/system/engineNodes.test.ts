// The engine CLI's real nodes (engine/nodes.ts): the demo seed's nodes are up when the ready line is
// printed, Ctrl-C (SIGINT) leaves no sshd behind, and the sshd of an engine that was killed (SIGKILL) are
// ended by the next engine's start. Needs openssh-server (test/harness/install.ts installs it).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { DEFAULT_TOKEN } from '../../engine/state';
import { ensureNodePackages } from '../harness/install';
import { waitFor } from '../shared/wait';
import { EngineControl, type NodesAnswer } from '../shared/engineControl';

type Json = Record<string, any>;
const main = path.resolve(__dirname, '../../../dist/engine.js');

interface Cli {
  child: ChildProcess;
  url: string;
  exited: Promise<number | string | null>;
  output: () => string;
}

async function startCli(args: string[]): Promise<Cli> {
  assert.ok(fs.existsSync(main), `${main} is missing: run npm run build first`);
  const child = spawn(process.execPath, [main, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  // The exit code, or the signal that ended it (the default action: no handler ran).
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  await waitFor(
    'ready line',
    async () => out,
    (o) => /listening on http/.test(o) || child.exitCode !== null,
    15_000,
  );
  const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
  assert.ok(m, out);
  return { child, url: m[1], exited, output: () => out };
}

function nodes(url: string): Promise<NodesAnswer> {
  return new EngineControl(url).nodes();
}

/** sshd processes whose command line names a folder under `dir`. */
function sshdUnder(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes('sshd') && cmd.includes(dir)) n++;
    } catch {
      // gone
    }
  }
  return n;
}

describe('local engine CLI: real nodes', function () {
  this.timeout(40_000);
  let tmp: string;
  before(async function () {
    this.timeout(600_000); // a first use installs openssh-server and rsync (as root)
    await ensureNodePackages();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-engine-nodes-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the demo nodes listen at the ready line; SIGINT leaves no sshd and no node folder', async () => {
    const dataDir = path.join(tmp, 'data');
    const cli = await startCli(['--seed', 'demo', '--real-nodes', 'require', '--data-dir', dataDir]);
    try {
      const n = await nodes(cli.url);
      assert.equal(n.data_dir, dataDir);
      // 2 + 1 running, 1 provisioning, 1 of the teammate; the failed cluster has none.
      assert.equal(n.nodes.length, 5);
      assert.ok(
        n.nodes.every((x) => x.state === 'up' && x.port > 0),
        JSON.stringify(n.nodes),
      );
      assert.equal(sshdUnder(dataDir), 5);
    } finally {
      cli.child.kill('SIGINT');
    }
    assert.equal(await cli.exited, 0, cli.output());
    assert.equal(sshdUnder(dataDir), 0);
    assert.equal(fs.existsSync(path.join(dataDir, 'nodes')), false);
    assert.ok(fs.existsSync(dataDir), 'a data folder given with --data-dir is kept');
  });

  it("a killed engine's sshd are ended, and its temporary folder removed, by the next start", async () => {
    const killed = await startCli(['--seed', 'demo', '--real-nodes', 'require']);
    const dataDir = (await nodes(killed.url)).data_dir!;
    killed.child.kill('SIGKILL');
    await killed.exited;
    assert.equal(sshdUnder(dataDir), 5, 'SIGKILL leaves the nodes running');
    const next = await startCli(['--real-nodes', 'require']);
    try {
      await waitFor(
        'stale nodes reaped',
        async () => sshdUnder(dataDir),
        (c) => c === 0,
        5000,
        20,
      );
      assert.equal(fs.existsSync(dataDir), false);
    } finally {
      next.child.kill('SIGTERM');
    }
    const said = next.output().replace(/(Development token:).*/, '$1 …');
    assert.equal(await next.exited, 0, `the engine's output:\n${said}`);
  });

  it('--real-jobs without real nodes refuses to start (exit 1, saying why)', async () => {
    const child = spawn(process.execPath, [main, '--port', '0', '--real-jobs', '--real-nodes', 'off'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    assert.equal(await new Promise<number | null>((resolve) => child.on('exit', resolve)), 1);
    assert.match(err, /real jobs need real nodes/);
  });

  for (const [flags, expected] of [
    [[], /^rsync -az /],
    [['--simulated-jobs'], /^echo job_\w+ > \.tp-upload-marker$/],
  ] as const) {
    it(`with real nodes, jobs ${flags.length ? 'are simulated with --simulated-jobs' : 'really run by default'}`, async () => {
      const cli = await startCli(['--real-nodes', 'require', '--seed', 'demo', ...flags]);
      try {
        const list = (await (
          await fetch(`${cli.url}/cluster/list`, { headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } })
        ).json()) as Json;
        const running = (list.clusters as Json[]).find((c) => c.status === 'RUNNING');
        assert.ok(running, 'a running demo cluster');
        const ws = new WebSocket(`${cli.url.replace('http', 'ws')}/job/push`);
        const command = await new Promise<string>((resolve, reject) => {
          ws.on('open', () => {
            ws.send(JSON.stringify({ TENSORPOOL_KEY: DEFAULT_TOKEN }));
            ws.send(
              JSON.stringify({ tp_config: 'commands = ["true"]\n', system: 'Linux', cluster_id: running.id }),
            );
          });
          ws.on('message', (d) => {
            const m = JSON.parse(d.toString()) as Json;
            if (typeof m.command === 'string') resolve(m.command);
          });
          ws.on('close', (code) => reject(new Error(`closed ${code} before a command`)));
        });
        ws.terminate();
        assert.match(command, expected);
      } finally {
        cli.child.kill('SIGTERM');
        await cli.exited;
      }
    });
  }

  it('--real-nodes takes auto, require or off (exit 2 otherwise)', async () => {
    const child = spawn(process.execPath, [main, '--real-nodes', 'maybe'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    assert.equal(await new Promise<number | null>((resolve) => child.on('exit', resolve)), 2);
    assert.match(err, /--real-nodes must be auto, require or off/);
  });
});
