/**
 * The Jupyter server a notebook kernel runs under on a node (src/model/jupyterNode.ts): the start script run
 * by a real `sh` with Debian's `jupyter-server` (the token read from standard input, on no command line, in
 * a 0600 file; the server in its own session, found again by the probe, stopped by the stop script), a
 * missing Jupyter named, and the outputs' mime items and bounded streams (src/model/jupyterOutputs.ts).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  gpuLabel,
  newJupyterToken,
  parseServerRecord,
  parseStartAnswer,
  probeScript,
  sessionPath,
  startScript,
  stopScript,
} from '../../src/model/jupyterNode';
import { BoundedStream, mimeItems } from '../../src/model/jupyterOutputs';

function sh(script: string, home: string, stdin = '', pathVar = '/usr/bin:/bin'): string {
  const r = spawnSync('sh', ['-c', script], {
    input: stdin,
    encoding: 'utf8',
    env: { HOME: home, PATH: pathVar },
    timeout: 60_000,
  });
  return r.stdout;
}

describe('Jupyter on a node (model/jupyterNode.ts)', () => {
  it('starts jupyter-server detached with the token from stdin, probes it, stops it', function () {
    this.timeout(60_000);
    if (!fs.existsSync('/usr/bin/jupyter-server')) this.skip(); // the harness installs it (test/harness/install.ts)
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-jupyter-'));
    const token = newJupyterToken();
    try {
      const started = parseStartAnswer(
        sh(startScript('jupyter-server', 30_000 + (process.pid % 20_000)), home, `${token}\n`),
      );
      assert.equal(started?.kind, 'started', JSON.stringify(started));
      const server = started.kind === 'started' ? started.server : undefined;
      assert.ok(server);
      assert.equal(server.token, token);
      const cmdline = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8');
      assert.ok(!cmdline.includes(token), 'no token on the command line');
      assert.ok(
        !fs.readFileSync(`/proc/${server.pid}/environ`, 'utf8').includes(token),
        'nor in its environment',
      );
      const dir = path.join(home, '.tensorpool', 'jupyter');
      assert.equal(fs.statSync(path.join(dir, 'config.json')).mode & 0o777, 0o600);
      const stat = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      assert.equal(Number(stat[3]), server.pid, 'its own session (setsid)');
      assert.deepEqual(parseServerRecord(sh(probeScript(), home)), server, 'the probe finds it again');
      assert.match(sh(stopScript(), home), /tp-jupyter-stopped/);
      assert.equal(sh(probeScript(), home), '', 'nothing runs after the stop');
    } finally {
      sh(stopScript(), home);
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('names a Jupyter that is not installed', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-jupyter-'));
    try {
      assert.deepEqual(parseStartAnswer(sh(startScript('no-such-jupyter --x', 20_000), home, 'tok\n')), {
        kind: 'missing',
      });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('reads the start answer, the GPU label and the session path', () => {
    assert.equal(parseStartAnswer('noise'), undefined);
    assert.deepEqual(parseStartAnswer('tp-jupyter-failed\nTraceback: boom'), {
      kind: 'failed',
      log: 'Traceback: boom',
    });
    assert.equal(parseServerRecord('{"port": 0, "pid": 1}'), undefined);
    assert.equal(gpuLabel('8xH100'), '8×H100');
    assert.equal(gpuLabel('1xB200'), '1×B200');
    assert.equal(gpuLabel('cpu-small'), 'cpu-small');
    assert.equal(sessionPath('proj', 'sub\\nb.ipynb'), 'proj/sub/nb.ipynb');
    assert.equal(sessionPath(undefined, 'nb.ipynb'), 'nb.ipynb');
    assert.match(newJupyterToken(), /^[0-9a-f]{48}$/);
  });
});

describe('Jupyter outputs (model/jupyterOutputs.ts)', () => {
  it('orders a mime bundle richest first and decodes images', () => {
    const items = mimeItems(
      {
        'text/plain': '<Figure>',
        'image/png': 'iVBORw0KGgo=\n',
        'application/json': { a: 1 },
      },
      () => 'cut',
    );
    assert.deepEqual(
      items.map((i) => i.mime),
      ['application/json', 'image/png', 'text/plain'],
    );
    assert.deepEqual([...items[1].data.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal(new TextDecoder().decode(items[0].data), '{"a":1}');
    assert.equal(new TextDecoder().decode(items[2].data), '<Figure>');
  });

  it('leaves out an item over the limit and says so first, keeping the small ones', () => {
    const items = mimeItems(
      { 'text/plain': 'x'.repeat(50), 'text/html': '<b>small</b>' },
      (mime, bytes) => `${mime} ${bytes} cut`,
      20,
    );
    assert.deepEqual(
      items.map((i) => [i.mime, new TextDecoder().decode(i.data)]),
      [
        ['text/plain', 'text/plain 50 cut'],
        ['text/html', '<b>small</b>'],
      ],
    );
    const whole = mimeItems({ 'text/plain': 'x'.repeat(20) }, () => 'cut', 20);
    assert.equal(new TextDecoder().decode(whole[0].data), 'x'.repeat(20));
  });

  it('bounds a stream at a line end and says how much was cut', () => {
    const s = new BoundedStream(20);
    assert.equal(s.append('line one\n'), true);
    s.append('line two\nline three\n');
    s.append('more\n');
    assert.equal(
      s.text((n) => `cut ${n}`),
      'line one\nline two\ncut 16\n',
    );
    assert.equal(s.cut, 16);
  });

  it('takes many lines at once the same as line by line, up to the limit and past it', () => {
    const text = Array.from({ length: 500 }, (_, i) => `${i}\n`).join('');
    for (const limit of [1_000_000, 1000, 999, 3]) {
      const byLine = new BoundedStream(limit);
      for (const line of text.split(/(?<=\n)/)) byLine.append(line);
      // Chunks cut anywhere, mid-line included, with the partial line of one chunk ended by the next.
      const chunked = new BoundedStream(limit);
      for (let at = 0, n = 1; at < text.length; at += n, n = (n * 7) % 97 || 1)
        chunked.append(text.slice(at, at + n));
      assert.equal(
        chunked.text((n) => `cut ${n}`),
        byLine.text((n) => `cut ${n}`),
        `limit ${limit}`,
      );
      assert.equal(chunked.cut, byLine.cut, `limit ${limit}`);
    }
    const all = new BoundedStream();
    all.append(text.slice(0, 10));
    all.append(text.slice(10));
    assert.equal(all.text(String), text);
    // A carriage return at a chunk's end: the lines after it are not taken whole, the next text replaces its line.
    const bar = new BoundedStream();
    bar.append('0%\r');
    bar.append('50%\n1\n2\n');
    assert.equal(bar.text(String), '50%\n1\n2\n');
  });

  it('a carriage return starts the line again (a progress bar redraws one line); \\r\\n is a line end', () => {
    const s = new BoundedStream();
    s.append('epoch 1\n');
    for (let i = 0; i <= 100; i += 25) s.append(`\r${i}%|${'#'.repeat(i / 25)}`);
    assert.equal(s.text(String), 'epoch 1\n100%|####');
    // A line end split across chunks, a carriage return at a chunk's end, then the next text replacing it.
    s.append('\r');
    s.append('\ndone\r');
    assert.equal(s.text(String), 'epoch 1\n100%|####\ndone');
    assert.equal(s.append('loss 0.5\n'), true);
    s.append('a\r\nb\n');
    assert.equal(s.text(String), 'epoch 1\n100%|####\nloss 0.5\na\nb\n');
    // The limit counts what is kept, not what a redraw replaced.
    const small = new BoundedStream(12);
    for (let i = 0; i < 1000; i++) small.append(`\r${i}`);
    small.append('\n');
    assert.equal(small.text(String), '999\n');
    assert.equal(small.cut, 0);
  });
});
