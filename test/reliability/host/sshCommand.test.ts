// Hostile answers to GET /ssh/{instance_id} in the real extension host: Open SSH Terminal never starts
// what the service sent unless it is a plain ssh to the node. Each hostile command would write a marker
// file (shown to work by running a few of them directly first); after the terminal has started, no
// marker exists, the terminal runs the ssh the extension builds (the node's address, port and user, our
// known_hosts), and the user
// was told why the service's command was not used (a warning and the log). With no address to build
// from, the service's text is shown in full and run only if the user agrees (without a shell), never
// in an untrusted workspace. Every terminal a test opens is closed.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import type { ClusterNode } from '../../../src/vscode/clusters/clustersTree';
import { hostAlias } from '../../../src/config/sshHosts';
import { formatCommand } from '../../../src/model/sshCommand';
import { ESCAPE, ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { freshAccount } from './common';
import * as spy from './spy';
import { clusterRows, control, sleep } from './util';

type InstanceNode = Extract<ClusterNode, { kind: 'instance' }>;

suite('Reliability: hostile ssh commands from the service', () => {
  let ext: TensorPoolExtensionApi;
  let node: InstanceNode;
  let ip: string;
  let scratch: string;
  const opened: vscode.Terminal[] = [];

  const marker = (name: string) => path.join(scratch, name);
  const write = (name: string) => `sh -c 'echo pwned > ${marker(name)}'`;

  suiteSetup(async () => {
    ext = await freshAccount();
    const cluster = (await clusterRows(ext)).find((r) => r.node.kind === 'cluster')!.node;
    node = (await clusterRows(ext, cluster)).find((r) => r.node.kind === 'instance')!.node as InstanceNode;
    assert.ok(node.instance.ip, 'the seeded node has an address');
    ip = node.instance.ip;
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tp-ssh-hostile-'));
    ext.testing.configure({ home: () => scratch, isTrusted: () => true });
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
    for (const t of opened.splice(0)) t.dispose();
  });
  suiteTeardown(() => {
    ext.testing.configure({});
    rmSync(scratch, { recursive: true, force: true });
  });

  /** GET /ssh/* answers `command` until the faults are cleared. */
  const answer = (command: string) =>
    control.fault({ method: 'GET', path: '/ssh/*', times: -1, status: 200, body: { command } });

  /** Open SSH Terminal on `target`; once its process has started (and had time to write), the terminal. */
  async function openTerminal(target: unknown = node): Promise<vscode.Terminal | undefined> {
    const terminal = await vscode.commands.executeCommand<vscode.Terminal | undefined>(
      'tensorpool.openSshTerminal',
      target,
    );
    if (terminal) {
      opened.push(terminal);
      await Promise.race([terminal.processId, sleep(5000)]);
      await sleep(800);
    }
    return terminal;
  }

  /** The ssh the extension builds for the node: its port and user (a real node's, else the settings'
   *  ubuntu on 22), our known_hosts with accept-new, the key stored under the entry's alias. */
  const builtArgv = () => {
    const { sshPort, sshUser } = node.instance;
    const alias = hostAlias(node.cluster.name ?? node.cluster.id, 1);
    return [
      'ssh',
      ...(sshPort && sshPort !== 22 ? ['-p', String(sshPort)] : []),
      '-o',
      `UserKnownHostsFile=${path.join(scratch, '.ssh', 'tensorpool', 'known_hosts')}`,
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `HostKeyAlias=${alias}.${node.cluster.id}`,
      `${sshUser ?? 'ubuntu'}@${ip}`,
    ];
  };
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  const argvOf = (t: vscode.Terminal) => {
    const o = t.creationOptions as vscode.TerminalOptions;
    return [o.shellPath, ...((o.shellArgs as string[] | undefined) ?? [])];
  };

  test('the markers work: run directly, the hostile commands do write them', () => {
    const run = (argv: string[]) => spawnSync(argv[0], argv.slice(1), { timeout: 15_000, stdio: 'ignore' });
    run(['sh', '-c', `echo pwned > ${marker('control-sh')}`]);
    const proxy = `sh -c 'echo pwned > ${marker('control-proxy')}'`;
    run(['ssh', '-o', `ProxyCommand=${proxy}`, '-o', 'BatchMode=yes', `ubuntu@${ip}`]);
    writeFileSync(marker('control-config'), `Host *\n  ProxyCommand ${write('control-F')}\n`);
    run(['ssh', '-F', marker('control-config'), '-o', 'BatchMode=yes', `ubuntu@${ip}`]);
    run(['ssh', '-E', marker('control-E'), '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=1', `ubuntu@${ip}`]);
    for (const m of ['control-sh', 'control-proxy', 'control-F', 'control-E'])
      assert.ok(existsSync(marker(m)), `${m} was written`);
  });

  /** [name, the service's answer (may mention the marker), what the user is told]. */
  const HOSTILE: Array<[string, (m: string) => string, RegExp]> = [
    ['another program', (m) => write(m), /it runs "sh", not ssh/],
    ['ProxyCommand', (m) => `ssh -o ProxyCommand="${write(m)}" ubuntu@${ip}`, /ProxyCommand/],
    [
      'LocalCommand with PermitLocalCommand',
      (m) => `ssh -o PermitLocalCommand=yes -o LocalCommand="${write(m)}" ubuntu@${ip}`,
      /PermitLocalCommand/,
    ],
    ['KnownHostsCommand', (m) => `ssh -o KnownHostsCommand="${write(m)}" ubuntu@${ip}`, /KnownHostsCommand/],
    [
      '-F',
      (m) => {
        writeFileSync(marker(`${m}.config`), `Host *\n  ProxyCommand ${write(m)}\n`);
        return `ssh -F ${marker(`${m}.config`)} ubuntu@${ip}`;
      },
      /-F, which reads another ssh configuration file/,
    ],
    ['-E', (m) => `ssh -E ${marker(m)} ubuntu@${ip}`, /-E, which writes a log/],
    ['-S', (m) => `ssh -S ${marker(m)} -M ubuntu@${ip}`, /-S, which shares connections/],
    ['ProxyJump', () => `ssh -o ProxyJump=jump.example.com ubuntu@${ip}`, /ProxyJump/],
    ['-J', () => `ssh -J jump.example.com ubuntu@${ip}`, /-J, which connects through another host/],
    ['shell metacharacters', (m) => `ssh ubuntu@${ip}; echo pwned > ${marker(m)}`, /after the destination/],
    ['$(…) in a value', (m) => `ssh -i $(touch${'${IFS}'}${marker(m)}) ubuntu@${ip}`, /contains \$/],
    ['a line break and a second command', (m) => `ssh ubuntu@${ip}\necho pwned > ${marker(m)}`, /line break/],
    [
      'an absurdly long answer',
      (m) => `ssh ${'-v '.repeat(50_000)}ubuntu@${ip} ${write(m)}`,
      /characters long/,
    ],
    ['another host', () => `ssh ubuntu@evil.example.com`, /not to the node's address/],
  ];

  for (const [name, hostile, reason] of HOSTILE) {
    test(`${name}: not run; the terminal runs the ssh the extension built, and the user is told why`, async () => {
      const m = `marker-${name.replace(/[^a-z]+/gi, '-')}`;
      await answer(hostile(m));
      const mark = spy.notifications.length;
      const logMark = ext.testing.logTail.length;
      const terminal = await openTerminal();
      assert.ok(terminal, 'a terminal opened');
      assert.ok(!existsSync(marker(m)), `${m} was not written`);
      assert.deepEqual(argvOf(terminal), builtArgv(), 'plain ssh to the node, built by the extension');
      const told = spy.since(mark).find((n) => /did not use the service's SSH command/.test(n.message));
      assert.ok(told, `a warning: ${JSON.stringify(spy.since(mark))}`);
      assert.equal(told.severity, 'warning');
      assert.match(told.message, reason);
      assert.match(told.message, new RegExp(`It uses ${escaped(formatCommand(builtArgv()))}, built`));
      assert.ok(told.message.length < 600, 'the warning stays short');
      const logged = ext.testing.logTail.slice(logMark).join('\n');
      assert.match(logged, /The ssh command the service sent for \S+ was not used/);
      assert.match(logged, reason);
    });
  }

  test('a link in the refused command is inert in the warning that quotes it', async () => {
    await answer(`[Run](command:workbench.action.terminal.new) ubuntu@${ip}`);
    const mark = spy.notifications.length;
    const terminal = await openTerminal();
    assert.ok(terminal);
    const told = spy.since(mark).find((n) => /did not use the service's SSH command/.test(n.message));
    assert.ok(told, JSON.stringify(spy.since(mark)));
    assert.ok(told.message.includes('[Run] (command:workbench.action.terminal.new)'), told.message);
    assert.ok(!told.message.includes(']('), `no link: ${told.message}`);
  });

  test("the engine's plain answer is checked; the terminal runs the extension's own ssh to the same node", async () => {
    await control.clearFaults();
    const mark = spy.notifications.length;
    const terminal = await openTerminal();
    assert.ok(terminal);
    assert.deepEqual(argvOf(terminal), builtArgv());
    assert.equal(
      spy.since(mark).filter((n) => /SSH command/.test(n.message)).length,
      0,
      'nothing to warn about',
    );
  });

  /** The node without an address (as a listing that lacks it would give): nothing to build from. */
  const noAddress = () => ({ ...node, instance: { ...node.instance, ip: undefined } });

  test('no address: the whole text is shown (nothing hidden after a line break), asked about, not run when declined', async () => {
    const m = 'marker-asked';
    const text = `ssh -o ProxyCommand="${write(m)}" ubuntu@${ip}`;
    await answer(text);
    const p = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(p);
    assert.equal(await openTerminal(noAddress()), undefined, 'declined: no terminal');
    assert.equal(p.shown.length, 1);
    assert.match(p.shown[0].message ?? '', /not one TensorPool can check/);
    assert.ok(p.shown[0].detail?.includes(text), p.shown[0].detail);
    assert.match(p.shown[0].detail ?? '', /ProxyCommand, which runs a local command/);
    assert.deepEqual(p.shown[0].items, ['Run in Terminal', 'Copy Command']);
    await sleep(800);
    assert.ok(!existsSync(marker(m)));

    const twoLines = `ssh ubuntu@${ip}\necho pwned > ${marker(m)}`;
    await control.clearFaults();
    await answer(twoLines);
    const q = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(q);
    assert.equal(await openTerminal(noAddress()), undefined);
    assert.ok(q.shown[0].detail?.includes(twoLines), 'both lines are shown');
    assert.deepEqual(q.shown[0].items, ['Copy Command'], 'a command of several lines is never run');
    assert.ok(!existsSync(marker(m)));
  });

  test('no address, untrusted workspace: never offered to run', async () => {
    ext.testing.configure({ home: () => scratch, isTrusted: () => false });
    try {
      await answer(`ssh -J jump.example.com ubuntu@${ip}`);
      const p = new ScriptedPrompter([ESCAPE]);
      ext.setPrompter(p);
      assert.equal(await openTerminal(noAddress()), undefined);
      assert.deepEqual(p.shown[0].items, ['Copy Command']);
      assert.match(p.shown[0].detail ?? '', /not trusted/);
    } finally {
      ext.testing.configure({ home: () => scratch, isTrusted: () => true });
    }
  });

  test('no address, the user agrees: it runs as one program with its arguments, no shell', async () => {
    await answer(`ssh -J jump.example.com ubuntu@${ip}`);
    ext.setPrompter(new ScriptedPrompter(['Run in Terminal']));
    const terminal = await openTerminal(noAddress());
    assert.ok(terminal);
    assert.deepEqual(argvOf(terminal), ['ssh', '-J', 'jump.example.com', `ubuntu@${ip}`]);
    assert.ok(
      ext.testing.logTail.some((l) => /Running the unchecked ssh command .* the user agreed/.test(l)),
    );
  });

  test("no address, a command the allow-list accepts: asked first, naming its host; declined, nothing runs; agreed, the extension's checking goes first", async () => {
    // Before: with no address to hold the destination to, this started a terminal at once, to whatever
    // host it named, with host key checking off (the marker: a terminal that opened without a question).
    await answer(`ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null ubuntu@${ip}`);
    const p = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(p);
    const terminalsBefore = vscode.window.terminals.length;
    assert.equal(await openTerminal(noAddress()), undefined, 'declined: no terminal');
    assert.equal(vscode.window.terminals.length, terminalsBefore, 'nothing started without an answer');
    assert.equal(p.shown.length, 1, 'asked once');
    assert.match(
      p.shown[0].message ?? '',
      new RegExp(`did not give the address .* connects to ${escaped(ip)}`),
    );
    assert.deepEqual(p.shown[0].items, ['Run in Terminal', 'Copy Command']);
    const ours = [
      '-o',
      `UserKnownHostsFile=${path.join(scratch, '.ssh', 'tensorpool', 'known_hosts')}`,
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `HostKeyAlias=${hostAlias(node.cluster.name ?? node.cluster.id, 1)}.${node.cluster.id}`,
      '-o',
      'PasswordAuthentication=no',
      '-o',
      'KbdInteractiveAuthentication=no',
    ];
    const expected = [
      'ssh',
      ...ours,
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      `ubuntu@${ip}`,
    ];
    assert.ok(p.shown[0].detail?.includes(formatCommand(expected)), p.shown[0].detail);

    // A known_hosts of the service's choosing is refused outright, even when asked about.
    await control.clearFaults();
    await answer(`ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=~/.ssh/known_hosts ubuntu@${ip}`);
    const q = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(q);
    assert.equal(await openTerminal(noAddress()), undefined);
    assert.match(q.shown[0].detail ?? '', /UserKnownHostsFile/);

    await control.clearFaults();
    await answer(`ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null ubuntu@${ip}`);
    ext.setPrompter(new ScriptedPrompter(['Run in Terminal']));
    const terminal = await openTerminal(noAddress());
    assert.ok(terminal, 'agreed: a terminal');
    assert.deepEqual(argvOf(terminal), expected, 'what runs is what was shown');
  });

  test('a cluster id that is not one plain word never reaches an ssh argument (HostKeyAlias)', async () => {
    const m = 'marker-cluster-id';
    await control.clearFaults();
    const hostile = {
      ...node,
      cluster: { ...node.cluster, id: `c-1\nProxyCommand ${write(m)}` },
    };
    const mark = spy.notifications.length;
    const terminalsBefore = vscode.window.terminals.length;
    assert.equal(await openTerminal(hostile), undefined, 'no terminal');
    assert.equal(vscode.window.terminals.length, terminalsBefore);
    assert.ok(!existsSync(marker(m)), `${m} was not written`);
    const told = spy.since(mark).find((n) => /cannot connect to node/.test(n.message));
    assert.ok(told, `told why: ${JSON.stringify(spy.since(mark))}`);
    assert.match(told.message, /cluster id may only contain/);
  });

  test('no address and too long to show: not asked, not run, the user is told why', async () => {
    await answer(`ssh ${'-v '.repeat(50_000)}ubuntu@${ip}`);
    const p = new ScriptedPrompter([]);
    ext.setPrompter(p);
    const mark = spy.notifications.length;
    assert.equal(await openTerminal(noAddress()), undefined);
    assert.equal(p.shown.length, 0, 'nothing asked');
    assert.ok(spy.since(mark).some((n) => n.severity === 'warning' && /characters long/.test(n.message)));
  });
});
