/** What a folder sync knows of each synced file (syncState.ts): rsync's lines read back, which changed paths
 *  may be sent and which are conflicts, what Pull from Node lists, the record kept; and, with real rsync on
 *  local folders, that a send's checksum and a dry run's from the "node" are the same for the same copy. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  batchArgv,
  filesFromInput,
  nodeStateArgv,
  RsyncOutputReader,
  type SyncTarget,
} from '../../src/model/syncPlan';
import { SentRecord } from '../../src/model/syncQueue';
import {
  isTransfer,
  parseItem,
  planSend,
  pullKind,
  sameState,
  type FileState,
  type RsyncItem,
} from '../../src/model/syncState';

const target: SyncTarget = {
  node: { user: 'root', host: '127.0.0.1', ssh: ['ssh', '-p', '2'] },
  remote: 'p',
};

/** The argv run without ssh: the node's side is the local folder `node`. */
function runLocal(argv: string[], cwd: string, node: string, input = ''): RsyncItem[] {
  const args = argv.slice(1).filter((a, i, all) => a !== '-e' && all[i - 1] !== '-e');
  const at = args.findIndex((a) => a.startsWith('root@'));
  args[at] = `${node}/`;
  const r = spawnSync('rsync', args, { cwd, input, encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
  assert.equal(r.status, 0, r.stderr);
  const items: RsyncItem[] = [];
  const reader = new RsyncOutputReader(
    (l) => {
      const i = parseItem(l);
      if (i) items.push(i);
    },
    () => undefined,
  );
  reader.push(r.stdout);
  reader.end();
  return items;
}

describe('Sync: what each side changed since the last sync', () => {
  it("rsync's item lines: change, checksum (none when all zeros or blank), size, UTC time, name with tabs", () => {
    assert.deepEqual(
      parseItem('<f+++++++++\t6bba86c7e069f56d5a10b435f1c8e49c\t6\t2026/12/05-15:24:25\ta\tb.txt'),
      {
        change: '<f+++++++++',
        path: 'a\tb.txt',
        state: {
          size: 6,
          mtime: Date.UTC(2026, 11, 5, 15, 24, 25) / 1000,
          sum: '6bba86c7e069f56d5a10b435f1c8e49c',
        },
      },
    );
    assert.equal(
      parseItem('>f.st......\t00000000000000000000000000000000\t6\t2026/12/05-15:24:25\tx')?.state.sum,
      undefined,
    );
    assert.equal(
      parseItem('*deleting  \t                                \t0\t1970/01/01-00:00:00\tgone')?.path,
      'gone',
    );
    assert.equal(parseItem('sending incremental file list'), undefined);
  });

  it('which changed paths are sent: unchanged there or absent; changed on both sides held; changed only there kept', () => {
    const last: FileState = { size: 3, mtime: 100, sum: 'aa' };
    const synced = (p: string) => (p === 'new' ? undefined : last);
    const node = new Map<string, FileState>([
      ['same-there', { size: 9, mtime: 100, sum: 'aa' }],
      ['both', { size: 3, mtime: 200, sum: 'bb' }],
      ['there-only', { size: 3, mtime: 200, sum: 'cc' }],
      ['new', { size: 1, mtime: 300, sum: 'dd' }],
    ]);
    const here = (p: string) => (p === 'there-only' ? { size: 3, mtime: 100 } : { size: 5, mtime: 400 });
    const plan = planSend(['absent-there', 'same-there', 'both', 'there-only', 'new'], node, synced, here);
    assert.deepEqual(plan, {
      send: ['absent-there', 'same-there'],
      conflicts: ['both', 'new'],
      nodeOnly: ['there-only'],
    });
  });

  it('what Pull from Node lists: new, changed only there, changed on both sides; changed only here is not', () => {
    const last: FileState = { size: 3, mtime: 100, sum: 'aa' };
    const there: FileState = { size: 4, mtime: 200 };
    assert.equal(pullKind(there, last, undefined), 'new');
    assert.equal(pullKind(there, last, { size: 3, mtime: 100 }), 'changedThere');
    assert.equal(pullKind(there, last, { size: 5, mtime: 300 }), 'changedBoth');
    assert.equal(pullKind(there, undefined, { size: 5, mtime: 300 }), 'changedBoth', 'never synced, differs');
    assert.equal(pullKind({ size: 3, mtime: 100 }, last, { size: 5, mtime: 300 }), 'changedHere');
    assert.ok(
      sameState({ size: 1, mtime: 1, sum: 'x' }, { size: 2, mtime: 2, sum: 'x' }),
      'checksums decide',
    );
    assert.ok(!sameState({ size: 1, mtime: 1 }, { size: 1, mtime: 2, sum: 'x' }));
  });

  it('the record keeps each file’s state, stored as text and read back; bounded', () => {
    const r = new SentRecord(['a'], 3, { a: '3:100:aa', b: '4:5', bad: 'x' });
    assert.deepEqual(r.state('a'), { size: 3, mtime: 100, sum: 'aa' });
    assert.deepEqual(r.state('b'), { size: 4, mtime: 5 });
    assert.equal(r.has('b'), false, 'known equal, not sent: never deleted there');
    r.add('c', { size: 1, mtime: 1 });
    r.synced('d', { size: 1, mtime: 1 });
    assert.equal(r.state('d'), undefined, 'past the limit');
    assert.deepEqual(r.statesJSON(), { a: '3:100:aa', b: '4:5', c: '1:1' });
    r.delete('a');
    assert.equal(r.state('a'), undefined);
    assert.equal(new SentRecord().empty, true);
  });

  it('for real: the checksum a send prints is the one a dry run from the node prints; a change there is seen', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-state-'));
    const here = path.join(tmp, 'here');
    const node = path.join(tmp, 'node');
    fs.mkdirSync(here);
    fs.mkdirSync(node);
    fs.writeFileSync(path.join(here, 'a.txt'), 'first\n');
    fs.writeFileSync(path.join(here, 'b.txt'), 'bee\n');
    const sent = runLocal(batchArgv(target, []), here, node, filesFromInput(['a.txt', 'b.txt']));
    const record = new Map(sent.filter(isTransfer).map((i) => [i.path, i.state]));
    assert.ok(record.get('a.txt')?.sum, JSON.stringify(sent));
    // Both change here; a.txt also changes on the node (same size, same second: only the checksum tells).
    fs.writeFileSync(path.join(here, 'a.txt'), 'mine!\n');
    fs.writeFileSync(path.join(here, 'b.txt'), 'bee 2\n');
    const before = fs.statSync(path.join(node, 'a.txt'));
    fs.writeFileSync(path.join(node, 'a.txt'), 'THEIR\n');
    fs.utimesSync(path.join(node, 'a.txt'), before.atime, before.mtime);
    const listed = runLocal(
      nodeStateArgv(target, []),
      here,
      node,
      filesFromInput(['a.txt', 'b.txt', 'none']),
    );
    assert.equal(listed.find((i) => i.path === 'b.txt')?.state.sum, record.get('b.txt')?.sum);
    const plan = planSend(
      ['a.txt', 'b.txt', 'none'],
      new Map(listed.map((i) => [i.path, i.state])),
      (p) => record.get(p),
      () => ({ size: 6, mtime: 0 }),
    );
    assert.deepEqual(plan, { send: ['b.txt', 'none'], conflicts: ['a.txt'], nodeOnly: [] });
    assert.equal(fs.readFileSync(path.join(here, 'a.txt'), 'utf8'), 'mine!\n', 'the dry run wrote nothing');
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
