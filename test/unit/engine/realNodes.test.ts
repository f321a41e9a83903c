// Real cluster nodes (engine/nodes.ts): every node is OpenSSH's sshd on 127.0.0.1, checked with the real
// ssh, scp and rsync clients and a fresh ed25519 key. Needs openssh-server, openssh-client and rsync
// (test/harness/install.ts installs them): the engine is started with nodes: 'require'.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEngine, type RunningEngine } from '../../../engine/server';
import { ensureNodePackages } from '../../harness/install';
import { waitFor } from '../../shared/wait';
import { engineCalls, filesUnder, processesIn, run, sshdUnder, type Json, type Run } from './nodeKit';

const TOKEN = 'tp_unit_nodes_token_aaaaaaaaaaaaaa';
const TOKEN2 = 'tp_unit_nodes_token_bbbbbbbbbbbbbb';
/** A token in the engine's own environment must not reach a node (sshd, logins, files). */
const ENV_SECRET = 'tp_unit_nodes_env_secret_cccccccccc';

describe('engine: real cluster nodes (OpenSSH sshd)', function () {
  this.timeout(60_000);
  let engine: RunningEngine;
  let tmp: string;
  let key: string;
  let knownHosts: string;
  const user = os.userInfo().username;

  const { call, control } = engineCalls(() => engine.url, TOKEN);

  async function newKey(name: string): Promise<string> {
    const file = path.join(tmp, name);
    const r = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
    assert.equal(r.code, 0, r.stderr);
    return file;
  }

  /** Create a cluster and wait until it is RUNNING; its instances with their real addresses. */
  async function cluster(body: Json = {}, token = TOKEN): Promise<{ id: string; instances: Json[] }> {
    const created = await call('POST', '/cluster/create', { instance_type: '1xH100', ...body }, token);
    const info = await waitFor(
      `cluster ${created.cluster_id} RUNNING`,
      () => call('GET', `/cluster/info/${created.cluster_id}`),
      (i) => i.status === 'RUNNING',
      20_000,
      20,
    );
    return { id: created.cluster_id as string, instances: info.instances as Json[] };
  }

  function ssh(inst: Json, command: string, identity = key): Promise<Run> {
    return run('ssh', [
      ...['-F', '/dev/null', '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'ConnectTimeout=10'],
      ...['-o', `UserKnownHostsFile=${knownHosts}`, '-o', 'StrictHostKeyChecking=accept-new'],
      ...['-i', identity, '-p', String(inst.ssh_port), `${inst.ssh_user}@${inst.ip}`, command],
    ]);
  }

  const sshOpts = () =>
    `ssh -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=accept-new -i ${key}`;

  /** sshd processes of this engine (optionally of one node), counted from /proc. */
  const sshdCount = (instanceId = '') => sshdUnder(path.join(engine.dataDir!, 'nodes', instanceId));

  before(async function () {
    this.timeout(600_000); // a first use installs openssh-server and rsync (as root)
    await ensureNodePackages();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nodes-test-'));
    knownHosts = path.join(tmp, 'known_hosts');
    key = await newKey('id_test');
    const smi = path.join(tmp, 'nvidia-smi.js');
    fs.writeFileSync(smi, "console.log('stand-in nvidia-smi ' + process.argv.slice(2).join(' '));\n");
    process.env.TENSORPOOL_KEY = ENV_SECRET;
    engine = await startEngine({
      quiet: true,
      tokens: [TOKEN, TOKEN2],
      pendingMs: 20,
      processingMs: 20,
      nodes: 'require',
      nvidiaSmi: smi,
    });
  });
  after(async () => {
    delete process.env.TENSORPOOL_KEY;
    const dataDir = engine.dataDir!;
    await engine.close();
    // Engine stop: no sshd of it is left, and its temporary data folder is gone.
    assert.equal(sshdCount(), 0);
    assert.equal(fs.existsSync(dataDir), false, `${dataDir} removed at stop`);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a login lands in the node home with the node environment; the wire and /ssh give the real address', async () => {
    const c = await cluster({ public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')] });
    const inst = c.instances[0];
    assert.equal(inst.ip, '127.0.0.1');
    assert.equal(inst.ssh_user, user);
    assert.ok(Number.isInteger(inst.ssh_port) && inst.ssh_port > 0, JSON.stringify(inst));
    const dir = path.join(engine.dataDir!, 'nodes', inst.id);
    const r = await ssh(inst, 'echo $TP_NODE; pwd; echo $TP_NODE_DIR; echo $TP_INSTANCE_TYPE; echo $PATH');
    assert.equal(r.code, 0, r.stderr);
    const [node, pwd, nodeDir, type, loginPath] = r.stdout.trim().split('\n');
    assert.equal(node, inst.id);
    assert.equal(pwd, path.join(dir, 'home'));
    assert.equal(nodeDir, dir);
    assert.equal(type, '1xH100');
    assert.equal(loginPath.split(':')[0], path.join(dir, 'bin'));
    // No token in the login's environment or the node's files (sshd gets none of the engine's environment).
    const loginEnv = await ssh(inst, 'env');
    assert.match(loginEnv.stdout, /TP_NODE=/);
    for (const text of [loginEnv.stdout, ...filesUnder(dir)])
      for (const secret of [TOKEN, TOKEN2, ENV_SECRET])
        assert.ok(!text.includes(secret), 'no token on the node');
    // A GPU node's bin/ runs the nvidia-smi stand-in.
    const smi = await ssh(inst, 'nvidia-smi -L');
    assert.equal(smi.stdout.trim(), 'stand-in nvidia-smi -L', smi.stderr);

    const sshAnswer = await call('GET', `/ssh/${inst.id}?system=linux`);
    assert.match(sshAnswer.command, new RegExp(` -p ${inst.ssh_port} ${user}@127\\.0\\.0\\.1$`));
    const text = (await call('GET', `/cluster/info/${c.id}`)).message as string;
    assert.match(text, /SSH PORT/);
    assert.ok(text.includes(String(inst.ssh_port)), text);
  });

  it('a file sent to node 0 (rsync, scp) is in its home only; a CPU node has no nvidia-smi', async () => {
    const c = await cluster({
      instance_type: '32xCPU',
      num_nodes: 2,
      public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')],
    });
    const [n0, n1] = c.instances;
    const home = (i: Json) => path.join(engine.dataDir!, 'nodes', i.id, 'home');
    const local = path.join(tmp, 'payload.txt');
    fs.writeFileSync(local, 'node zero only\n');
    const rsync = await run('rsync', [
      '-az',
      '-e',
      `${sshOpts()} -p ${n0.ssh_port}`,
      local,
      `${n0.ssh_user}@127.0.0.1:up/`,
    ]);
    assert.equal(rsync.code, 0, rsync.stderr);
    assert.equal(fs.readFileSync(path.join(home(n0), 'up', 'payload.txt'), 'utf8'), 'node zero only\n');
    assert.equal(fs.existsSync(path.join(home(n1), 'up')), false, 'node 1 has no copy');
    const scp = await run('scp', [
      ...sshOpts().split(' ').slice(1),
      ...['-P', String(n1.ssh_port), local, `${n1.ssh_user}@127.0.0.1:from-scp.txt`],
    ]);
    assert.equal(scp.code, 0, scp.stderr);
    assert.ok(fs.existsSync(path.join(home(n1), 'from-scp.txt')));
    assert.equal(fs.existsSync(path.join(home(n0), 'from-scp.txt')), false);
    const listed = await ssh(n1, 'ls; command -v nvidia-smi || echo none; echo $TP_INSTANCE_TYPE');
    assert.deepEqual(listed.stdout.trim().split('\n'), ['from-scp.txt', 'none', '32xCPU']);
  });

  it("authorized keys: the create's keys plus the keys saved by the user and the organisation at create time", async () => {
    const saved = await newKey('id_saved');
    const teammate = await newKey('id_teammate');
    const stranger = await newKey('id_stranger');
    const later = await newKey('id_later');
    await call('POST', '/user/ssh-key/add', { public_key: fs.readFileSync(`${saved}.pub`, 'utf8') });
    await call(
      'POST',
      '/user/ssh-key/add',
      { public_key: fs.readFileSync(`${teammate}.pub`, 'utf8') },
      TOKEN2,
    );
    const c = await cluster({ public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')] });
    await call('POST', '/user/ssh-key/add', { public_key: fs.readFileSync(`${later}.pub`, 'utf8') });
    const inst = c.instances[0];
    for (const k of [key, saved, teammate])
      assert.equal((await ssh(inst, 'true', k)).code, 0, `${k} logs in`);
    for (const k of [stranger, later]) {
      const refused = await ssh(inst, 'true', k);
      assert.equal(refused.code, 255, `${k} is refused`);
      assert.match(refused.stderr, /Permission denied/);
    }
  });

  it('destroy stops the sshd and removes the folder; re-created on the pinned port, the host key is new', async () => {
    const pub = fs.readFileSync(`${key}.pub`, 'utf8');
    const first = await cluster({ public_keys: [pub] });
    const inst = first.instances[0];
    const dir = path.join(engine.dataDir!, 'nodes', inst.id);
    assert.equal(sshdCount(inst.id), 1);
    const keyscan = async (port: number) => {
      const r = await run('ssh-keyscan', ['-t', 'ed25519', '-p', String(port), '127.0.0.1']);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim().split(' ').slice(1).join(' ');
    };
    const before = await keyscan(inst.ssh_port);
    assert.equal((await ssh(inst, 'true')).code, 0);

    await control.setNodes({ ports: [inst.ssh_port] });
    await call('DELETE', `/cluster/${first.id}`);
    await waitFor(
      'node stopped',
      async () => sshdCount(inst.id) === 0 && !fs.existsSync(dir),
      Boolean,
      5000,
      20,
    );

    const second = await cluster({ public_keys: [pub] });
    const again = second.instances[0];
    assert.equal(again.ssh_port, inst.ssh_port, 'the pinned port is reused');
    assert.notEqual(await keyscan(again.ssh_port), before, 'a new host key');
    // The host key a client remembered no longer matches: ssh refuses, as it would in the cloud.
    const changed = await ssh(again, 'true');
    assert.equal(changed.code, 255);
    assert.match(changed.stderr, /REMOTE HOST IDENTIFICATION HAS CHANGED/);
  });

  it('destroy ends the sessions still open on the node, and what they run', async () => {
    const c = await cluster({ public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')] });
    const inst = c.instances[0];
    const home = path.join(engine.dataDir!, 'nodes', inst.id, 'home');
    const session = ssh(inst, 'echo started > started.txt; sleep 60');
    await waitFor(
      'session running',
      () => fs.existsSync(path.join(home, 'started.txt')),
      Boolean,
      10_000,
      20,
    );
    const inHome = () => processesIn(home);
    assert.ok(inHome().length >= 1, 'the session runs in the node home');
    await call('DELETE', `/cluster/${c.id}`);
    const ended = await session;
    assert.notEqual(ended.code, 0, 'the client sees the session end');
    await waitFor(
      'nothing left in the node home',
      () => inHome().length,
      (n) => n === 0,
      5000,
      20,
    );
  });

  it('a node whose server is down keeps its cluster RUNNING and its address, and refuses connections', async () => {
    const c = await cluster({ public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')] });
    const inst = c.instances[0];
    const described = await control.setNodes({ down: inst.id });
    assert.equal(described.nodes.find((n) => n.instance_id === inst.id)?.state, 'down');
    await waitFor(
      'sshd gone',
      async () => sshdCount(inst.id),
      (n) => n === 0,
      5000,
      20,
    );
    const info = await call('GET', `/cluster/info/${c.id}`);
    assert.equal(info.status, 'RUNNING');
    assert.equal(info.instances[0].ssh_port, inst.ssh_port);
    const r = await ssh(inst, 'true');
    assert.equal(r.code, 255);
    assert.match(r.stderr, /Connection refused/);
  });

  it('a reset to the demo seed answers once its nodes listen: its running clusters are RUNNING with addresses', async () => {
    await control.reset('demo');
    const list = await call('GET', '/cluster/list?instances=true');
    const running = (list.clusters as Json[]).filter(
      (c) => c.name !== 'big-run-8xb200' && c.name !== 'eval-1xh200',
    );
    assert.equal(running.length, 2);
    for (const c of running) {
      assert.equal(c.status, 'RUNNING', c.name);
      for (const i of c.instances as Json[])
        assert.ok(i.ssh_port > 0 && i.ip === '127.0.0.1', JSON.stringify(i));
    }
    // The seeded nodes predate any saved key: they accept the keys saved now, and not a removed one.
    // known_hosts starts empty: a node of an earlier test may have listened on the port a seeded node has
    // now, and its remembered host key would refuse the login.
    fs.rmSync(knownHosts, { force: true });
    const node = (running[0].instances as Json[])[0];
    const refused = await ssh(node, 'true');
    assert.equal(refused.code, 255);
    assert.match(refused.stderr, /Permission denied/);
    const added = await call('POST', '/user/ssh-key/add', {
      public_key: fs.readFileSync(`${key}.pub`, 'utf8'),
    });
    const accepted = await ssh(node, 'echo $TP_NODE');
    assert.equal(accepted.stdout.trim(), node.id, accepted.stderr);
    await call('DELETE', `/user/ssh-key/remove/${added.key_id}`);
    const removed = await ssh(node, 'true');
    assert.equal(removed.code, 255);
    assert.match(removed.stderr, /Permission denied/);
  });

  it('reset stops every node', async () => {
    await cluster({ public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')] });
    assert.ok(sshdCount() > 0);
    await control.reset();
    const nodes = path.join(engine.dataDir!, 'nodes');
    await waitFor(
      'no sshd and no node folder after reset',
      async () => sshdCount() + fs.readdirSync(nodes).length,
      (n) => n === 0,
      5000,
      20,
    );
  });
});
