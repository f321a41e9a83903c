/** Sync Folder to Node's model: the folder on the node, rsync's argv (run for real against a local
 *  folder, with hostile names), its output read back, the change queue, the record of what was sent,
 *  and the filter of changed paths (syncPlan.ts, syncQueue.ts, syncFilter.ts). */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SyncFilter } from '../../src/model/syncFilter';
import {
  batchArgv,
  defaultRemoteFolder,
  deleteArgv,
  destination,
  filesFromInput,
  fullSyncArgv,
  parseProgress,
  plannedArgv,
  remoteFolderProblem,
  remoteRelative,
  rsyncFailure,
  rsyncSucceeded,
  vanishedFiles,
  RsyncOutputReader,
  unescapeRsyncName,
  type SyncTarget,
} from '../../src/model/syncPlan';
import { ChangeQueue, isInsidePath, SentRecord } from '../../src/model/syncQueue';
import { parseItem } from '../../src/model/syncState';

const target: SyncTarget = {
  node: {
    user: 'root',
    host: '127.0.0.1',
    ssh: ['ssh', '-p', '2222', '-i', '/k/my key', '-o', 'BatchMode=yes'],
  },
  remote: 'proj',
};

/** The argv with a local destination instead of the node (rsync without ssh), run in `cwd`. */
function runLocal(argv: string[], cwd: string, dest: string, input = '') {
  const args = argv.slice(1).filter((a, i, all) => a !== '-e' && all[i - 1] !== '-e');
  args[args.length - 1] = dest;
  return spawnSync('rsync', args, { cwd, input, encoding: 'utf8' });
}

describe('Sync: the folder on the node', () => {
  it('inside the home: relative or ~/…; refused: absolute, ~user, .., the home itself, line breaks', () => {
    for (const ok of ['~/proj', 'proj', '~/a b/c', 'work/-x', '~/it\'s "q"', '~/π/:x'])
      assert.equal(remoteFolderProblem(ok), undefined, ok);
    for (const bad of ['', ' ', '/etc', '~root/x', '~/../x', 'a/../../b', '~', '~/', '.', 'a\nb'])
      assert.ok(remoteFolderProblem(bad), `${JSON.stringify(bad)} is refused`);
    assert.equal(remoteRelative('~/a//b/./c/'), 'a/b/c');
    assert.equal(defaultRemoteFolder('my proj'), '~/my proj');
  });

  it('the destination is ./-prefixed inside the home (a leading - or : is never an option or a host)', () => {
    assert.equal(destination({ ...target, remote: '-x:y' }), 'root@127.0.0.1:./-x:y/');
  });
});

