/** ssh's stderr read as a reason (real OpenSSH messages), and what to install when a program is missing. */
import * as assert from 'node:assert/strict';
import {
  classifySshFailure,
  installHint,
  lastSshLine,
  missingProgram,
  missingProgramMessage,
} from '../../src/model/sshFailure';

const CHANGED = `@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
Host key for tp-train-1.c-1 has changed and you have requested strict checking.
Host key verification failed.
`;

describe('ssh failures', () => {
  it('reads the kind of failure from what OpenSSH prints', () => {
    assert.equal(classifySshFailure(CHANGED), 'host-key-changed');
    assert.equal(classifySshFailure('root@127.0.0.1: Permission denied (publickey).\n'), 'denied');
    assert.equal(
      classifySshFailure('ssh: connect to host 127.0.0.1 port 40001: Connection refused\n'),
      'unreachable',
    );
    assert.equal(
      classifySshFailure('ssh: connect to host 10.0.0.1 port 22: Connection timed out'),
      'unreachable',
    );
    assert.equal(classifySshFailure('something else entirely'), 'other');
  });

  it('keeps the last meaningful line, without banners or the first-use notice', () => {
    assert.equal(lastSshLine(CHANGED), 'Host key verification failed.');
    assert.equal(
      lastSshLine(
        "Warning: Permanently added 'x' (ED25519) to the list of known hosts.\nPermission denied (publickey).\n",
      ),
      'Permission denied (publickey).',
    );
    assert.equal(lastSshLine(''), '');
  });

  it('names the program a shell could not find', () => {
    assert.equal(missingProgram('sh: 1: rsync: not found\n'), 'rsync');
    assert.equal(missingProgram('/bin/sh: line 1: rsync: command not found\n'), 'rsync');
    assert.equal(missingProgram('bash: ssh: command not found'), 'ssh');
    assert.equal(
      missingProgram("'rsync' is not recognized as an internal or external command,\r\noperable program"),
      'rsync',
    );
    assert.equal(missingProgram('rsync error: some files could not be transferred (code 23)'), undefined);
  });

  it('says what to install, with a message that fits Windows', () => {
    assert.match(installHint('ssh', 'win32'), /OpenSSH Client/);
    assert.match(installHint('ssh', 'win32'), /Add-WindowsCapability/);
    assert.doesNotMatch(installHint('ssh', 'win32'), /apt/);
    assert.match(installHint('rsync', 'win32'), /WSL|MSYS2|Cygwin/);
    assert.match(installHint('ssh', 'linux'), /apt install openssh-client/);
    assert.match(installHint('rsync', 'linux'), /apt install rsync/);
    assert.match(installHint('rsync', 'darwin'), /brew install rsync/);
    assert.match(
      missingProgramMessage('rsync', 'linux'),
      /^rsync was not found on this computer\. Install rsync/,
    );
  });
});
