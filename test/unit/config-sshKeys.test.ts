/** The create wizard's SSH keys: listing ~/.ssh/*.pub and generating an ed25519 pair with ssh-keygen. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freeKeyPath, generateEd25519Key, keyComment, readPublicKeys } from '../../src/config/sshKeys';
import { hasSshKeygen } from '../shared/sshKeygen';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';

describe('ssh keys', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-keys-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists the .pub files by name with their comments, and nothing else', async () => {
    fs.writeFileSync(path.join(dir, 'b.pub'), `${KEY} me@laptop work\n`);
    fs.writeFileSync(path.join(dir, 'a.pub'), `${KEY}\n`);
    fs.writeFileSync(path.join(dir, 'a'), 'PRIVATE');
    fs.writeFileSync(path.join(dir, 'config'), 'Host x\n');
    const keys = await readPublicKeys(dir);
    assert.deepEqual(
      keys.map((k) => [path.basename(k.path), k.key, k.comment]),
      [
        ['a.pub', KEY, undefined],
        ['b.pub', `${KEY} me@laptop work`, 'me@laptop work'],
      ],
    );
    assert.ok(!keys.some((k) => k.key.includes('PRIVATE')));
  });

  it('a missing folder means no keys, not an error', async () => {
    assert.deepEqual(await readPublicKeys(path.join(dir, 'nope')), []);
  });

  it('picks a key file name that does not overwrite an existing key', async () => {
    assert.equal(await freeKeyPath(dir), path.join(dir, 'tensorpool_ed25519'));
    fs.writeFileSync(path.join(dir, 'tensorpool_ed25519'), 'x');
    fs.writeFileSync(path.join(dir, 'tensorpool_ed25519_2'), 'x');
    assert.equal(await freeKeyPath(dir), path.join(dir, 'tensorpool_ed25519_3'));
    assert.equal(keyComment(`${KEY} a b`), 'a b');
    assert.equal(keyComment(KEY), undefined);
  });

  it('generates an ed25519 pair in a new 0700 folder and returns its public half', async function () {
    if (!hasSshKeygen()) this.skip();
    this.timeout(20_000);
    const ssh = path.join(dir, '.ssh');
    const key = await generateEd25519Key(ssh);
    assert.equal(key.path, path.join(ssh, 'tensorpool_ed25519.pub'));
    assert.match(key.key, /^ssh-ed25519 \S+ tensorpool-vscode@/);
    assert.match(key.comment ?? '', /^tensorpool-vscode@/);
    assert.ok(fs.existsSync(path.join(ssh, 'tensorpool_ed25519')));
    if (process.platform !== 'win32') assert.equal(fs.statSync(ssh).mode & 0o777, 0o700);
    const second = await generateEd25519Key(ssh);
    assert.equal(second.path, path.join(ssh, 'tensorpool_ed25519_2.pub'));
  });
});