describe('Sync: rsync argv', () => {
  it('first sync: protect-args, safe links, the .gitignore merge and excludes, our ssh as -e', () => {
    const argv = fullSyncArgv(target, ['.git', 'node_modules', ' ']);
    assert.equal(argv[0], 'rsync');
    // --no-inc-recursive: the whole list first, so the progress percent (the notification's bar) is of the folder.
    for (const a of [
      '--protect-args',
      '--safe-links',
      '--filter=:- .gitignore',
      '--exclude=.git',
      '--no-inc-recursive',
    ])
      assert.ok(argv.includes(a), a);
    assert.ok(!argv.some((a) => a.startsWith('--partial') || a === '-P'), 'no cut-off file under its name');
    assert.ok(!argv.includes('--exclude= '), 'a blank pattern is dropped');
    assert.equal(argv[argv.indexOf('-e') + 1], "ssh -p 2222 -i '/k/my key' -o BatchMode=yes");
    assert.deepEqual(argv.slice(-2), ['./', 'root@127.0.0.1:./proj/']);
  });

  it('first sync, for real: ignored files left out, links out of the folder not copied, names kept', function () {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-unit-'));
    const src = path.join(tmp, 'src; $(touch pwned)');
    fs.mkdirSync(path.join(src, 'sub'), { recursive: true });
    fs.mkdirSync(path.join(src, 'node_modules'));
    fs.writeFileSync(path.join(src, '.gitignore'), '*.log\n');
    fs.writeFileSync(path.join(src, 'sub', '.gitignore'), 'secret.txt\n');
    const names = ['-rf', ':colon', 'new\nline', 'sp ace "q" \'s\'', 'π.txt', 'keep.txt'];
    for (const n of names) fs.writeFileSync(path.join(src, n), n);
    fs.writeFileSync(path.join(src, 'a.log'), 'x');
    fs.writeFileSync(path.join(src, 'sub', 'secret.txt'), 'x');
    fs.writeFileSync(path.join(src, 'sub', 'ok.txt'), 'x');
    fs.writeFileSync(path.join(src, 'node_modules', 'm.js'), 'x');
    fs.symlinkSync('/etc/passwd', path.join(src, 'out'));
    fs.symlinkSync('keep.txt', path.join(src, 'in'));
    const sent: string[] = [];
    const reader = new RsyncOutputReader(
      (n) => sent.push(n),
      () => undefined,
    );
    const r = runLocal(fullSyncArgv(target, ['node_modules']), src, path.join(tmp, 'dst') + '/');
    assert.equal(r.status, 0, r.stderr);
    reader.push(r.stdout);
    reader.end();
    const dst = path.join(tmp, 'dst');
    for (const n of names) assert.equal(fs.readFileSync(path.join(dst, n), 'utf8'), n, n);
    assert.ok(!fs.existsSync(path.join(dst, 'a.log')) && !fs.existsSync(path.join(dst, 'sub', 'secret.txt')));
    assert.ok(
      fs.existsSync(path.join(dst, 'sub', 'ok.txt')) && !fs.existsSync(path.join(dst, 'node_modules')),
    );
    assert.ok(!fs.existsSync(path.join(dst, 'out')), 'the link out of the folder is not copied');
    assert.equal(fs.readlinkSync(path.join(dst, 'in')), 'keep.txt');
    assert.ok(!fs.existsSync(path.join(tmp, 'pwned')));
    assert.deepEqual(
      sent
        .map(parseItem)
        .filter((i) => i !== undefined && i.change[1] !== 'd')
        .map((i) => i!.path)
        .sort(),
      [...names, '.gitignore', 'in', 'sub/.gitignore', 'sub/ok.txt'].sort(),
      'every name rsync sent is read back exactly (newline included)',
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the whole-folder check, for real: a file rewritten with the same size in the same second is listed, an unchanged one is not', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-unit-'));
    const src = path.join(tmp, 'src');
    const dst = path.join(tmp, 'dst');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'same.txt'), 'AAAA\n');
    fs.writeFileSync(path.join(src, 'kept.txt'), 'kept\n');
    fs.utimesSync(path.join(src, 'same.txt'), 1_700_000_000.25, 1_700_000_000.25);
    assert.equal(runLocal(fullSyncArgv(target, []), src, dst + '/').status, 0);
    // Rewritten after it was sent, the same size, its time in the same second.
    fs.writeFileSync(path.join(src, 'same.txt'), 'BBBB\n');
    fs.utimesSync(path.join(src, 'same.txt'), 1_700_000_000.75, 1_700_000_000.75);
    const r = runLocal(plannedArgv(target, []), src, dst + '/');
    assert.equal(r.status, 0, r.stderr);
    const items: string[] = [];
    const reader = new RsyncOutputReader(
      (n) => items.push(n),
      () => undefined,
    );
    reader.push(r.stdout);
    reader.end();
    const listed = items
      .map(parseItem)
      .filter((i) => i !== undefined && i.change[1] !== 'd')
      .map((i) => i!.path);
    assert.deepEqual(listed, ['same.txt']);
    assert.equal(fs.readFileSync(path.join(dst, 'same.txt'), 'utf8'), 'AAAA\n', 'a dry run writes nothing');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a batch and a deletion, for real: only the listed paths, names never read as options', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-unit-'));
    const src = path.join(tmp, 'src');
    const dst = path.join(tmp, 'dst');
    fs.mkdirSync(path.join(src, 'd'), { recursive: true });
    fs.mkdirSync(dst);
    for (const n of ['--delete', 'd/new\nline', 'other.txt']) fs.writeFileSync(path.join(src, n), n);
    fs.writeFileSync(path.join(dst, 'theirs.txt'), 'made on the node');
    fs.writeFileSync(path.join(dst, 'gone.txt'), 'sent before');
    const listed = ['--delete', 'd/new\nline', 'vanished.txt'];
    const r = runLocal(batchArgv(target, []), src, dst + '/', filesFromInput(listed));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(dst, '--delete'), 'utf8'), '--delete');
    assert.equal(fs.readFileSync(path.join(dst, 'd', 'new\nline'), 'utf8'), 'd/new\nline');
    assert.ok(!fs.existsSync(path.join(dst, 'other.txt')), 'a path not listed is not sent');
    assert.ok(fs.existsSync(path.join(dst, 'theirs.txt')) && fs.existsSync(path.join(dst, 'gone.txt')));
    const d = runLocal(deleteArgv(target), src, dst + '/', filesFromInput(['gone.txt']));
    assert.equal(d.status, 0, d.stderr);
    assert.ok(!fs.existsSync(path.join(dst, 'gone.txt')), 'the listed missing path is deleted');
    assert.ok(fs.existsSync(path.join(dst, 'theirs.txt')), 'what the node made is kept');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a file saved again with the same size in the same second as the copy there is still sent', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-unit-'));
    const src = path.join(tmp, 'src');
    const dst = path.join(tmp, 'dst');
    fs.mkdirSync(src);
    fs.mkdirSync(dst);
    const file = path.join(src, 'train.py');
    const when = new Date('2026-12-05T12:00:00.250Z');
    fs.writeFileSync(file, 'lr = 0.1\n');
    fs.utimesSync(file, when, when);
    assert.equal(runLocal(batchArgv(target, []), src, dst + '/', filesFromInput(['train.py'])).status, 0);
    fs.writeFileSync(file, 'lr = 0.2\n'); // one character changed, in the same second
    const later = new Date('2026-12-05T12:00:00.750Z');
    fs.utimesSync(file, later, later);
    const r = runLocal(batchArgv(target, []), src, dst + '/', filesFromInput(['train.py']));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(dst, 'train.py'), 'utf8'), 'lr = 0.2\n');
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});

