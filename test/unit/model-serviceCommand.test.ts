/** A service command read without a shell (shellWords.ts), the understood upload/pull shape
 *  (transferCommand.ts), and what every child process gets (childEnv.ts). */
import * as assert from 'node:assert/strict';
import { childEnv, SSH_OWN_CONNECTION } from '../../src/model/childEnv';
import { splitShellWords, visibleWhitespace } from '../../src/model/shellWords';
import { readTransfer, type TransferContext } from '../../src/model/transferCommand';

const words = (command: string) => {
  const r = splitShellWords(command);
  assert.ok(r.ok, `${command}: ${JSON.stringify(r)}`);
  return r.words;
};
const operator = (command: string) => {
  const r = splitShellWords(command);
  assert.ok(!r.ok, `${command} was split: ${JSON.stringify(r)}`);
  return r.operator;
};

const OUR_SSH = [
  'ssh',
  '-p',
  '2222',
  '-i',
  '/home/me/my keys/id',
  '-o',
  'BatchMode=yes',
  ...SSH_OWN_CONNECTION,
];
const ctx: TransferContext = {
  nodes: [{ user: 'root', host: '10.0.0.7', ssh: OUR_SSH }],
  insideFolder: (local) => !local.startsWith('escape'),
};
const OUR_RSH =
  "ssh -p 2222 -i '/home/me/my keys/id' -o BatchMode=yes -o ControlMaster=no -o ControlPath=none";

describe('service commands: read without a shell', () => {
  it('splits words as a POSIX shell does: quotes, backslashes, runs of blanks', () => {
    assert.deepEqual(words(`rsync -az  --exclude='*.pyc'\t-e "ssh -p 22" ./ root@h:jobs/x/`), [
      'rsync',
      '-az',
      '--exclude=*.pyc',
      '-e',
      'ssh -p 22',
      './',
      'root@h:jobs/x/',
    ]);
    assert.deepEqual(words(`a 'it'\\''s' "say \\"hi\\"" b\\ c ''`), ['a', "it's", 'say "hi"', 'b c', '']);
  });

  it('refuses what only a shell gives a meaning to, outside single quotes', () => {
    assert.equal(operator('rsync -az ./ h:x ; echo pwned > f'), ';');
    assert.equal(operator('rsync ./ h:x | sh'), '|');
    assert.equal(operator('rsync ./ h:x && curl x'), '&');
    assert.equal(operator('rsync ./ h:x > f'), '>');
    assert.equal(operator('rsync $(curl x) h:x'), '$(');
    assert.equal(operator('rsync "$HOME" h:x'), '$');
    assert.equal(operator('rsync `id` h:x'), '`');
    assert.equal(operator(`rsync ./ h:x${' '.repeat(500)}\n\n\ncurl x`), '\n');
    assert.equal(operator('rsync ./ h:x # hidden'), '#');
    assert.equal(operator("rsync 'unclosed"), "'");
    // Inside single quotes nothing is special: the word is data, not shell.
    assert.deepEqual(words(`rsync -e 'sh -c "echo pwned > f; id"' ./ h:x`)[2], 'sh -c "echo pwned > f; id"');
  });

  it('makes runs of spaces, tabs and line breaks visible', () => {
    assert.equal(visibleWhitespace('a b   c\td\ne'), 'a b\u2420\u2420\u2420c\u21e5d\u23cee');
  });
});

