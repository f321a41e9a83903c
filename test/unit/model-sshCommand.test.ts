/** SSH command lines: argv for a terminal without a shell, and the command built from the settings. */
import * as assert from 'node:assert/strict';
import {
  buildSshCommand,
  privateKeyPath,
  remoteHomeFolder,
  remoteSshHost,
  splitCommand,
  buildSshArgv,
  formatCommand,
} from '../../src/model/sshCommand';

describe('ssh command lines', () => {
  it('splits on whitespace, keeps quoted parts whole and drops the quotes', () => {
    assert.deepEqual(splitCommand('  ssh -p 2222   ubuntu@1.2.3.4 '), [
      'ssh',
      '-p',
      '2222',
      'ubuntu@1.2.3.4',
    ]);
    assert.deepEqual(splitCommand(`ssh -i "/home/me/my keys/id" -o 'ProxyCommand=a b'`), [
      'ssh',
      '-i',
      '/home/me/my keys/id',
      '-o',
      'ProxyCommand=a b',
    ]);
  });

  it('keeps an empty quoted argument and interprets nothing a shell would', () => {
    assert.deepEqual(splitCommand(`ssh "" host`), ['ssh', '', 'host']);
    assert.deepEqual(splitCommand('ssh host; rm -rf $HOME `x`'), [
      'ssh',
      'host;',
      'rm',
      '-rf',
      '$HOME',
      '`x`',
    ]);
    assert.deepEqual(splitCommand('   '), []);
  });

  it('builds ssh [-p port] [-i key] user@host, leaving out port 22', () => {
    assert.equal(buildSshCommand({ user: 'ubuntu', host: '10.0.0.1', port: 22 }), 'ssh ubuntu@10.0.0.1');
    assert.equal(
      buildSshCommand({ user: 'root', host: '10.0.0.1', port: 2200, identity: '/k/id_ed25519' }),
      'ssh -p 2200 -i /k/id_ed25519 root@10.0.0.1',
    );
  });

  it('names the Remote-SSH host, the remote home folder and the private key of a .pub', () => {
    assert.equal(remoteSshHost('ubuntu', '10.0.0.1', 22), 'ubuntu@10.0.0.1');
    assert.equal(remoteSshHost('ubuntu', '10.0.0.1', 2200), 'ubuntu@10.0.0.1:2200');
    assert.equal(remoteHomeFolder('root'), '/root');
    assert.equal(remoteHomeFolder('ubuntu'), '/home/ubuntu');
    assert.equal(privateKeyPath('/h/.ssh/id_ed25519.pub'), '/h/.ssh/id_ed25519');
    assert.equal(privateKeyPath('/h/.ssh/key'), '/h/.ssh/key');
  });

  it('quotes a key path with spaces so the copied command reads back to the argv the terminal runs', () => {
    const t = { user: 'ubuntu', host: '10.0.0.1', port: 22, identity: '/home/me/my keys/id' };
    assert.deepEqual(buildSshArgv(t), ['ssh', '-i', '/home/me/my keys/id', 'ubuntu@10.0.0.1']);
    assert.equal(buildSshCommand(t), 'ssh -i "/home/me/my keys/id" ubuntu@10.0.0.1');
    for (const argv of [buildSshArgv(t), ['ssh', '-i', 'a"b', 'h'], ['ssh', '', "it's"]])
      assert.deepEqual(splitCommand(formatCommand(argv)), argv);
  });
});