describe('Sync: rsync output', () => {
  it('progress2 lines: bytes, percent, rate, files', () => {
    assert.deepEqual(parseProgress('      1,234,567  45%   12.00MB/s    0:00:01 (xfr#12, to-chk=3/20)'), {
      bytes: 1234567,
      percent: 45,
      rate: 12 * 1024 * 1024,
      files: 12,
    });
    assert.equal(parseProgress('              8  17%    0.00kB/s    0:00:00')?.files, 0);
    assert.equal(parseProgress('sending incremental file list'), undefined);
  });

  it('names: \\#ooo escapes read back as bytes (UTF-8), \\r-separated progress between them', () => {
    assert.equal(unescapeRsyncName('new\\#012line'), 'new\nline');
    assert.equal(unescapeRsyncName('\\#317\\#200.txt'), 'π.txt');
    const names: string[] = [];
    let last = 0;
    const r = new RsyncOutputReader(
      (n) => names.push(n),
      (p) => (last = p.files),
    );
    r.push('>a.t');
    r.push('xt\n   10 100%  1.00kB/s  0:00:00 (xfr#1, to-chk=1/3)\r>dir/\n>dir/b\n');
    r.end();
    assert.deepEqual(names, ['a.txt', 'dir/b']);
    assert.equal(last, 1);
  });

  it('a chunk of many progress lines: each name read, the progress reported once (its newest)', () => {
    const names: string[] = [];
    const seen: number[] = [];
    const r = new RsyncOutputReader(
      (n) => names.push(n),
      (p) => seen.push(p.files),
    );
    let chunk = '';
    for (let i = 1; i <= 500; i++)
      chunk += `>f${i}\n   ${i * 10} 10%  1.00kB/s  0:00:00 (xfr#${i}, to-chk=${1000 - i}/1000)\r`;
    r.push(chunk);
    r.push('>last\n');
    r.end();
    assert.equal(names.length, 501);
    assert.equal(names.at(-1), 'last');
    assert.deepEqual(seen, [500]);
  });

  it("failures in rsync's own words; an unreachable node said so", () => {
    assert.equal(
      rsyncFailure(
        11,
        'rsync: [receiver] write failed on "/h/x": No space left on device (28)\nrsync error: error in file IO (code 11)\n',
      ),
      'rsync: [receiver] write failed on "/h/x": No space left on device (28)',
    );
    assert.match(
      rsyncFailure(255, 'ssh: connect to host 127.0.0.1 port 2: Connection refused\n'),
      /cannot be reached/,
    );
    assert.equal(rsyncFailure(3, ''), 'rsync ended with exit code 3.');
    assert.equal(
      rsyncFailure(
        12,
        'bash: line 1: rsync: command not found\nrsync: connection unexpectedly closed (0 bytes received so far) [sender]\n',
      ),
      'rsync was not found on the node: install it there (sudo apt install rsync, or your distribution’s rsync package).',
    );
    // The node's disk full, then the connection it broke: rsync's words for the cause, not the connection.
    assert.equal(
      rsyncFailure(
        12,
        [
          'rsync: [receiver] write failed on "/n/home/p/big.bin": No space left on device (28)',
          'rsync error: error in file IO (code 11) at receiver.c(380) [receiver=3.2.7]',
          'rsync: [sender] write error: Broken pipe (32)',
          'rsync: connection unexpectedly closed (120 bytes received so far) [sender]',
          'rsync error: error in rsync protocol data stream (code 12) at io.c(232) [sender=3.2.7]',
        ].join('\n'),
      ),
      'rsync: [receiver] write failed on "/n/home/p/big.bin": No space left on device (28)',
    );
    assert.match(
      rsyncFailure(
        12,
        'Connection to 127.0.0.1 closed by remote host.\nrsync: [sender] write error: Broken pipe (32)\nrsync: connection unexpectedly closed (9 bytes received so far) [sender]\n',
      ),
      /^The node cannot be reached/,
      'a broken pipe is the connection, not the cause',
    );
    assert.deepEqual(
      vanishedFiles(
        'file has vanished: "/w/p/a b.txt"\nfile has vanished: "/w/p/d/new\\#012line"\nrsync warning: x\n',
        '/w/p',
      ),
      ['a b.txt', 'd/new\nline'],
    );
    assert.ok(rsyncSucceeded(0) && rsyncSucceeded(24), '24: some files vanished while sent');
    assert.ok(!rsyncSucceeded(23) && !rsyncSucceeded(11));
  });
});

