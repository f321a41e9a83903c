/** The allow-list for the service's ssh command (GET /ssh): what runs without asking, and why the rest does not. */
import * as assert from 'node:assert/strict';
import { isSshHost, isSshUser } from '../../src/model/sshAddress';
import { hiddenCharacter } from '../../src/model/shownText';
import { formatCommand, splitCommand } from '../../src/model/sshCommand';
import { enforcedSshOptions } from '../../src/model/sshOptions';
import {
  checkSshCommand,
  MAX_SSH_COMMAND_CHARS,
  type SshRefusalCode,
} from '../../src/model/sshCommandPolicy';

/** The extension's own options, placed first in what runs. */
const ENFORCED = enforcedSshOptions('~/.ssh/tensorpool/known_hosts', 'tp-a-1.c-1');

function accepted(text: string, expectedHost?: string): readonly string[] {
  const r = checkSshCommand(text, { expectedHost });
  assert.ok(r.ok, `accepted: ${text}\n${r.ok ? '' : r.refusal.reason}`);
  return r.argv;
}

function refused(text: string, code: SshRefusalCode, reason?: RegExp, expectedHost?: string): string {
  const r = checkSshCommand(text, { expectedHost });
  assert.ok(!r.ok, `refused: ${text}`);
  assert.equal(r.refusal.code, code, `${text}: ${r.refusal.reason}`);
  if (reason) assert.match(r.refusal.reason, reason);
  return r.refusal.reason;
}

