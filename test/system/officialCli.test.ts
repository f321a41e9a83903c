// The official command-line client (`tp`, vendored in test/vendor/tensorpool-cli, run with Debian's python3)
// keeps working against the local engine's real nodes and jobs: `tp ssh` logs in to a node (the user's key
// in an ssh-agent), `tp job push` uploads the folder with the real rsync and the commands run (`tp job
// listen` prints their output), and `tp job pull` of a running job syncs the files it wrote so far.
// Skipped, saying why, only where python3 is absent; the CLI's modules are installed (as root) or named.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEngine, type RunningEngine } from '../../engine/server';
import { ensureCliPackages, ensureNodePackages } from '../harness/install';
import { cliMissing, tp } from '../shared/officialCli';
import { waitFor } from '../shared/wait';
import { EngineControl } from '../shared/engineControl';

const TOKEN = 'tp_system_officialcli_token_aaaaaaaa';
type Json = Record<string, any>;

describe('the official CLI (tp) against the engine: ssh, job push, listen, pull of a running job', function () {
  this.timeout(120_000);
  let engine: RunningEngine;
  let tmp: string;
  let agent: ChildProcess;
  let env: NodeJS.ProcessEnv;
  let cluster: { id: string; instance: string; nodeDir: string };

  const call = async (method: string, p: string, body?: unknown): Promise<Json> => {
    const res = await fetch(engine.url + p, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${p}: ${res.status} ${text}`);
    return JSON.parse(text) as Json;
  };

  before(async function () {
    const why = cliMissing();
    if (why) {
      console.log(`    skipped: the official CLI cannot run here: ${why}`);
      this.skip();
    }
    await ensureNodePackages();
    await ensureCliPackages();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-cli-'));
    const key = path.join(tmp, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    const sock = path.join(tmp, 'agent.sock');
    agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
    await waitFor('ssh-agent socket', () => fs.existsSync(sock), Boolean, 5000, 20);
    execFileSync('ssh-add', ['-q', key], { env: { PATH: process.env.PATH, SSH_AUTH_SOCK: sock } });
    engine = await startEngine({
      quiet: true,
      tokens: [TOKEN],
      pendingMs: 10,
      processingMs: 10,
      nodes: 'require',
    });
    // As a user runs it: their PATH, HOME, agent, the engine's URL and their key in the environment.
    env = {
      PATH: process.env.PATH,
      HOME: tmp,
      SSH_AUTH_SOCK: sock,
      TENSORPOOL_ENGINE: engine.url,
      TENSORPOOL_KEY: TOKEN,
    };
    const created = await call('POST', '/cluster/create', {
      instance_type: '1xH100',
      public_keys: [fs.readFileSync(`${key}.pub`, 'utf8').trim()],
    });
    const nodes = await waitFor(
      'the node up',
      async () => (await new EngineControl(engine.url).nodes()).nodes,
      (list) => list.some((n) => n.cluster_id === created.cluster_id && n.state === 'up'),
      20_000,
      50,
    );
    const node = nodes.find((n) => n.cluster_id === created.cluster_id)!;
    cluster = { id: created.cluster_id, instance: node.instance_id, nodeDir: node.dir };
    await waitFor(
      'running',
      async () => ((await call('GET', '/cluster/list')).clusters as Json[]).find((c) => c.id === cluster.id),
      (c) => c?.status === 'RUNNING',
      20_000,
      50,
    );
  });

  after(async () => {
    if (!engine) return;
    await engine.close();
    agent.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('tp ssh <instance> logs in to the node and runs the command there', async () => {
    const r = await tp(['ssh', cluster.instance, 'echo', 'on-node-$TP_NODE', '&&', 'pwd'], tmp, env);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, new RegExp(`on-node-${cluster.instance}`));
    assert.ok(r.out.includes(path.join(cluster.nodeDir, 'home')), r.out);
  });

  it('tp job push uploads the folder (ignored files left behind) and runs the commands; tp job listen prints them', async () => {
    const project = fs.mkdtempSync(path.join(tmp, 'project-'));
    fs.writeFileSync(
      path.join(project, 'train.sh'),
      'echo "loss=0.42 from $TP_NODE"; echo model > model.txt\n',
    );
    fs.writeFileSync(path.join(project, 'secret.txt'), 'left behind');
    fs.writeFileSync(
      path.join(project, 'job.tp.toml'),
      'commands = ["sh train.sh", "echo second-command"]\noutputs = ["model.txt"]\nignore = ["secret.txt"]\n',
    );
    const pushed = await tp(['job', 'push', 'job.tp.toml', cluster.id], project, env);
    assert.equal(pushed.code, 0, pushed.out);
    const id = /Job (job_[0-9a-f]+) submitted/.exec(pushed.out)?.[1];
    assert.ok(id, pushed.out);
    const listened = await tp(['job', 'listen', id], project, env);
    assert.equal(listened.code, 0, listened.out);
    assert.ok(listened.out.includes(`loss=0.42 from ${cluster.instance}`), listened.out);
    assert.ok(listened.out.includes('second-command'), listened.out);
    const dir = path.join(cluster.nodeDir, 'home', 'jobs', id);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['job.tp.toml', 'model.txt', 'train.sh']);
  });

  it('tp job pull of a running job syncs the files it wrote so far into the current folder', async () => {
    const project = fs.mkdtempSync(path.join(tmp, 'running-'));
    fs.writeFileSync(
      path.join(project, 'job.tp.toml'),
      'commands = ["mkdir -p out && echo partial-result > out/p.txt && sleep 60"]\noutputs = ["out/"]\n',
    );
    const pushed = await tp(['job', 'push', 'job.tp.toml', cluster.id], project, env);
    const id = /Job (job_[0-9a-f]+) submitted/.exec(pushed.out)?.[1];
    assert.ok(id, pushed.out);
    const wrote = path.join(cluster.nodeDir, 'home', 'jobs', id, 'out', 'p.txt');
    await waitFor('the partial output', () => fs.existsSync(wrote), Boolean, 15_000, 50);
    const into = fs.mkdtempSync(path.join(tmp, 'pulled-'));
    try {
      const pulled = await tp(['job', 'pull', id], into, env);
      assert.equal(pulled.code, 0, pulled.out);
      assert.equal(fs.readFileSync(path.join(into, 'out', 'p.txt'), 'utf8'), 'partial-result\n');
    } finally {
      await call('POST', `/job/cancel/${id}`);
    }
  });
});
