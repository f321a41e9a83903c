/**
 * SSH config: our host entries, our own file, the Include line at the top of ~/.ssh/config and
 * the marked-block alternative, against hand-written files with Include lines, Match blocks,
 * `Host *` defaults at the top and bottom, comments, CRLF and no final newline. A malformed block
 * must be refused with the reason and the file left exactly as it was.
 */
import * as assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConfigError } from '../../src/config/errors';
import {
  addIncludeLine,
  BLOCK_BEGIN,
  BLOCK_END,
  editBlockFile,
  editBlockText,
  editOwnHostsFile,
  editOwnHostsText,
  ensureInclude,
  INCLUDE_LINE,
  includeState,
  readBlock,
  readIncludeState,
  removeInclude,
  removeIncludeLine,
  sshPaths,
} from '../../src/config/sshConfig';
import {
  editHostsLines,
  hostAlias,
  listClusterHosts,
  renderClusterHosts,
  sanitizeAliasPart,
  sshPath,
  type SshHost,
} from '../../src/config/sshHosts';

const HOME = '/home/me';

function hosts(
  clusterId: string,
  clusterName: string,
  ips: string[],
  overrides: Partial<SshHost> = {},
): SshHost[] {
  return ips.map((hostName, i) => ({
    alias: hostAlias(clusterName, i + 1),
    hostName,
    user: 'ubuntu',
    port: 22,
    identityFile: `${HOME}/.ssh/id_ed25519`,
    clusterId,
    clusterName,
    ...overrides,
  }));
}

const TRAIN = hosts('c-train', 'Train A', ['203.0.113.10', '203.0.113.11']);
const EVAL = hosts('c-eval', 'eval', ['198.51.100.7']);
const set = (h: SshHost[]) => ({ kind: 'set' as const, clusterId: h[0].clusterId, hosts: h });

function entry(alias: string, ip: string, clusterId: string): string[] {
  return [
    `Host ${alias}`,
    `    HostName ${ip}`,
    '    User ubuntu',
    '    Port 22',
    '    IdentityFile ~/.ssh/id_ed25519',
    '    IdentitiesOnly yes',
    '    StrictHostKeyChecking accept-new',
    '    UserKnownHostsFile ~/.ssh/tensorpool/known_hosts',
    `    HostKeyAlias ${alias}.${clusterId}`,
  ];
}
const TRAIN_LINES = [
  '# TensorPool cluster c-train (Train A)',
  ...entry('tp-train-a-1', '203.0.113.10', 'c-train'),
  ...entry('tp-train-a-2', '203.0.113.11', 'c-train'),
];
const EVAL_LINES = ['# TensorPool cluster c-eval (eval)', ...entry('tp-eval-1', '198.51.100.7', 'c-eval')];

