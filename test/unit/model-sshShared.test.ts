import * as assert from 'node:assert/strict';
import { SSH_OWN_CONNECTION } from '../../src/model/childEnv';
import { masterArgv, sharedSsh } from '../../src/model/sshShared';

const ssh = ['ssh', '-p', '2222', '-i', '/k/my key', '-o', 'BatchMode=yes', ...SSH_OWN_CONNECTION];

describe("Sync: one ssh connection per sync (the sync's own master)", () => {
  it('the master: -M -N on our socket, ControlPersist=no, before the login options; the destination last', () => {
    const argv = masterArgv(ssh, '/tmp/tp-sync-x/ssh', 'root', '127.0.0.1');
    assert.deepEqual(argv, [
      'ssh',
      '-M',
      '-N',
      '-S',
      '/tmp/tp-sync-x/ssh',
      '-o',
      'ControlPersist=no',
      '-p',
      '2222',
      '-i',
      '/k/my key',
      '-o',
      'BatchMode=yes',
      'root@127.0.0.1',
    ]);
  });

  it("an rsync's ssh: our socket and ControlMaster=no first (a user's config cannot set them), no ControlPath=none", () => {
    const argv = sharedSsh(ssh, '/tmp/tp-sync-x/ssh');
    assert.deepEqual(argv.slice(0, 5), ['ssh', '-S', '/tmp/tp-sync-x/ssh', '-o', 'ControlMaster=no']);
    assert.ok(!argv.includes('ControlPath=none'));
    assert.equal(argv.filter((a) => a.startsWith('ControlMaster')).length, 1);
    assert.deepEqual(argv.slice(5), ['-p', '2222', '-i', '/k/my key', '-o', 'BatchMode=yes']);
  });
});
