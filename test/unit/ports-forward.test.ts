/**
 * Ports on a node, the pure pieces (src/model/portForward.ts): what a typed port means and why it is
 * refused, which local port a forward takes, the ssh argv of a tunnel and of the remote checks (the
 * real ssh parses it: `ssh -G`), the Jupyter server list and its signed-in address.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chooseLocalPort,
  COMMON_PORTS,
  jupyterPath,
  localBindFailed,
  localUrl,
  parseJupyterServers,
  parsePortText,
  probeCommand,
  probeStatus,
  remoteArgv,
  shellWord,
  tensorboardCommand,
  tunnelArgv,
  validatePortText,
  type NodeSsh,
} from '../../src/model/portForward';

const node: NodeSsh = {
  user: 'root',
  host: '127.0.0.1',
  port: 40222,
  identity: '/tmp/k ey',
  knownHosts: '~/.ssh/tensorpool/known_hosts',
  hostKeyAlias: 'tp-train-1.c-1',
};

describe('ports on a node: typed ports', () => {
  it('reads a port, and LOCAL:REMOTE as an exact local port', () => {
    assert.deepEqual(parsePortText('6006'), { remote: 6006 });
    assert.deepEqual(parsePortText(' 8888 '), { remote: 8888 });
    assert.deepEqual(parsePortText('16006:6006'), { remote: 6006, local: 16006 });
    assert.deepEqual(parsePortText('1:65535'), { remote: 65535, local: 1 });
  });

  it('refuses what is not a port, before anything runs, with a sentence saying why', () => {
    for (const bad of [
      '',
      '  ',
      '0',
      '65536',
      '99999',
      '-1',
      '80.5',
      'abc',
      '6006;id',
      '$(id)',
      '1:2:3',
      '0:80',
      '80:0',
      '1e3',
    ])
      assert.equal(parsePortText(bad), undefined, bad);
    assert.match(validatePortText('')!, /Enter the port/);
    assert.match(validatePortText('65536')!, /65536 is not a port/);
    assert.match(validatePortText('0:80')!, /0 is not a port/);
    assert.match(validatePortText('6006;id')!, /LOCAL:REMOTE/);
    assert.equal(validatePortText('8000'), undefined);
  });

  it('offers the usual ports of ML tools', () => {
    assert.deepEqual(
      COMMON_PORTS.map((p) => p.port),
      [6006, 8888, 7860, 8501, 8000],
    );
  });
});

describe('ports on a node: the local port', () => {
  const free = (set: number[]) => async (p: number) => !set.includes(p);
  const any = async () => 51234;

  it('takes the same number when it is free here', async () => {
    assert.deepEqual(await chooseLocalPort({ remote: 6006 }, free([]), any), { port: 6006, same: true });
  });
  it('takes another free port when the number is in use here, and says it is not the same', async () => {
    assert.deepEqual(await chooseLocalPort({ remote: 6006 }, free([6006]), any), {
      port: 51234,
      same: false,
    });
  });
  it('an exact local port the user asked for is used or reported taken, never replaced', async () => {
    assert.deepEqual(await chooseLocalPort({ remote: 6006, local: 7000 }, free([]), any), {
      port: 7000,
      same: false,
    });
    assert.deepEqual(await chooseLocalPort({ remote: 6006, local: 7000 }, free([7000]), any), {
      taken: 7000,
    });
  });
  it('tells a local port taken before ssh could listen from other tunnel failures', () => {
    // OpenSSH 9's stderr when the -L port is held by another program (ExitOnForwardFailure=yes).
    const taken =
      "Warning: Permanently added '[127.0.0.1]:42222' (ED25519) to the list of known hosts.\n" +
      'bind [127.0.0.1]:55789: Address already in use\n' +
      'channel_setup_fwd_listener_tcpip: cannot listen to port: 55789\n' +
      'Could not request local forwarding.\n';
    assert.equal(localBindFailed(taken), true);
    assert.equal(localBindFailed('channel_setup_fwd_listener_tcpip: cannot listen to port: 8080'), true);
    for (const other of [
      'user@127.0.0.1: Permission denied (publickey).',
      'ssh: connect to host 127.0.0.1 port 42222: Connection refused',
      'channel 2: open failed: connect failed: Connection refused',
      'exit 255',
      'timed out',
    ])
      assert.equal(localBindFailed(other), false, other);
  });
});

describe('ports on a node: ssh command lines', () => {
  it('a tunnel: -N -L on loopback both sides, ExitOnForwardFailure and BatchMode, the node login last', () => {
    const argv = tunnelArgv(node, 16006, 6006);
    assert.equal(argv[0], 'ssh');
    assert.equal(argv.at(-1), 'root@127.0.0.1');
    const joined = argv.join(' ');
    assert.match(joined, /-N -L 127\.0\.0\.1:16006:127\.0\.0\.1:6006 /);
    for (const o of [
      'ExitOnForwardFailure=yes',
      'BatchMode=yes',
      'HostKeyAlias=tp-train-1.c-1',
      'PermitLocalCommand=yes',
      'LocalCommand=echo tp-tunnel-ready',
    ])
      assert.ok(argv.includes(o), o);
    assert.deepEqual(argv.slice(1, 5), ['-p', '40222', '-i', '/tmp/k ey']);
  });

  it('OpenSSH reads the tunnel as meant (ssh -G)', function () {
    let out: string;
    try {
      out = execFileSync(
        tunnelArgv(node, 16006, 6006)[0],
        ['-G', ...tunnelArgv(node, 16006, 6006).slice(1)],
        {
          encoding: 'utf8',
        },
      );
    } catch {
      this.skip();
      return;
    }
    assert.match(out, /^localforward \[?127\.0\.0\.1\]?:16006 \[?127\.0\.0\.1\]?:6006$/m);
    assert.match(out, /^exitonforwardfailure yes$/m);
    assert.match(out, /^permitlocalcommand yes$/m);
    assert.match(out, /^localcommand echo tp-tunnel-ready$/m);
    assert.match(out, /^batchmode yes$/m);
    assert.match(out, /^port 40222$/m);
    assert.match(out, /^user root$/m);
  });

  it('a remote check is one argument after the destination; the probe prints a marker ssh failures lack', () => {
    const argv = remoteArgv(node, probeCommand(6006));
    assert.equal(argv.at(-2), 'root@127.0.0.1');
    assert.equal(argv.at(-1), "bash -c 'exec 3<>/dev/tcp/127.0.0.1/6006' 2>/dev/null; echo tp-probe:$?");
    assert.throws(() => probeCommand(70000));
    assert.equal(probeStatus('tp-probe:0\n'), 0);
    assert.equal(probeStatus('{"port": 1}\ntp-probe:127\n'), 127);
    assert.equal(probeStatus('ssh: connect to host 127.0.0.1 port 1: Connection refused'), undefined);
    assert.equal(probeStatus(''), undefined);
  });

  it('a log folder reaches the node shell as one word', () => {
    assert.equal(shellWord('runs'), 'runs');
    assert.equal(shellWord('jobs/j-1'), 'jobs/j-1');
    assert.equal(shellWord("my runs/it's"), `'my runs/it'\\''s'`);
    assert.equal(shellWord('~/my runs'), `~/'my runs'`);
    assert.equal(shellWord('$(rm -rf ~)'), `'$(rm -rf ~)'`);
    assert.equal(tensorboardCommand('a b'), "tensorboard --logdir 'a b' --host 127.0.0.1 --port 6006");
  });
});

describe('ports on a node: Jupyter', () => {
  it('reads `jupyter server list --json` (a line each, or an array), ignoring other lines', () => {
    const out = [
      '[W 2024] some warning',
      JSON.stringify({ port: 8889, token: 'abc123abc123', base_url: '/', url: 'http://localhost:8889/' }),
      JSON.stringify({ port: 8888, token: 'tok', base_url: '/user/me/' }),
      'tp-probe:0',
    ].join('\n');
    assert.deepEqual(parseJupyterServers(out), [
      { port: 8889, token: 'abc123abc123', baseUrl: '/' },
      { port: 8888, token: 'tok', baseUrl: '/user/me/' },
    ]);
    assert.deepEqual(parseJupyterServers('[{"port": 9999, "token": ""}]'), [
      { port: 9999, token: '', baseUrl: '/' },
    ]);
    assert.deepEqual(parseJupyterServers('{"port": "x"}\n{not json\n'), []);
    assert.deepEqual(parseJupyterServers('{"port": 8888, "token": "t", "base_url": "http://evil/"}'), [
      { port: 8888, token: 't', baseUrl: '/' },
    ]);
  });

  it('the signed-in address carries the token, escaped, only in its query', () => {
    assert.equal(jupyterPath({ port: 1, token: 'a b&c', baseUrl: '/' }), '/lab?token=a%20b%26c');
    assert.equal(jupyterPath({ port: 1, token: '', baseUrl: '/x' }), '/x/lab');
    assert.equal(localUrl(16006), 'http://127.0.0.1:16006/');
    assert.equal(localUrl(8888, 'lab'), 'http://127.0.0.1:8888/lab');
  });
});