describe('ssh host entries', () => {
  it('aliases are tp-<sanitised name>-<node>', () => {
    assert.equal(hostAlias('Train A', 1), 'tp-train-a-1');
    assert.equal(hostAlias('Run_2.b', 3), 'tp-run-2-b-3');
    assert.equal(hostAlias('Überjob', 1), 'tp-uberjob-1');
    assert.equal(hostAlias('---', 2), 'tp-cluster-2');
    assert.equal(sanitizeAliasPart('x'.repeat(100)).length, 40);
    assert.throws(() => hostAlias('a', 0), /whole number from 1/);
  });

  it('render HostName, User, Port, IdentityFile, our known_hosts and a per-cluster HostKeyAlias', () => {
    assert.deepEqual(renderClusterHosts(TRAIN, { home: HOME }), TRAIN_LINES);
    const agent = renderClusterHosts(
      hosts('c-1', 'x', ['10.0.0.1'], { identityFile: undefined, port: undefined }),
    );
    assert.ok(!agent.some((l) => /IdentityFile|IdentitiesOnly/.test(l)) && agent.includes('    Port 22'));
  });

  it('write key paths the way ssh_config reads them', () => {
    assert.equal(sshPath(`${HOME}/.ssh/id`, HOME), '~/.ssh/id');
    assert.equal(sshPath('/keys/my key'), '"/keys/my key"');
    assert.equal(sshPath('C:\\Users\\me\\.ssh\\id_ed25519'), 'C:/Users/me/.ssh/id_ed25519');
    assert.equal(sshPath('/keys/100%'), '/keys/100%%');
    assert.throws(
      () => sshPath('/keys/"x"'),
      (e: ConfigError) => e.code === 'invalid-value',
    );
  });

  it('refuse values that would inject directives', () => {
    const bad: Array<[Partial<SshHost>, RegExp]> = [
      [{ alias: 'tp-*' }, /alias/],
      [{ alias: 'a b' }, /alias/],
      [{ hostName: '1.2.3.4\n  ProxyCommand x' }, /address/],
      [{ hostName: '-F' }, /address/],
      [{ hostName: '1.2.3.999' }, /address/],
      [{ hostName: 'fe80::1%eth0' }, /address/],
      [{ user: 'root # x' }, /user/],
      [{ port: 0 }, /port/],
      [{ port: 1.5 }, /port/],
      [{ clusterId: 'c 1' }, /cluster id/],
      [{ identityFile: '/k\nProxyCommand x' }, /line break/],
    ];
    for (const [o, re] of bad)
      assert.throws(
        () => renderClusterHosts(hosts(o.clusterId ?? 'c-1', 'x', ['10.0.0.1'], o)),
        re,
        JSON.stringify(o),
      );
  });

  it("edit one cluster's hosts, keeping the others; refuse an alias another cluster uses", () => {
    let lines = editHostsLines([], set(TRAIN), { home: HOME });
    lines = editHostsLines(lines, set(EVAL), { home: HOME });
    assert.deepEqual(lines, [...TRAIN_LINES, '', ...EVAL_LINES]);
    const moved = editHostsLines(lines, set(hosts('c-train', 'Train A', ['203.0.113.99'])), { home: HOME });
    assert.deepEqual(moved, [
      ...TRAIN_LINES.slice(0, 1),
      ...entry('tp-train-a-1', '203.0.113.99', 'c-train'),
      '',
      ...EVAL_LINES,
    ]);
    assert.deepEqual(listClusterHosts(moved), [
      { clusterId: 'c-train', aliases: ['tp-train-a-1'] },
      { clusterId: 'c-eval', aliases: ['tp-eval-1'] },
    ]);
    assert.deepEqual(editHostsLines(lines, { kind: 'remove', clusterId: 'c-train' }), EVAL_LINES);
    assert.deepEqual(editHostsLines(lines, { kind: 'prune', keep: ['c-eval', 'c-gone'] }), EVAL_LINES);
    assert.deepEqual(editHostsLines(lines, { kind: 'set', clusterId: 'c-eval', hosts: [] }), TRAIN_LINES);
    assert.throws(
      () => editHostsLines(lines, set(hosts('c-new', 'Train A', ['10.0.0.1']))),
      (e: ConfigError) =>
        e.code === 'alias-taken' && /tp-train-a-1 already belongs to cluster c-train/.test(e.message),
    );
  });
});

describe('the Include line in ~/.ssh/config', () => {
  const USER =
    '# my config\nHost *\n    ServerAliveInterval 30\n\nMatch host *.corp exec "true"\n    ProxyJump bastion\n\nHost github.com\n    User git\n\nHost *\n    ForwardAgent no\n';

  it('goes on the very first line, before comments and Host * defaults; every other byte stays', () => {
    assert.equal(ensureInclude(USER), `${INCLUDE_LINE}\n${USER}`);
    assert.equal(ensureInclude(''), `${INCLUDE_LINE}\n`);
    assert.equal(
      ensureInclude(USER.replace(/\n/g, '\r\n')),
      `${INCLUDE_LINE}\r\n${USER.replace(/\n/g, '\r\n')}`,
    );
    assert.equal(ensureInclude('Host a\n  User b'), `${INCLUDE_LINE}\nHost a\n  User b`);
    assert.equal(ensureInclude('\uFEFFHost a\n'), `\uFEFF${INCLUDE_LINE}\nHost a\n`);
  });

  it('is detected in any case and spacing, relative or absolute, and not added twice', () => {
    for (const line of [
      'include ~/.ssh/tensorpool/config',
      'INCLUDE=tensorpool/config',
      '  Include   "~/.ssh/tensorpool/config"',
      `Include ${HOME}/.ssh/tensorpool/config`,
      'Include ./tensorpool/config',
    ]) {
      const text = `# top\n${line}\nHost x\n`;
      assert.equal(includeState(text, HOME), 'global', line);
      assert.equal(ensureInclude(text, HOME), text, line);
    }
    assert.equal(includeState(`${INCLUDE_LINE}\n`), 'global');
    assert.equal(ensureInclude(ensureInclude(USER)), ensureInclude(USER));
  });

  it('one inside a Host or Match section applies only there, so ours still goes on top', () => {
    const scoped = 'Host *.corp\n  Include ~/.ssh/tensorpool/config\n';
    assert.equal(includeState(scoped), 'scoped');
    assert.equal(ensureInclude(scoped), `${INCLUDE_LINE}\n${scoped}`);
    assert.equal(removeInclude(ensureInclude(scoped)), scoped);
  });

  it("an Include of other files, or of ours among others, is the user's", () => {
    assert.equal(includeState('Include ~/.ssh/config.d/*\n'), 'absent');
    assert.equal(includeState('Include ~/.ssh/tensorpool/config ~/.ssh/other\n'), 'absent');
    assert.equal(
      removeInclude('Include ~/.ssh/tensorpool/config ~/.ssh/other\n'),
      'Include ~/.ssh/tensorpool/config ~/.ssh/other\n',
    );
  });

  it('removing it gives the file back byte for byte', () => {
    for (const text of [USER, USER.replace(/\n/g, '\r\n'), 'Host a', '', '\uFEFF# c\n'])
      assert.equal(removeInclude(ensureInclude(text)), text);
  });
});