describe('Sync: the change queue and the record of what was sent', () => {
  it('a burst of saves coalesces; past the limit, the whole folder (bounded)', () => {
    const q = new ChangeQueue(100);
    for (let i = 0; i < 10_000; i++) q.add('a.txt');
    assert.deepEqual(q.take(), { whole: false, paths: ['a.txt'] });
    assert.equal(q.pending, false);
    for (let i = 0; i < 10_000; i++) q.add(`f${i}`);
    assert.equal(q.size, 0, 'no path kept once the whole folder is due');
    assert.deepEqual(q.take(), { whole: true });
    q.add('../x');
    q.add('/etc/passwd');
    assert.equal(q.pending, false, 'a path outside the folder is never queued');
  });

  it('inside paths only', () => {
    for (const ok of ['a/-b c', 'a:b', 'C:x', 'x/a:/y']) assert.ok(isInsidePath(ok), ok);
    for (const bad of ['', '..', 'a/../b', '/a', 'a//b', './a', 'a\0b']) assert.ok(!isInsidePath(bad), bad);
  });

  it('what was sent: a deleted folder names the sent files under it; bounded', () => {
    const s = new SentRecord(['a/x', 'a/y', 'ab', 'b']);
    assert.deepEqual(s.at('a').sort(), ['a/x', 'a/y']);
    assert.deepEqual(s.at('b'), ['b']);
    const small = new SentRecord([], 2);
    for (const p of ['1', '2', '3']) small.add(p);
    assert.equal(small.has('3'), false);
    assert.deepEqual(small.toJSON(), ['1', '2']);
  });
});

describe('Sync: the filter of changed paths', () => {
  it('.gitignore per folder and the excluded patterns, as the first sync leaves them out', () => {
    const reads: string[] = [];
    const ignores: Record<string, string> = { '': '*.log\n/build\n', sub: 'secret.txt\n' };
    const f = new SyncFilter(['.git', 'node_modules', '__pycache__'], (dir) => {
      reads.push(dir);
      return ignores[dir];
    });
    for (const p of [
      'a.log',
      'build/x',
      'sub/secret.txt',
      'sub/deep/secret.txt',
      '.git/HEAD',
      'x/node_modules/m.js',
    ])
      assert.ok(f.ignored(p), p);
    for (const p of ['a.txt', 'sub/ok.txt', 'other/build/x', 'secret.txt', '...'])
      assert.ok(!f.ignored(p), p);
    assert.equal(new Set(reads).size, reads.length, 'no .gitignore read twice');
    const before = reads.length;
    f.ignored('sub/other.txt');
    assert.equal(reads.length, before, 'each .gitignore is read once');
    ignores[''] = '';
    f.forget('');
    assert.ok(!f.ignored('a.log'), 'read again after a change');
  });
});