describe('the service ssh command policy', () => {
  it("accepts the engine's answer with the extension's own checking placed first, for Linux and Windows", () => {
    const engine = 'ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null ubuntu@10.0.0.7';
    const r = checkSshCommand(engine, { expectedHost: '10.0.0.7', enforced: ENFORCED });
    assert.ok(r.ok);
    assert.deepEqual(r.argv, [
      'ssh',
      ...ENFORCED,
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      'ubuntu@10.0.0.7',
    ]);
    // ssh keeps the first value: ours come before the service's.
    assert.deepEqual(ENFORCED, [
      '-o',
      'UserKnownHostsFile=~/.ssh/tensorpool/known_hosts',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      'HostKeyAlias=tp-a-1.c-1',
      '-o',
      'PasswordAuthentication=no',
      '-o',
      'KbdInteractiveAuthentication=no',
    ]);
    const win = checkSshCommand('ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=NUL ubuntu@10.0.0.7', {
      enforced: ENFORCED,
    });
    assert.ok(win.ok);
    assert.deepEqual(win.argv.slice(0, 1 + ENFORCED.length), ['ssh', ...ENFORCED]);
  });

  it('without the enforced options, a command that turns host key checking off is refused', () => {
    refused('ssh -o StrictHostKeyChecking=no ubuntu@10.0.0.7', 'ssh-option', /host key checking off/);
    refused('ssh -oStrictHostKeyChecking=off ubuntu@10.0.0.7', 'ssh-option', /host key checking off/);
    refused('ssh -o "StrictHostKeyChecking no" ubuntu@10.0.0.7', 'ssh-option', /host key checking off/);
  });

  it('refuses password prompts, a HostKeyAlias of its choosing and any known_hosts but ours or none', () => {
    for (const [o, why] of [
      ['-o PasswordAuthentication=yes', /PasswordAuthentication/],
      ['-oKbdInteractiveAuthentication=yes', /KbdInteractiveAuthentication/],
      ['-o ChallengeResponseAuthentication=yes', /ChallengeResponseAuthentication/],
      ['-o PreferredAuthentications=publickey,password', /PreferredAuthentications/],
      ['-o PreferredAuthentications=keyboard-interactive', /PreferredAuthentications/],
      ['-o HostKeyAlias=tp-a-1.c-1', /HostKeyAlias, which chooses/],
      ['-oHostKeyAlias=anything', /HostKeyAlias/],
      ['-o UserKnownHostsFile=~/.ssh/known_hosts', /UserKnownHostsFile/],
      ['-o UserKnownHostsFile=~/.ssh/tensorpool/../known_hosts', /UserKnownHostsFile/],
      ['-o UserKnownHostsFile=~/.ssh/../.ssh/tensorpool/known_hosts', /UserKnownHostsFile/],
      ['-o "UserKnownHostsFile /dev/null ~/.ssh/known_hosts"', /UserKnownHostsFile/],
      ['-o GlobalKnownHostsFile=~/.ssh/known_hosts2', /GlobalKnownHostsFile/],
    ] as const)
      refused(`ssh ${o} ubuntu@10.0.0.7`, 'ssh-option', why);
    for (const o of [
      '-o PasswordAuthentication=no',
      '-o KbdInteractiveAuthentication=no',
      '-o PreferredAuthentications=publickey',
      '-o UserKnownHostsFile=~/.ssh/tensorpool/known_hosts',
      '-o UserKnownHostsFile=/dev/null',
    ])
      accepted(`ssh ${o} ubuntu@10.0.0.7`);
  });

  it('reads combined short options as ssh does: -tp2222, -p2222, -oKey=value', () => {
    assert.deepEqual(accepted('ssh -tp2222 ubuntu@10.0.0.7'), ['ssh', '-tp2222', 'ubuntu@10.0.0.7']);
    refused('ssh -tp0 ubuntu@10.0.0.7', 'value', /port/);
    refused('ssh -tJjump ubuntu@10.0.0.7', 'option', /-J/);
    refused('ssh -CoProxyCommand=x ubuntu@10.0.0.7', 'ssh-option', /ProxyCommand/);
    refused('ssh -oStrictHostKeyChecking=no ubuntu@10.0.0.7', 'ssh-option', /host key checking off/);
  });

  it('accepts ssh by name or from a system folder, ssh.exe included, in any case on Windows', () => {
    for (const program of [
      'ssh',
      'ssh.exe',
      'SSH.EXE',
      '/usr/bin/ssh',
      '/usr/local/bin/ssh',
      '/opt/homebrew/bin/ssh',
      'C:\\Windows\\System32\\OpenSSH\\ssh.exe',
      'c:/windows/system32/openssh/ssh.exe',
      '"C:\\Program Files\\OpenSSH\\ssh.exe"',
    ])
      assert.equal(accepted(`${program} ubuntu@10.0.0.7`).length, 2, program);
    assert.equal(
      accepted('"C:\\Program Files\\OpenSSH\\ssh.exe" host')[0],
      'C:\\Program Files\\OpenSSH\\ssh.exe',
    );
  });

  it('accepts -p, -l, -i in separate and joined forms, harmless flags, bundles and --', () => {
    assert.deepEqual(accepted('ssh -p 2222 -l root -i ~/.ssh/id_ed25519 10.0.0.7'), [
      'ssh',
      '-p',
      '2222',
      '-l',
      'root',
      '-i',
      '~/.ssh/id_ed25519',
      '10.0.0.7',
    ]);
    accepted('ssh -p2222 -lroot -i/home/me/.ssh/key 10.0.0.7');
    accepted('ssh -tt -vvv -4 -C -q -T -x -a -k node-1.example.com');
    accepted('ssh -Ctp 2222 ubuntu@10.0.0.7');
    accepted('ssh -Cp2222 ubuntu@10.0.0.7');
    accepted('ssh -p 22 -- ubuntu@10.0.0.7');
    accepted('ssh ubuntu@2001:db8::7');
    accepted('  ssh ubuntu@10.0.0.7\n'); // a final line break is only the end of the answer
  });

  it('keeps quoted arguments whole: -i with spaces, -o "Key value"', () => {
    assert.deepEqual(accepted(`ssh -i "/home/me/my keys/id" -o 'ServerAliveInterval 30' ubuntu@h1`), [
      'ssh',
      '-i',
      '/home/me/my keys/id',
      '-o',
      'ServerAliveInterval 30',
      'ubuntu@h1',
    ]);
    const argv = accepted(`ssh -i "C:\\Users\\Me Too\\.ssh\\id" ubuntu@h1`);
    assert.deepEqual(splitCommand(formatCommand(argv)), [...argv], 'the copied text reads back the same');
  });

  it('accepts the harmless -o options in every form, keys in any case', () => {
    for (const o of [
      '-oStrictHostKeyChecking=accept-new',
      '-o stricthostkeychecking=ask',
      '-o "StrictHostKeyChecking = yes"',
      '-o UserKnownHostsFile=~/.ssh/tensorpool/known_hosts',
      '-o "UserKnownHostsFile /dev/null"',
      '-o SERVERALIVEINTERVAL=30',
      '-o ServerAliveCountMax=3',
      '-o ConnectTimeout=10',
      '-o IdentitiesOnly=yes',
      '-o Port=2222',
      '-o User=ubuntu',
      '-o IdentityFile=~/.ssh/id_ed25519',
      '-o LogLevel=ERROR',
      '-o BatchMode=no',
      '-o RequestTTY=force',
    ])
      accepted(`ssh ${o} ubuntu@10.0.0.7`);
  });

  it('refuses another program, however it is named', () => {
    refused(`sh -c 'echo pwned > /tmp/marker'`, 'program', /"sh", not ssh/);
    refused('bash', 'program');
    refused('sshd ubuntu@h1', 'program');
    refused('ssh-keygen -R h1', 'program');
    refused('ssh.bat ubuntu@h1', 'program');
    refused('python3 -c x', 'program');
    refused('/tmp/ssh ubuntu@h1', 'program', /not a system folder/);
    refused('C:\\Users\\me\\Downloads\\ssh.exe ubuntu@h1', 'program', /not a system folder/);
    refused('./ssh ubuntu@h1', 'program');
  });

  it('refuses each option that runs, loads or reads something, forwards, or connects elsewhere', () => {
    const cases: Array<[string, RegExp]> = [
      [`-o ProxyCommand="sh -c 'x'"`, /ProxyCommand, which runs a local command/],
      ['-o ProxyCommand=nc', /ProxyCommand/],
      ['-oproxycommand=nc', /ProxyCommand/],
      ['-o "PROXYCOMMAND nc %h %p"', /ProxyCommand/],
      ['-o LocalCommand=touch', /LocalCommand/],
      ['-o PermitLocalCommand=yes', /PermitLocalCommand/],
      ['-o KnownHostsCommand=/bin/x', /KnownHostsCommand/],
      ['-o "Match exec true"', /Match/],
      ['-o Include=/tmp/c', /Include/],
      ['-o ProxyJump=evil', /ProxyJump/],
      ['-o ControlPath=/tmp/s', /control socket/],
      ['-o ControlMaster=auto', /control socket/],
      ['-o HostName=evil.example', /another host/],
      ['-o ForwardAgent=yes', /agent/],
      ['-o LocalForward=8080:h:80', /forwards ports/],
      ['-o PKCS11Provider=/tmp/x.so', /loads a library/],
      ['-o SendEnv=TENSORPOOL_KEY', /environment/],
      ['-o UserKnownHostsFile=~/.bashrc', /value/],
      ['-o StrictHostKeyChecking=maybe', /value/],
      ['-o Ciphers=aes', /does not allow/],
      ['-o NoSuchOption=1', /does not allow/],
      ['-o JustAKey', /Key=value/],
    ];
    for (const [option, reason] of cases) refused(`ssh ${option} ubuntu@10.0.0.7`, 'ssh-option', reason);
    const flags: Array<[string, RegExp]> = [
      ['-F /tmp/config', /-F, which reads another ssh configuration file/],
      ['-E /tmp/log', /-E, which writes a log/],
      ['-S /tmp/sock', /-S, which shares connections/],
      ['-J evil', /-J, which connects through another host/],
      ['-W h:22', /-W/],
      ['-L 8080:h:80', /-L, which forwards ports/],
      ['-R 80:h:80', /-R/],
      ['-D 1080', /-D/],
      ['-A', /agent/],
      ['-X', /X11/],
      ['-I /tmp/x.so', /library/],
      ['-M', /control socket/],
      ['-N', /-N, an option TensorPool does not allow/],
      ['-Ct -F /tmp/c', /-F/],
      ['-tF/tmp/c', /-F/],
    ];
    for (const [flag, reason] of flags) refused(`ssh ${flag} ubuntu@10.0.0.7`, 'option', reason);
    refused('ssh -p 0 h1', 'value', /port/);
    refused('ssh -p 70000 h1', 'value');
    refused('ssh -p x h1', 'value');
    refused('ssh -l -oProxyCommand=x h1', 'value');
    refused('ssh -i', 'value', /no value/);
  });

  it('refuses shell syntax, globbing and %-tokens, naming the character', () => {
    for (const ch of [';', '|', '&', '$', '`', '<', '>', '(', ')', '*', '?', '[', '{', '!', '#', '%', '^'])
      refused(`ssh -i a${ch}b ubuntu@h1`, 'character', new RegExp(`contains \\${ch}, which a shell`));
    refused('ssh -i /home/josé/key ubuntu@h1', 'character', /U\+00E9/);
    refused('ssh -o IdentityFile=$(touch${IFS}x) ubuntu@h1', 'character', /\$/);
    // Where the words themselves are wrong, that is the reason given.
    refused('ssh ubuntu@h1 && touch /tmp/x', 'extra', /"&& touch \/tmp\/x" after the destination/);
    refused('ssh ubuntu@h1; touch /tmp/x', 'extra');
    refused('ssh $(id)@h1', 'destination');
    refused('ssh ubuntu@hé', 'destination');
  });

  it('refuses a line break followed by a second command, and text hidden by invisible characters', () => {
    refused('ssh ubuntu@10.0.0.7\ntouch /tmp/marker', 'line-break', /line break/);
    refused('ssh ubuntu@10.0.0.7\r\ncurl x | sh', 'line-break');
    const hidden = checkSshCommand('ssh ubuntu@10.0.0.7\rtouch /tmp/x');
    assert.ok(!hidden.ok && hidden.refusal.code === 'hidden-character' && !hidden.refusal.showable);
    refused('ssh ubuntu@h1\u202e', 'hidden-character', /U\+202E/);
    refused('ssh\u200bubuntu@h1', 'hidden-character');
    refused('ssh\x1b[8m ubuntu@h1', 'hidden-character');
  });

  it('refuses a second command or anything after the destination, and a bad or missing destination', () => {
    refused('ssh ubuntu@10.0.0.7 touch /tmp/marker', 'extra', /"touch \/tmp\/marker" after the destination/);
    refused('ssh ubuntu@10.0.0.7 -o ProxyCommand=x', 'extra');
    refused('ssh -p 22', 'no-destination');
    refused('ssh', 'no-destination');
    refused('ssh ubuntu@', 'destination');
    refused('ssh @h1', 'destination');
    refused('ssh -- -oProxyCommand=x', 'destination');
    refused('ssh ssh://ubuntu@h1:22', 'destination');
    refused('ssh ubu/ntu@h1', 'destination');
    refused('ssh ubuntu@1.2.3.999', 'destination');
    refused('ssh ubuntu@evil.example', 'elsewhere', /not to the node's address "10\.0\.0\.7"/, '10.0.0.7');
  });

  it('refuses quotes it cannot read back the same way, and empty answers', () => {
    refused(`ssh "ubuntu@h1`, 'quote', /left open/);
    refused(`ssh -i "it's" ubuntu@h1`, 'quote', /quote inside/);
    refused('', 'empty');
    refused('   ', 'empty');
  });

  it('refuses an absurdly long answer without showing it', () => {
    const long = `ssh ${'-v '.repeat(MAX_SSH_COMMAND_CHARS)}ubuntu@h1`;
    const r = checkSshCommand(long);
    assert.ok(!r.ok);
    assert.equal(r.refusal.code, 'too-long');
    assert.equal(r.refusal.showable, false);
    assert.match(r.refusal.reason, new RegExp(`${long.length} characters long`));
    accepted(`ssh ${'-v '.repeat(600)}ubuntu@h1`);
  });

  it('validates host names and users as ssh and Remote-SSH receive them', () => {
    for (const h of ['10.0.0.7', '2001:db8::1', '::1', 'node-1.example.com', 'gpu_box', 'localhost'])
      assert.ok(isSshHost(h), h);
    for (const h of [
      '',
      '-oProxyCommand=x',
      '-F',
      'a b',
      'h1/x',
      'h1#x',
      'fe80::1%eth0',
      '1.2.3.999',
      'a..b',
      'x'.repeat(254),
    ])
      assert.ok(!isSshHost(h), h);
    assert.ok(isSshUser('ubuntu') && isSshUser('a.b-c_d'));
    for (const u of ['', '-oX', '.x', 'a b', 'a@b', 'x'.repeat(65)]) assert.ok(!isSshUser(u), u);
  });

  it('names the characters that would hide text in a dialog (a job command is refused for them too)', () => {
    assert.equal(hiddenCharacter('rsync -a ./ host:/x\nsecond line\r\nthird\tcolumn'), undefined);
    assert.equal(hiddenCharacter('a\rb'), 'U+000D');
    assert.equal(hiddenCharacter('a\u001b[8mb'), 'U+001B');
    assert.equal(hiddenCharacter('a\u202eb'), 'U+202E');
    assert.equal(hiddenCharacter('a\u200bb'), 'U+200B');
    assert.equal(hiddenCharacter('a\u2028b'), 'U+2028');
    assert.equal(hiddenCharacter('\ufeffa'), 'U+FEFF');
  });
});
