// POST /_engine/nodes { drop } (engine/nodeControl.ts): a node's open ssh sessions are cut mid-stream while
// its sshd keeps listening, so a client sees its connection end and can connect again. Checked with the
// real ssh client against the engine's real sshd.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEngine, type RunningEngine } from '../../../engine/server';
import { ensureNodePackages } from '../../harness/install';
import { waitFor } from '../../shared/wait';
import { engineCalls, processesIn, run, sshdUnder, type Json } from './nodeKit';

const TOKEN = 'tp_unit_drop_token_aaaaaaaaaaaaaaaa';

describe('engine: dropping a node’s connections (POST /_engine/nodes {drop})', function () {
  this.timeout(60_000);
  let engine: RunningEngine;
  let tmp: string;
  let key: string;
  const { call, control } = engineCalls(() => engine.url, TOKEN);

  const sshArgs = (inst: Json, command: string) => [
    ...['-F', '/dev/null', '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'ConnectTimeout=10'],
    ...[
      '-o',
      `UserKnownHostsFile=${path.join(tmp, 'known_hosts')}`,
      '-o',
      'StrictHostKeyChecking=accept-new',
    ],
    ...['-i', key, '-p', String(inst.ssh_port), `${inst.ssh_user}@${inst.ip}`, command],
  ];

  before(async function () {
    this.timeout(600_000); // a first use installs openssh-server (as root)
    await ensureNodePackages();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-drop-test-'));
    key = path.join(tmp, 'id_drop');
    assert.equal((await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key])).code, 0);
    engine = await startEngine({
      quiet: true,
      tokens: [TOKEN],
      pendingMs: 20,
      processingMs: 20,
      nodes: 'require',
    });
  });
  after(async () => {
    await engine.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a streaming session ends for its client; sshd still listens and a new session works', async () => {
    const created = await call('POST', '/cluster/create', {
      instance_type: '1xH100',
      public_keys: [fs.readFileSync(`${key}.pub`, 'utf8')],
    });
    const info = await waitFor(
      'RUNNING',
      () => call('GET', `/cluster/info/${created.cluster_id}`),
      (i) => i.status === 'RUNNING',
      20_000,
      20,
    );
    const inst = info.instances[0] as Json;
    const home = path.join(engine.dataDir!, 'nodes', inst.id, 'home');
    // A remote loop printing a line every 100 ms: a stream that only ends when the connection does.
    const client = spawn('ssh', sshArgs(inst, 'while :; do echo tick; sleep 0.1; done'), { stdio: 'pipe' });
    let out = '';
    client.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const ended = new Promise<number | null>((r) => client.on('exit', (code) => r(code)));
    await waitFor(
      'ticks',
      async () => out.split('tick').length,
      (n) => n > 3,
      10_000,
      20,
    );

    const answer = await control.setNodes({ drop: inst.id });
    assert.ok((answer.dropped ?? 0) >= 1, `sessions ended: ${answer.dropped}`);
    assert.equal(answer.nodes.find((n) => n.instance_id === inst.id)?.state, 'up');
    assert.equal(await ended, 255, 'the client sees its connection drop');
    await waitFor(
      'nothing left in the node home',
      async () => processesIn(home).length,
      (n) => n === 0,
      5000,
      20,
    );
    assert.equal(sshdUnder(path.join(engine.dataDir!, 'nodes', inst.id)), 1, 'the listener stays');
    const again = await run('ssh', sshArgs(inst, 'echo $TP_NODE'));
    assert.equal(again.stdout.trim(), inst.id, again.stderr);
    assert.equal((await call('GET', `/cluster/info/${created.cluster_id}`)).status, 'RUNNING');
  });

  it('refuses a node that is not up, and a drop that is not an instance id', async () => {
    const r = await control.unchecked('POST', 'nodes', { drop: 'no-such-node' });
    assert.equal(r.status, 404);
    const bad = await control.unchecked('POST', 'nodes', { drop: 5 });
    assert.equal(bad.status, 400);
    assert.match(bad.json.error, /drop must be an instance id/);
  });
});
