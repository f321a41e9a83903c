/**
 * Creating a new file under the first free name (New Job File): never over an existing file, not even
 * one created a moment before, and no temp file left behind, whether it worked or not.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNewFile } from '../../src/config/newFile';
import { jobFileNames } from '../../src/model/jobFileName';

describe('createNewFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tp-newfile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes job.tp.toml, then job2.tp.toml, leaving the first one as it was', async () => {
    const first = await createNewFile(dir, jobFileNames(), 'one\n');
    const second = await createNewFile(dir, jobFileNames(), 'two\n');
    assert.equal(first, join(dir, 'job.tp.toml'));
    assert.equal(second, join(dir, 'job2.tp.toml'));
    assert.equal(readFileSync(first, 'utf8'), 'one\n');
    assert.equal(readFileSync(second, 'utf8'), 'two\n');
    assert.deepEqual(readdirSync(dir).sort(), ['job.tp.toml', 'job2.tp.toml']);
  });

  it('skips names taken by files it did not write, and never changes them', async () => {
    writeFileSync(join(dir, 'job.tp.toml'), 'mine');
    writeFileSync(join(dir, 'job2.tp.toml'), 'also mine');
    const written = await createNewFile(dir, jobFileNames(), 'new');
    assert.equal(written, join(dir, 'job3.tp.toml'));
    assert.equal(readFileSync(join(dir, 'job.tp.toml'), 'utf8'), 'mine');
    assert.equal(readFileSync(join(dir, 'job2.tp.toml'), 'utf8'), 'also mine');
  });

  it('fails on a folder that does not exist, leaving nothing behind', async () => {
    const missing = join(dir, 'gone');
    await assert.rejects(createNewFile(missing, jobFileNames(), 'x'), /ENOENT/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('gives up when every name is taken, without a temp file left behind', async () => {
    writeFileSync(join(dir, 'only.txt'), 'taken');
    await assert.rejects(createNewFile(dir, ['only.txt'], 'x'), /No free file name/);
    assert.deepEqual(readdirSync(dir), ['only.txt']);
  });
});