describe('the marked block in ~/.ssh/config', () => {
  const block = (...body: string[][]): string[] => [
    BLOCK_BEGIN,
    ...body.flatMap((b, i) => (i ? ['', ...b] : b)),
    BLOCK_END,
  ];

  it('is appended at the end, after an unterminated Match section, and removed again byte for byte', () => {
    const user = 'Host *\n  ServerAliveInterval 30\n\nMatch host *.corp\n  ProxyJump bastion';
    const withTrain = editBlockText(user, set(TRAIN), { home: HOME });
    assert.equal(withTrain, `${user}\n\n${block(TRAIN_LINES).join('\n')}`);
    assert.equal(editBlockText(withTrain, { kind: 'remove', clusterId: 'c-train' }), user);
  });

  it("uses the file's CRLF line endings", () => {
    const user = '# c\r\nHost a\r\n  User b\r\n';
    assert.equal(
      editBlockText(user, set(EVAL), { home: HOME }),
      `${user}\r\n${block(EVAL_LINES).join('\r\n')}\r\n`,
    );
  });

  it('changes only what is between the markers, wherever the user moved the block', () => {
    const before = 'Host *\n  User me\n\n';
    const after = '\n# mine\nHost box\n  HostName 192.0.2.1\n';
    const text = `${before}${block(TRAIN_LINES, EVAL_LINES).join('\n')}\n${after}`;
    const moved = editBlockText(text, set(hosts('c-train', 'Train A', ['203.0.113.99'])), { home: HOME });
    assert.equal(
      moved,
      `${before}${block([TRAIN_LINES[0], ...entry('tp-train-a-1', '203.0.113.99', 'c-train')], EVAL_LINES).join('\n')}\n${after}`,
    );
    assert.equal(
      editBlockText(text, set(TRAIN), { home: HOME }),
      text,
      'unchanged hosts leave the file as it is',
    );
    assert.equal(
      editBlockText(text, { kind: 'prune', keep: ['c-eval'] }),
      `${before}${block(EVAL_LINES).join('\n')}\n${after}`,
    );
    assert.equal(editBlockText(text, { kind: 'prune', keep: [] }), `${before}${after}`);
    assert.deepEqual(readBlock(text), [...TRAIN_LINES, '', ...EVAL_LINES]);
  });

  const malformed: Array<[string, string, RegExp]> = [
    [
      'begin twice',
      `${BLOCK_BEGIN}\n${BLOCK_END}\n${BLOCK_BEGIN}\n${BLOCK_END}\n`,
      /begin marker appears 2 times \(lines 1 and 3\)/,
    ],
    [
      'begin without end',
      `Host a\n${BLOCK_BEGIN}\nHost tp-x-1\n`,
      /begin marker on line 2 has no end marker/,
    ],
    [
      'end before begin',
      `${BLOCK_END}\nHost a\n${BLOCK_BEGIN}\n`,
      /end marker \(line 1\) comes before the begin marker \(line 3\)/,
    ],
    ['end without begin', `Host a\n${BLOCK_END}\n`, /end marker on line 2 has no begin marker/],
    ['end twice', `${BLOCK_BEGIN}\n${BLOCK_END}\n${BLOCK_END}\n`, /end marker appears 2 times/],
    [
      'edited marker text, still duplicated',
      `# >>> TensorPool hosts\n${BLOCK_BEGIN}\n${BLOCK_END}\n`,
      /begin marker appears 2 times/,
    ],
  ];
  for (const [name, text, reason] of malformed) {
    it(`refuses a malformed block (${name}) with the reason`, () => {
      assert.throws(
        () => editBlockText(text, set(TRAIN)),
        (e: ConfigError) =>
          e.code === 'malformed-block' && reason.test(e.message) && /changes nothing/.test(e.message),
      );
    });
  }
});