describe('service commands: the understood rsync/scp shape', () => {
  const read = (command: string) => readTransfer(words(command), ctx);
  const argvOf = (command: string) => {
    const t = read(command);
    assert.equal(t.kind, 'transfer', `${command}: ${t.kind === 'other' ? t.why : ''}`);
    return t.kind === 'transfer' ? t.argv : [];
  };
  const why = (command: string) => {
    const t = read(command);
    assert.equal(t.kind, 'other', `${command} was understood: ${JSON.stringify(t)}`);
    return t.kind === 'other' ? t.why : '';
  };

  it("an upload and a pull run with our ssh in place of the service's -e, whatever it said", () => {
    assert.deepEqual(
      argvOf(`rsync -az --exclude='*.pyc' -e 'sh -c "echo pwned > f"' ./ root@10.0.0.7:jobs/j1/`),
      ['rsync', '-az', '--exclude=*.pyc', '-e', OUR_RSH, './', 'root@10.0.0.7:jobs/j1/'],
    );
    assert.deepEqual(argvOf(`rsync -az --rsh='sh -c x' root@10.0.0.7:~/jobs/j1/ ./`).slice(-2), [
      'root@10.0.0.7:~/jobs/j1/',
      './',
    ]);
    // -e glued to its value, in a cluster, and an option after the paths.
    assert.deepEqual(argvOf(`rsync -aze'sh -c x' ./ root@10.0.0.7:jobs/ --rsh x`), [
      'rsync',
      '-az',
      '-e',
      OUR_RSH,
      './',
      'root@10.0.0.7:jobs/',
    ]);
    assert.deepEqual(argvOf('rsync -az --exclude x --include=y ./ root@10.0.0.7:jobs/').slice(2, 4), [
      '--exclude=x',
      '--include=y',
    ]);
  });

  it('scp gets our ssh options, the port as -P, its own -S and -o dropped', () => {
    assert.deepEqual(argvOf("scp -r -S /tmp/evil -o 'ProxyCommand=sh -c x' ./ root@10.0.0.7:jobs/"), [
      'scp',
      '-r',
      '-P',
      '2222',
      ...OUR_SSH.slice(3),
      './',
      'root@10.0.0.7:jobs/',
    ]);
  });

  it('is not understood: another host or user, outside the home, outside the folder, odd options', () => {
    assert.match(why('rsync -az ./ root@10.0.0.8:jobs/'), /not a node/);
    assert.match(why('rsync -az ./ ubuntu@10.0.0.7:jobs/'), /not a node/);
    assert.match(why('rsync -az ./ 10.0.0.7:jobs/'), /names no user/);
    assert.match(why('rsync -az ./ root@10.0.0.7:/etc/'), /outside the home/);
    assert.match(why('rsync -az ./ root@10.0.0.7:~/../other/'), /leaves the home/);
    assert.match(why('rsync -az ./ root@10.0.0.7:jobs/../../x'), /leaves the home/);
    assert.match(why('rsync -az ./ root@10.0.0.7:~other/x'), /outside the home/);
    assert.match(why("rsync -az ./ 'root@10.0.0.7:jobs/x;id'"), /remote shell/);
    assert.match(why('rsync -az ../ root@10.0.0.7:jobs/'), /leaves the folder/);
    assert.match(why('rsync -az /etc/ root@10.0.0.7:jobs/'), /not relative/);
    assert.match(why('rsync -az escape-link/ root@10.0.0.7:jobs/'), /outside the folder/);
    assert.match(why('rsync -az --rsync-path=x ./ root@10.0.0.7:jobs/'), /--rsync-path/);
    assert.match(why('rsync -az --delete ./ root@10.0.0.7:jobs/'), /--delete/);
    assert.match(why('rsync -azs ./ root@10.0.0.7:jobs/'), /-s/);
    assert.match(why('rsync -az ./ a/ root@10.0.0.7:jobs/'), /3 paths/);
    assert.match(why('rsync -az ./ b/'), /one node/);
    assert.match(why('rsync -az root@10.0.0.7:a/ root@10.0.0.7:b/'), /one node/);
    assert.match(why('rsync -az rsync://10.0.0.7/m/ ./'), /daemon/);
    assert.match(why('sh -c x'), /not rsync or scp/);
    assert.match(why('/usr/bin/rsync -az ./ root@10.0.0.7:jobs/'), /not rsync or scp/);
  });

  it('says so when our ssh cannot be written as rsync -e (a key path with both quotes)', () => {
    const odd: TransferContext = {
      nodes: [{ user: 'root', host: '10.0.0.7', ssh: ['ssh', '-i', `/k/a'b"c`] }],
      insideFolder: () => true,
    };
    const t = readTransfer(words('rsync -az ./ root@10.0.0.7:jobs/'), odd);
    assert.equal(t.kind, 'other');
  });
});

describe('child processes: the environment', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    SSH_AUTH_SOCK: '/tmp/agent',
    TENSORPOOL_KEY: 'k',
    TENSORPOOL_API_KEY: 'k',
    tensorpool_token: 't',
    GITHUB_TOKEN: 't',
    AWS_SECRET_ACCESS_KEY: 's',
    AWS_ACCESS_KEY_ID: 'a',
    MY_TOOL: 'x',
  };

  it('never passes a credential variable', () => {
    assert.deepEqual(Object.keys(childEnv(env, 'linux')).sort(), [
      'HOME',
      'MY_TOOL',
      'PATH',
      'SSH_AUTH_SOCK',
    ]);
    assert.deepEqual(Object.keys(childEnv(env, 'linux', 'ssh')).sort(), ['HOME', 'PATH', 'SSH_AUTH_SOCK']);
  });

  it("gives ssh on Windows what Winsock and ssh need (SystemRoot, the profile), names in the system's case", () => {
    const win = {
      Path: 'C:\\Windows',
      SystemRoot: 'C:\\Windows',
      windir: 'C:\\Windows',
      USERPROFILE: 'C:\\Users\\me',
      TEMP: 'C:\\Temp',
      ComSpec: 'cmd.exe',
      TENSORPOOL_KEY: 'k',
      RANDOM_THING: 'x',
    };
    assert.deepEqual(Object.keys(childEnv(win, 'win32', 'ssh')).sort(), [
      'ComSpec',
      'Path',
      'SystemRoot',
      'TEMP',
      'USERPROFILE',
      'windir',
    ]);
  });
});
