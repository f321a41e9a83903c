/**
 * Our known_hosts: a destroyed cluster's node keys are dropped (by HostKeyAlias and by [host]:port, plain
 * or hashed), everything else is kept byte for byte; the ssh command the extension builds carries the
 * same port, user, key and known_hosts options as its host entry, and the service-command policy accepts
 * exactly that form; the login of a checked service command is read back.
 */
import * as assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  dropKnownHosts,
  knownHostName,
  knownHostNamesForCluster,
  removeKnownHosts,
} from '../../src/config/knownHosts';
import {
  editHostsLines,
  hostKeyAlias,
  listClusterHostEntries,
  type SshHost,
} from '../../src/config/sshHosts';
import { buildSshArgv, formatCommand, sshLoginOf } from '../../src/model/sshCommand';
import { checkSshCommand } from '../../src/model/sshCommandPolicy';
import { enforcedSshOptions } from '../../src/model/sshOptions';

const KEY_A = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const KEY_B = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

function hashed(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
}

const host = (alias: string, port: number, clusterId = 'c-1'): SshHost => ({
  alias,
  hostName: '127.0.0.1',
  user: 'root',
  port,
  clusterId,
  clusterName: 'train',
});

describe('our known_hosts', () => {
  it('names a cluster’s keys by its aliases and by [host]:port, from the entries as written', () => {
    const lines = editHostsLines([], {
      kind: 'set',
      clusterId: 'c-1',
      hosts: [host('tp-train-1', 40001), host('tp-train-2', 22)],
    });
    const other = editHostsLines(lines, {
      kind: 'set',
      clusterId: 'c-2',
      hosts: [host('tp-other-1', 40009, 'c-2')],
    });
    assert.deepEqual(listClusterHostEntries(other)[0].hosts, [
      { alias: 'tp-train-1', hostName: '127.0.0.1', port: 40001 },
      { alias: 'tp-train-2', hostName: '127.0.0.1', port: 22 },
    ]);
    assert.deepEqual(knownHostNamesForCluster(other, 'c-1').sort(), [
      '127.0.0.1',
      '[127.0.0.1]:40001',
      'tp-train-1.c-1',
      'tp-train-2.c-1',
    ]);
    assert.deepEqual(knownHostNamesForCluster(other, 'c-2').sort(), ['[127.0.0.1]:40009', 'tp-other-1.c-2']);
    assert.equal(knownHostName('Node.Example', 22), 'node.example');
    assert.equal(hostKeyAlias('tp-train-1', 'c-1'), 'tp-train-1.c-1');
  });

  it('drops plain and hashed lines of those names, keeps the rest as it was', () => {
    const text = [
      '# our file',
      `tp-train-1.c-1 ${KEY_A}`,
      `${hashed('tp-train-2.c-1')} ${KEY_A}`,
      `[127.0.0.1]:40001 ${KEY_B}`,
      `tp-other-1.c-2 ${KEY_B}`,
      `${hashed('tp-other-1.c-2')} ${KEY_B}`,
      `@revoked tp-train-1.c-1,keep.example ${KEY_B}`,
      '',
    ].join('\n');
    const out = dropKnownHosts(text, ['tp-train-1.c-1', 'tp-train-2.c-1', '[127.0.0.1]:40001']);
    const lines = out.split('\n');
    assert.deepEqual(lines, [
      '# our file',
      `tp-other-1.c-2 ${KEY_B}`,
      text.split('\n')[5],
      `@revoked keep.example ${KEY_B}`,
      '',
    ]);
    assert.equal(dropKnownHosts(text, []), text);
  });

  it('edits the file atomically; a missing file stays missing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-kh-'));
    try {
      const file = path.join(dir, 'known_hosts');
      assert.equal((await removeKnownHosts(file, ['x'])).changed, false);
      assert.ok(!fs.existsSync(file));
      fs.writeFileSync(file, `tp-a-1.c-9 ${KEY_A}\nkeep ${KEY_B}\n`, { mode: 0o600 });
      assert.equal((await removeKnownHosts(file, ['tp-a-1.c-9'])).changed, true);
      assert.equal(fs.readFileSync(file, 'utf8'), `keep ${KEY_B}\n`);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'mode kept');
      assert.deepEqual(fs.readdirSync(dir), ['known_hosts'], 'no temporary file left');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the ssh command the extension builds', () => {
  const argv = buildSshArgv({
    user: 'root',
    host: '127.0.0.1',
    port: 40001,
    identity: '/home/me/.ssh/tp_key',
    knownHosts: '~/.ssh/tensorpool/known_hosts',
    hostKeyAlias: 'tp-train-1.c-1',
  });

  it('carries the port, user, key and our known_hosts with accept-new', () => {
    assert.deepEqual(argv, [
      'ssh',
      '-p',
      '40001',
      '-i',
      '/home/me/.ssh/tp_key',
      '-o',
      'UserKnownHostsFile=~/.ssh/tensorpool/known_hosts',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      'HostKeyAlias=tp-train-1.c-1',
      'root@127.0.0.1',
    ]);
  });

  it('is a form the service-command policy accepts as it is, but for HostKeyAlias (the extension sets its own)', () => {
    const own = argv.filter(
      (a, i) => !a.startsWith('HostKeyAlias=') && !argv[i + 1]?.startsWith('HostKeyAlias='),
    );
    const verdict = checkSshCommand(formatCommand(own), { expectedHost: '127.0.0.1' });
    assert.ok(verdict.ok, JSON.stringify(verdict));
    assert.deepEqual(verdict.argv, own);
    assert.equal(checkSshCommand(formatCommand(argv), { expectedHost: '127.0.0.1' }).ok, false);
  });

  it('refuses a cluster id that is not one word wherever it would reach an argument', () => {
    assert.throws(() => hostKeyAlias('tp-train-1', 'c-1 -oProxyCommand=x'), /cluster id/);
    assert.throws(() => hostKeyAlias('tp-train-1', 'c-1\nProxyCommand x'), /cluster id/);
    assert.equal(hostKeyAlias('tp-train-1', 'c_1.x-2'), 'tp-train-1.c_1.x-2');
    assert.throws(
      () => buildSshArgv({ user: 'root', host: '127.0.0.1', port: 22, hostKeyAlias: 'a b' }),
      /not a host key alias/,
    );
    assert.throws(() => enforcedSshOptions('~/.ssh/tensorpool/known_hosts', 'x=y'), /not a host key alias/);
  });

  it('the policy still refuses a HostKeyAlias that is not a plain name', () => {
    const verdict = checkSshCommand('ssh -o HostKeyAlias=-oProxyCommand=x root@127.0.0.1', {
      expectedHost: '127.0.0.1',
    });
    assert.equal(verdict.ok, false);
  });

  it('reads the port and user of a checked service command', () => {
    assert.deepEqual(sshLoginOf(['ssh', '-o', 'StrictHostKeyChecking=no', '-p', '2222', 'ubuntu@1.2.3.4']), {
      port: 2222,
      user: 'ubuntu',
    });
    assert.deepEqual(sshLoginOf(['ssh', '-l', 'alice', '-o', 'Port=2200', '1.2.3.4']), {
      user: 'alice',
      port: 2200,
    });
    assert.deepEqual(sshLoginOf(['ssh', '1.2.3.4']), {});
    assert.deepEqual(sshLoginOf(['ssh', '-p', '99999', 'a@1.2.3.4']), { user: 'a' });
    // Bundled and joined short options (ssh's getopt): the port is not lost.
    assert.deepEqual(sshLoginOf(['ssh', '-tp2222', 'ubuntu@1.2.3.4']), { port: 2222, user: 'ubuntu' });
    assert.deepEqual(sshLoginOf(['ssh', '-p2222', '1.2.3.4']), { port: 2222 });
    assert.deepEqual(sshLoginOf(['ssh', '-Ctp', '2201', '-lalice', 'h']), { port: 2201, user: 'alice' });
    assert.deepEqual(sshLoginOf(['ssh', '-oPort=2202', '-vvv', 'h']), { port: 2202 });
    assert.deepEqual(
      sshLoginOf(['ssh', '-i', '-p9', '-l', 'bob', 'alice@h']),
      { user: 'bob' },
      '-i takes -p9 as its file',
    );
    assert.deepEqual(sshLoginOf(['ssh', '-oStrictHostKeyChecking=no', '--', 'u@h']), { user: 'u' });
  });
});