describe('our own hosts file', () => {
  it('starts with a header and holds clusters one after another', () => {
    const text = editOwnHostsText(undefined, set(TRAIN), { home: HOME });
    assert.match(
      text,
      /^# TensorPool SSH hosts.*\n.*\n.*\n\n# TensorPool cluster c-train \(Train A\)\nHost tp-train-a-1\n/,
    );
    const both = editOwnHostsText(text, set(EVAL), { home: HOME });
    assert.ok(both.endsWith(`\n\n${EVAL_LINES.join('\n')}\n`));
    assert.equal(editOwnHostsText(both, { kind: 'remove', clusterId: 'c-eval' }), text);
    assert.equal(editOwnHostsText(undefined, { kind: 'prune', keep: [] }), '', 'nothing to create');
  });
});

describe('ssh files on disk', () => {
  let dir: string;
  let home: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tp-config-ssh-'));
    home = join(dir, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const posix = process.platform !== 'win32';

  it("include mode: our file and known_hosts 0600 in a 0700 directory; the user's config keeps its mode", async () => {
    const paths = sshPaths(home);
    writeFileSync(paths.userConfig, 'Host *\n  User me\n');
    chmodSync(paths.userConfig, 0o644);
    await editOwnHostsFile(paths, set(TRAIN), { home });
    assert.equal(await readIncludeState(paths, home), 'absent');
    await addIncludeLine(paths, home);
    assert.equal(readFileSync(paths.userConfig, 'utf8'), `${INCLUDE_LINE}\nHost *\n  User me\n`);
    assert.equal(await readIncludeState(paths, home), 'global');
    assert.equal((await addIncludeLine(paths, home)).changed, false);
    if (posix) {
      assert.equal(statSync(paths.userConfig).mode & 0o777, 0o644);
      assert.equal(statSync(paths.dir).mode & 0o777, 0o700);
      assert.equal(statSync(paths.hostsFile).mode & 0o777, 0o600);
      assert.equal(statSync(paths.knownHosts).mode & 0o777, 0o600);
    }
    await editOwnHostsFile(paths, { kind: 'prune', keep: [] });
    assert.doesNotMatch(readFileSync(paths.hostsFile, 'utf8'), /^Host /m);
    await removeIncludeLine(paths, home);
    assert.equal(readFileSync(paths.userConfig, 'utf8'), 'Host *\n  User me\n');
  });

  it('removing hosts where there are none creates nothing', async () => {
    const paths = sshPaths(home);
    assert.equal((await editOwnHostsFile(paths, { kind: 'remove', clusterId: 'c-1' })).changed, false);
    assert.equal((await editBlockFile(paths, { kind: 'prune', keep: [] })).changed, false);
    assert.deepEqual(readdirSync(join(home, '.ssh')), []);
  });

  it('block mode: a missing ~/.ssh/config is created 0600 and a malformed one is left exactly as it was', async () => {
    const paths = sshPaths(home);
    await editBlockFile(paths, set(EVAL), { home: HOME });
    assert.equal(readFileSync(paths.userConfig, 'utf8'), `${block(EVAL_LINES)}\n`);
    if (posix) assert.equal(statSync(paths.userConfig).mode & 0o777, 0o600);
    const broken = `Host a\r\n${BLOCK_BEGIN}\r\nHost tp-x-1\r\n  HostName 10.0.0.1`;
    writeFileSync(paths.userConfig, broken);
    await assert.rejects(
      editBlockFile(paths, set(TRAIN), { home: HOME }),
      (e: ConfigError) => e.code === 'malformed-block' && e.message.startsWith(paths.userConfig),
    );
    assert.equal(readFileSync(paths.userConfig, 'utf8'), broken);
    assert.deepEqual(readdirSync(join(home, '.ssh')).sort(), ['config', 'tensorpool']);
  });

  function block(lines: string[]): string {
    return [BLOCK_BEGIN, ...lines, BLOCK_END].join('\n');
  }
});
