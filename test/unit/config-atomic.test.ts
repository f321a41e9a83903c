/**
 * The atomic writer under the config writers: a crash before the rename must leave the old file
 * byte-identical and no temp file behind; modes survive; symlinks stay links; missing parents are
 * created 0700; non-UTF-8 files are refused rather than re-encoded; concurrent edits are not lost.
 */
import * as assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  lstatSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editTextFile, readTextFile, resolveTarget, writeFileAtomic } from '../../src/config/atomicWrite';
import { type ConfigError } from '../../src/config/errors';

const posix = process.platform !== 'win32';
const modeOf = (p: string): number => statSync(p).mode & 0o777;
const crash = {
  beforeRename: (): never => {
    throw new Error('simulated crash');
  },
};

describe('atomic writes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tp-config-atomic-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a new file 0600 and missing parent directories 0700', async function () {
    if (!posix) this.skip();
    const file = join(dir, 'a', 'b', 'config');
    const r = await writeFileAtomic(file, 'x = 1\n');
    assert.deepEqual([r.created, r.changed, readFileSync(file, 'utf8')], [true, true, 'x = 1\n']);
    assert.equal(modeOf(file), 0o600);
    assert.equal(modeOf(join(dir, 'a')), 0o700);
    assert.equal(modeOf(join(dir, 'a', 'b')), 0o700);
  });

  it('keeps the mode of an existing file, whatever the umask', async function () {
    if (!posix) this.skip();
    for (const mode of [0o600, 0o644, 0o640, 0o664]) {
      const file = join(dir, `m${mode.toString(8)}`);
      writeFileSync(file, 'old');
      chmodSync(file, mode);
      const oldMask = process.umask(0o077);
      try {
        await writeFileAtomic(file, 'new');
      } finally {
        process.umask(oldMask);
      }
      assert.equal(modeOf(file), mode, mode.toString(8));
      assert.equal(readFileSync(file, 'utf8'), 'new');
    }
  });

  it('a crash between write and rename leaves the old file byte-identical and no temp file', async () => {
    const file = join(dir, 'credentials');
    const old = Buffer.from('\uFEFF[work]\r\naws_access_key_id = A\r\n# \u00e9t\u00e9\r\n', 'utf8');
    writeFileSync(file, old);
    let seenTemp = '';
    await assert.rejects(
      writeFileAtomic(file, 'replacement', {
        beforeRename: (temp) => {
          seenTemp = temp;
          assert.equal(readFileSync(temp, 'utf8'), 'replacement');
          throw new Error('simulated crash');
        },
      }),
      /simulated crash/,
    );
    assert.ok(
      seenTemp.startsWith(join(dir, '.credentials.')) && seenTemp.endsWith('.tmp'),
      'the temp file is in the same directory',
    );
    assert.deepEqual(readFileSync(file), old);
    assert.deepEqual(readdirSync(dir), ['credentials']);
  });

  it('a crash while creating a file leaves neither the file nor the directories it created', async () => {
    const file = join(dir, 'new', 'dir', 'config');
    await assert.rejects(writeFileAtomic(file, 'x', crash), /simulated crash/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('writes through a symlink, keeping the link', async function () {
    if (!posix) this.skip();
    mkdirSync(join(dir, 'dotfiles'));
    const real = join(dir, 'dotfiles', 'config');
    writeFileSync(real, 'old');
    chmodSync(real, 0o644);
    const link = join(dir, 'config');
    symlinkSync('dotfiles/config', link);
    const chain = join(dir, 'config2');
    symlinkSync(link, chain);
    const r = await writeFileAtomic(chain, 'new');
    assert.equal(r.path, real);
    assert.ok(lstatSync(link).isSymbolicLink() && lstatSync(chain).isSymbolicLink());
    assert.equal(readFileSync(real, 'utf8'), 'new');
    assert.equal(modeOf(real), 0o644);
    assert.deepEqual(readdirSync(join(dir, 'dotfiles')), ['config']);
  });

  it('a dangling symlink is written through to its target', async function () {
    if (!posix) this.skip();
    const link = join(dir, 'credentials');
    symlinkSync(join(dir, 'store', 'credentials'), link);
    await writeFileAtomic(link, 'x');
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'store', 'credentials'), 'utf8'), 'x');
  });

  it('refuses a symlink loop with a specific error', async function () {
    if (!posix) this.skip();
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    await assert.rejects(
      resolveTarget(join(dir, 'a')),
      (e: ConfigError) => e.code === 'symlink-loop' && /symbolic links/.test(e.message),
    );
  });

  it('refuses to edit a file that is not UTF-8, leaving it alone', async () => {
    const file = join(dir, 'config');
    const latin1 = Buffer.from([0x5b, 0x74, 0x70, 0x5d, 0x0a, 0x23, 0xe9, 0x0a]); // "[tp]\n#\xe9\n"
    writeFileSync(file, latin1);
    await assert.rejects(
      editTextFile(file, () => 'x'),
      (e: ConfigError) => e.code === 'not-utf8' && e.message.includes(file),
    );
    await assert.rejects(readTextFile(file), (e: ConfigError) => e.code === 'not-utf8');
    assert.deepEqual(readFileSync(file), latin1);
  });

  it('does not write when nothing changes, and does not create a file that would be empty', async () => {
    const file = join(dir, 'config');
    writeFileSync(file, 'same\n');
    const before = statSync(file).mtimeMs;
    const r = await editTextFile(file, (old) => old!);
    assert.equal(r.changed, false);
    assert.equal(statSync(file).mtimeMs, before);
    const missing = join(dir, 'missing');
    assert.equal((await editTextFile(missing, () => '')).changed, false);
    assert.equal(existsSync(missing), false);
  });

  it('recomputes an edit when the file changed between read and rename', async () => {
    const file = join(dir, 'config');
    writeFileSync(file, 'a\n');
    let interfered = false;
    const r = await editTextFile(file, (old) => `${old}ours\n`, {
      beforeRename: () => {
        if (!interfered) {
          interfered = true;
          writeFileSync(file, 'a\ntheirs\n');
        }
      },
    });
    assert.equal(readFileSync(file, 'utf8'), 'a\ntheirs\nours\n');
    assert.equal(r.text, 'a\ntheirs\nours\n');
    assert.deepEqual(readdirSync(dir), ['config']);
  });

  it('gives up with a specific error when the file keeps changing', async () => {
    const file = join(dir, 'config');
    writeFileSync(file, 'a\n');
    let n = 0;
    await assert.rejects(
      editTextFile(file, (old) => `${old}ours\n`, {
        beforeRename: () => writeFileSync(file, `other ${++n}\n`),
      }),
      (e: ConfigError) => e.code === 'concurrent-edit',
    );
    assert.equal(readFileSync(file, 'utf8'), `other ${n}\n`);
    assert.deepEqual(readdirSync(dir), ['config']);
  });
});
