// Jobs that really run (engine/jobRunner.ts; the default with real nodes): the push's upload is a
// real rsync over ssh (run here with the user's key in a real ssh-agent, as a client would), the commands
// run on node 0 in the job's folder, their output streams to /job/listen, cancel ends the whole process
// tree, and the pulled outputs are the bytes the job wrote. Needs openssh-server and rsync.
import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { startEngine, type RunningEngine } from '../../../engine/server';
import { ensureNodePackages } from '../../harness/install';
import { waitFor } from '../../shared/wait';
import { engineCalls, processesIn, type Json } from './nodeKit';

const TOKEN = 'tp_unit_realjobs_token_aaaaaaaaaaaa';

describe('engine: jobs that really run on a node', function () {
  this.timeout(60_000);
  let engine: RunningEngine;
  let tmp: string;
  let agent: ChildProcess;
  let env: NodeJS.ProcessEnv;
  let clusterId: string;
  let nodeHome: string;
  let nodeDir: string;
  let pub: string;

  const { call } = engineCalls(() => engine.url, TOKEN);

  function sh(command: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) =>
      execFile('/bin/sh', ['-c', command], { cwd, env, timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
      ),
    );
  }

  /** Push a job file from `folder`, running the upload command the engine asks for; the job id. */
  async function push(folder: string, toml: string, on = { cluster: '', teardown: false }): Promise<string> {
    const ws = new WebSocket(`${engine.url.replace('http', 'ws')}/job/push`);
    let jobId = '';
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Json;
      if (m.job_id) jobId ||= m.job_id;
      if (typeof m.command === 'string' && m.command) {
        assert.match(m.command, /^rsync -az /);
        assert.ok(!m.command.includes(TOKEN));
        void sh(m.command, folder).then((r) =>
          ws.send(
            JSON.stringify({
              type: 'command_result',
              command: m.command,
              exit_code: r.code,
              command_stdout: r.stdout,
              command_stderr: r.stderr,
            }),
          ),
        );
      }
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ TENSORPOOL_KEY: TOKEN }));
    ws.send(
      JSON.stringify({
        tp_config: toml,
        system: 'Linux',
        cluster_id: on.cluster || clusterId,
        teardown_cluster: on.teardown,
      }),
    );
    assert.equal(await closed, 1000);
    return jobId;
  }

  /** Every message of /job/listen until it ends. */
  async function listen(id: string): Promise<Json[]> {
    const ws = new WebSocket(`${engine.url.replace('http', 'ws')}/job/listen/${id}`);
    const got: Json[] = [];
    ws.on('message', (d) => got.push(JSON.parse(d.toString()) as Json));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ TENSORPOOL_KEY: TOKEN }));
    await new Promise((resolve) => ws.on('close', resolve));
    return got;
  }

  function folder(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(tmp, 'project-'));
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
  }

  async function runningCluster(): Promise<{ id: string; nodeDir: string }> {
    const created = await call('POST', '/cluster/create', { instance_type: '1xH100', public_keys: [pub] });
    const id = created.cluster_id as string;
    const info = await waitFor(
      'cluster RUNNING',
      () => call('GET', `/cluster/info/${id}`),
      (i) => i.status === 'RUNNING',
      20_000,
      20,
    );
    return { id, nodeDir: path.join(engine.dataDir!, 'nodes', info.instances[0].id) };
  }

  const jobDir = (id: string) => path.join(nodeHome, 'jobs', id);
  const status = async (id: string) =>
    ((await call('GET', `/job/info/${id}`)).job_info as Json).status as string;

  before(async function () {
    this.timeout(600_000); // a first use installs openssh-server and rsync (as root)
    await ensureNodePackages();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-realjobs-'));
    const key = path.join(tmp, 'id_ed25519');
    assert.equal((await sh(`ssh-keygen -q -t ed25519 -N '' -f ${key}`, tmp)).code, 0);
    // The user's key lives in their agent (ssh finds it there; the upload command names no key).
    const sock = path.join(tmp, 'agent.sock');
    agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
    await waitFor('ssh-agent socket', () => fs.existsSync(sock), Boolean, 5000, 20);
    env = { PATH: process.env.PATH, SSH_AUTH_SOCK: sock, HOME: tmp };
    const added = await sh(`ssh-add -q ${key}`, tmp);
    assert.equal(added.code, 0, added.stderr);
    // The token in the engine's own environment must not reach a job's.
    process.env.TENSORPOOL_KEY = TOKEN;
    engine = await startEngine({
      quiet: true,
      tokens: [TOKEN],
      pendingMs: 10,
      processingMs: 10,
      // Real jobs are the default whenever the nodes are real (no realJobs option).
      nodes: 'require',
    });
    pub = fs.readFileSync(`${key}.pub`, 'utf8');
    const first = await runningCluster();
    clusterId = first.id;
    nodeDir = first.nodeDir;
    nodeHome = path.join(nodeDir, 'home');
  });

  after(async () => {
    delete process.env.TENSORPOOL_KEY;
    const dataDir = engine.dataDir!;
    await engine.close();
    assert.deepEqual(processesIn(dataDir), [], 'no job process outlives the engine');
    agent.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('uploads without the ignored files, streams stdout and stderr, fails at the first non-zero exit, and serves the bytes it wrote', async () => {
    const project = folder({
      'write.sh':
        'mkdir -p results && printf result-a > results/a.txt && head -c 5000 /dev/urandom > model.bin && ln -s /etc/hostname escape.txt\n',
      'keep.txt': 'kept',
      'secret.txt': 'left behind',
      'cache/big.bin': 'left behind',
    });
    const id = await push(
      project,
      [
        'commands = ["echo out-line; echo err-line 1>&2; echo $TP_NODE", "sh write.sh", "exit 3", "echo never-printed"]',
        'outputs = ["results/", "model.bin", "escape.txt"]',
        'ignore = ["secret.txt", "cache/"]',
      ].join('\n'),
    );
    const messages = await listen(id);
    const lines = messages.filter((m) => !m.status).map((m) => m.message as string);
    assert.ok(lines.includes('out-line') && lines.includes('err-line'), lines.join('\n'));
    assert.ok(lines.includes(path.basename(nodeDir)), 'the node environment');
    assert.ok(!lines.includes('never-printed'), 'the commands after the failure are skipped');
    assert.equal(messages.at(-1)!.status, 'error');
    assert.equal((await call('GET', `/job/info/${id}`)).job_info.exit_code, 3);

    assert.deepEqual(fs.readdirSync(jobDir(id)).sort(), [
      'escape.txt',
      'keep.txt',
      'model.bin',
      'results',
      'write.sh',
    ]);
    const pulled = await call('GET', `/job/pull/${id}?system=linux`);
    assert.deepEqual(Object.keys(pulled.download_map).sort(), ['model.bin', 'results/a.txt']);
    for (const [rel, url] of Object.entries(pulled.download_map as Record<string, string>)) {
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      assert.ok(bytes.equals(fs.readFileSync(path.join(jobDir(id), rel))), `${rel} byte-identical`);
    }
    assert.deepEqual(fs.readdirSync(path.join(nodeDir, 'gpu', 'procs')), [], 'no process left listed');
  });

  it("a running job's pull is a real rsync from the node; cancel ends its whole process tree", async () => {
    const id = await push(
      folder({}),
      [
        'commands = ["mkdir -p out && echo partial > out/p.txt && echo started && (sleep 60 & sleep 60; wait)"]',
        'outputs = ["out/"]',
      ].join('\n'),
    );
    await waitFor(
      'job started',
      () => fs.existsSync(path.join(jobDir(id), 'out', 'p.txt')),
      Boolean,
      10_000,
      20,
    );
    await waitFor(
      'its tree',
      () => processesIn(jobDir(id)).length,
      (n) => n >= 3,
      10_000,
      20,
    );
    const procs = fs.readdirSync(path.join(nodeDir, 'gpu', 'procs'));
    assert.equal(procs.length, 1);
    const listed = JSON.parse(fs.readFileSync(path.join(nodeDir, 'gpu', 'procs', procs[0]), 'utf8')) as Json;
    assert.deepEqual(listed, { name: 'mkdir' });
    const environ = fs.readFileSync(`/proc/${procs[0].replace('.json', '')}/environ`, 'utf8');
    assert.match(environ, /TP_NODE=i-/);
    assert.ok(!environ.includes(TOKEN), 'the token is not in the job environment');

    const pull = await call('GET', `/job/pull/${id}?system=linux`);
    assert.match(pull.command, /^rsync -az /);
    const into = fs.mkdtempSync(path.join(tmp, 'pull-'));
    const r = await sh(pull.command, into);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(into, 'out', 'p.txt'), 'utf8'), 'partial\n');

    await call('POST', `/job/cancel/${id}`);
    await waitFor(
      'canceled',
      () => status(id),
      (s) => s === 'canceled',
      10_000,
      20,
    );
    assert.deepEqual(processesIn(jobDir(id)), []);
    assert.deepEqual(fs.readdirSync(path.join(nodeDir, 'gpu', 'procs')), []);
  });

  it('a command killed by a signal fails the job, and the log says which signal', async () => {
    const id = await push(folder({}), 'commands = ["echo before; kill -KILL $$", "echo skipped"]');
    const lines = (await listen(id)).map((m) => m.message as string);
    assert.ok(lines.includes('before'), lines.join('\n'));
    assert.ok(
      lines.some((l) => /killed by signal SIGKILL/.test(l)),
      lines.join('\n'),
    );
    assert.ok(!lines.includes('skipped'));
    const info = (await call('GET', `/job/info/${id}`)).job_info as Json;
    assert.deepEqual([info.status, info.exit_code], ['failed', 137]);
  });

  it('teardown_cluster destroys the cluster when the job ends; its outputs can still be pulled', async () => {
    const other = await runningCluster();
    const id = await push(folder({}), 'commands = ["printf kept > result.txt"]\noutputs = ["result.txt"]', {
      cluster: other.id,
      teardown: true,
    });
    await waitFor(
      'completed',
      () => status(id),
      (s) => s === 'completed',
      10_000,
      20,
    );
    await waitFor('its node is gone', () => !fs.existsSync(other.nodeDir), Boolean, 5000, 20);
    const pulled = await call('GET', `/job/pull/${id}?system=linux`);
    const bytes = await (await fetch(pulled.download_map['result.txt'] as string)).text();
    assert.equal(bytes, 'kept');
  });

  it('engine stop ends a job that is still running', async () => {
    const id = await push(folder({}), 'commands = ["sleep 60"]');
    await waitFor(
      'running',
      () => processesIn(jobDir(id)).length,
      (n) => n >= 1,
      10_000,
      20,
    );
    // after() closes the engine and counts what is left under its data folder.
  });
});
