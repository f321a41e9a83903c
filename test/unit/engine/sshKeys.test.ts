// The local engine over real HTTP: SSH public keys: adding, listing, validation and removal.
import * as assert from 'node:assert/strict';
import { assertIssue, call, create, type Json, sshKey, TOKEN2, useEngine } from './engineHttp';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('SSH keys', () => {
    it('add (200 {key_id, message}), list with include_org, remove (200), unknown (404)', async () => {
      const key = sshKey('me@box');
      const added = await call('POST', '/user/ssh-key/add', { body: { public_key: key, name: 'laptop' } });
      assert.equal(added.status, 200, added.text);
      assert.match(added.json.key_id, /^key_/);
      assert.equal(typeof added.json.message, 'string');

      const dup = await call('POST', '/user/ssh-key/add', { body: { public_key: key } });
      assert.equal(dup.status, 409);
      assert.equal(typeof dup.json.detail, 'string');

      const list = await call('GET', '/user/ssh-key/list');
      assert.equal(list.status, 200);
      assert.match(list.json.message, /laptop/);
      assert.equal(list.json.keys.length, 1);
      assert.equal(list.json.keys[0].key_id, added.json.key_id);
      assert.match(list.json.keys[0].fingerprint, /^SHA256:/);

      assert.equal((await call('GET', '/user/ssh-key/list', { token: TOKEN2 })).json.keys.length, 0);
      assert.equal(
        (await call('GET', '/user/ssh-key/list?include_org=true', { token: TOKEN2 })).json.keys.length,
        1,
      );
      // Somebody else's key cannot be removed.
      assert.equal(
        (await call('DELETE', `/user/ssh-key/remove/${added.json.key_id}`, { token: TOKEN2 })).status,
        404,
      );

      const removed = await call('DELETE', `/user/ssh-key/remove/${added.json.key_id}`);
      assert.equal(removed.status, 200);
      assert.equal(typeof removed.json.message, 'string');
      const again = await call('DELETE', `/user/ssh-key/remove/${added.json.key_id}`);
      assert.equal(again.status, 404);
      assert.equal(typeof again.json.detail, 'string');
    });

    it('422 for a body that is not an SSH public key', async () => {
      for (const public_key of [
        'hello',
        'ssh-ed25519',
        'ssh-ed25519 !!!notbase64',
        'ssh-ed25519 ' + Buffer.from('garbage-bytes-here').toString('base64'),
        'ssh-rsa ' + sshKey().split(' ')[1],
      ]) {
        assertIssue(await call('POST', '/user/ssh-key/add', { body: { public_key } }), 'value_error', [
          'body',
          'public_key',
        ]);
      }
      assertIssue(await call('POST', '/user/ssh-key/add', { body: {} }), 'missing', ['body', 'public_key']);
      assertIssue(await call('POST', '/user/ssh-key/add', { body: { public_key: 42 } }), 'string_type', [
        'body',
        'public_key',
      ]);
    });

    it('save_keys on create stores the given keys on the profile', async () => {
      const key = sshKey('saved@create');
      await create({ public_keys: [key] });
      const keys = (await call('GET', '/user/ssh-key/list')).json.keys as Json[];
      assert.equal(keys.length, 1);
      assert.equal(keys[0].public_key, key);
      await create({ public_keys: [sshKey('not-saved')], save_keys: false });
      assert.equal((await call('GET', '/user/ssh-key/list')).json.keys.length, 1);
    });
  });
});
