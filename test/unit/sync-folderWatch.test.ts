// The folder sync's watch (src/vscode/sync/onUse/folderWatch.ts) on real folders of this machine: one watch
// per folder, a folder made with its subfolders at once reported and then watched below its top, left-out
// folders not watched, a folder moved away no longer watched, nothing reported after close.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FolderWatch } from '../../src/vscode/sync/onUse/folderWatch';

const until = async (what: string, check: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('folder sync: the watch of a folder (folderWatch.ts)', () => {
  let root: string;
  let seen: string[];
  let watch: FolderWatch | undefined;
  const start = () =>
    (watch = new FolderWatch(root, {
      skipFolder: (rel) => rel === 'node_modules' || rel.endsWith('/node_modules'),
      changed: (rel) => seen.push(rel),
      failed: (rel, message) => assert.fail(`${rel}: ${message}`),
    }));

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-folderwatch-'));
    seen = [];
  });
  afterEach(() => {
    watch?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('watches each folder that is there, not the left-out ones, and reports a file written in one', async () => {
    fs.mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    fs.mkdirSync(path.join(root, 'node_modules', 'x'), { recursive: true });
    start();
    assert.equal(watch!.folders, 3); // the folder, src, src/deep
    fs.writeFileSync(path.join(root, 'src', 'deep', 'a.py'), 'a\n');
    fs.writeFileSync(path.join(root, 'node_modules', 'x', 'i.js'), 'x\n');
    await until('src/deep/a.py', () => seen.includes('src/deep/a.py'));
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(!seen.some((s) => s.startsWith('node_modules/')), seen.join(', '));
  });

  it('a folder made with its subfolders at once: reported, then files written below it later are too', async () => {
    start();
    fs.mkdirSync(path.join(root, 'a', 'b', 'c'), { recursive: true });
    await until('a', () => seen.includes('a'));
    await until('a/b/c watched', () => watch!.folders === 4);
    seen.length = 0;
    fs.writeFileSync(path.join(root, 'a', 'b', 'c', 'late.txt'), 'late\n');
    await until('a/b/c/late.txt', () => seen.includes('a/b/c/late.txt'));
  });

  it('a folder moved away is no longer watched; moved back under another name it is', async () => {
    fs.mkdirSync(path.join(root, 'm', 'n'), { recursive: true });
    start();
    assert.equal(watch!.folders, 3);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-folderwatch-out-'));
    try {
      fs.renameSync(path.join(root, 'm'), path.join(outside, 'm'));
      await until('m reported', () => seen.includes('m'));
      await until('its watches ended', () => watch!.folders === 1);
      fs.renameSync(path.join(outside, 'm'), path.join(root, 'm2'));
      await until('m2 watched', () => watch!.folders === 3);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('nothing is reported after close', async () => {
    start();
    watch!.close();
    assert.equal(watch!.folders, 0);
    fs.writeFileSync(path.join(root, 'after.txt'), 'x\n');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(seen, []);
  });
});
