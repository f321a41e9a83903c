/**
 * SSH public keys checked before they are sent: fingerprints as `ssh-keygen -l` prints them, and a
 * pasted private key refused with its own message.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PRIVATE_KEY_MESSAGE, looksLikePrivateKey, parsePublicKey } from '../../src/model/sshPublicKey';
import { ED25519_KEY, RSA_PRIVATE_KEY_HEAD } from '../fixtures/payloads';
import { hasSshKeygen } from '../shared/sshKeygen';

describe('SSH public keys', () => {
  it('parses type, body and comment, and normalises spacing', () => {
    const [type, body] = ED25519_KEY.split(' ');
    const parsed = parsePublicKey(`  ${type}\t${body}   dev@laptop \n`);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.equal(parsed.key.type, 'ssh-ed25519');
    assert.equal(parsed.key.body, body);
    assert.equal(parsed.key.comment, 'dev@laptop');
    assert.equal(parsed.key.line, `${type} ${body} dev@laptop`);
    assert.match(parsed.key.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
    const bare = parsePublicKey(`${type} ${body}`);
    assert.ok(bare.ok);
    assert.equal(bare.key.comment, undefined);
  });

  it('refuses a private key (PEM, OpenSSH, PuTTY, armour lost) with a specific message', () => {
    for (const text of [
      RSA_PRIVATE_KEY_HEAD,
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----',
      '-----BEGIN PRIVATE KEY-----\nMC4CAQ==',
      '-----BEGIN EC PRIVATE KEY-----',
      'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB',
    ]) {
      assert.ok(looksLikePrivateKey(text), text.slice(0, 30));
      const r = parsePublicKey(text);
      assert.deepEqual(r, { ok: false, message: PRIVATE_KEY_MESSAGE() });
    }
    assert.match(PRIVATE_KEY_MESSAGE(), /PRIVATE key/);
    assert.ok(!looksLikePrivateKey(ED25519_KEY));
  });

  it('refuses text that is not a key, and a blob that does not match its type', () => {
    const [, body] = ED25519_KEY.split(' ');
    for (const [text, why] of [
      ['', /Paste an SSH public key/],
      ['hello world', /not an SSH public key/],
      [`ssh-rsa ${body}`, /does not belong to a ssh-rsa key/],
      ['ssh-ed25519 AAAA', /too short/],
      [`${ED25519_KEY}\n${ED25519_KEY}`, /single public key/],
    ] as const) {
      const r = parsePublicKey(text);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.match(r.message, why);
    }
  });

  it('fingerprints agree with ssh-keygen -l for ed25519, RSA and ECDSA keys', async function () {
    if (!hasSshKeygen()) this.skip();
    this.timeout(20_000);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tp-sshkey-'));
    try {
      for (const [type, bits] of [
        ['ed25519', []],
        ['rsa', ['-b', '2048']],
        ['ecdsa', ['-b', '256']],
      ] as const) {
        const file = path.join(dir, `k_${type}`);
        execFileSync('ssh-keygen', ['-q', '-t', type, ...bits, '-N', '', '-C', `c@${type}`, '-f', file]);
        const pub = await fs.readFile(`${file}.pub`, 'utf8');
        const expected = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], {
          encoding: 'utf8',
        }).split(' ')[1];
        const parsed = parsePublicKey(pub);
        assert.ok(parsed.ok, type);
        assert.equal(parsed.key.fingerprint, expected, type);
        // The private half is refused, whatever its type.
        assert.equal(parsePublicKey(await fs.readFile(file, 'utf8')).ok, false);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
