/**
 * The client's health check and saved-key listing against the local engine over HTTP, plus the
 * X-Client-Type header every call carries.
 */
import * as assert from 'node:assert/strict';
import type { TensorPoolClient } from '../../src/api';
import { testClient, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';
import { ED25519_KEY } from '../fixtures/payloads';

describe('API client: health check, client type, saved SSH keys', function () {
  let engine: EngineHandle;
  let client: TensorPoolClient;
  const info = { package_version: '0.1.0', uname: 'Linux 6.1 x64' };

  useTestEngine((e) => (engine = e));
  beforeEach(() => {
    client = testClient(engine);
  });

  it('health() sends package_version and uname with X-Client-Type: vscode and is ok by default', async () => {
    assert.deepEqual(await client.health(info), { ok: true });
    const [call] = await engine.calls('POST', '/health');
    assert.deepEqual(call.body, info);
    assert.equal(call.clientType, 'vscode');
    await client.me();
    const [me] = await engine.calls('GET', '/me');
    assert.equal(me.clientType, 'vscode');
  });

  it('health() returns the refusal with the server message, once, without retrying', async () => {
    await engine.config({ minClientVersion: '9.0.0' });
    const verdict = await client.health(info);
    assert.equal(verdict.ok, false);
    if (!verdict.ok) {
      assert.equal(verdict.status, 426);
      assert.match(verdict.message, /^This client \(version 0\.1\.0\) is no longer supported/);
      assert.match(verdict.message, /9\.0\.0 or later/);
      assert.doesNotMatch(verdict.message, /Unexpected HTTP/);
    }
    assert.equal((await engine.calls('POST', '/health')).length, 1);
  });

  it('health(): a 400 with a message refuses too; 404, 5xx and network trouble are not verdicts', async () => {
    await engine.fault({ path: '/health', status: 400, body: { message: 'Update the client.' } });
    assert.deepEqual(await client.health(info), { ok: false, status: 400, message: 'Update the client.' });
    await engine.fault({ path: '/health', status: 404, body: { detail: 'Not Found' } });
    await assert.rejects(client.health(info), (e: Error) => e.name === 'NotFoundError');
    await engine.fault({ path: '/health', status: 503, body: { detail: 'down' } });
    await assert.rejects(client.health(info), (e: Error) => e.name === 'ServerError');
  });

  it('sshKeys(): records with fingerprint and date; org listing; a text-only answer is read by its headers', async () => {
    await client.addSshKey({ public_key: ED25519_KEY, name: 'laptop' });
    const mine = await client.sshKeys();
    assert.equal(mine.keys?.length, 1);
    assert.equal(mine.keys?.[0].name, 'laptop');
    assert.match(mine.keys?.[0].fingerprint ?? '', /^SHA256:/);
    assert.match(mine.keys?.[0].id ?? '', /^key_/);
    assert.ok(mine.keys?.[0].createdAt);
    await client.sshKeys({ includeOrg: true });
    assert.deepEqual(
      (await engine.calls('GET', '/user/ssh-key/list')).map((c) => c.query),
      [{}, { include_org: 'true' }],
    );
    await engine.fault({
      path: '/user/ssh-key/list',
      body: { message: 'KEY ID  NAME\nk1  laptop' },
      status: 200,
    });
    const text = await client.sshKeys();
    // A text-only list is read by its headers; the keys are marked as read from text.
    assert.deepEqual(
      text.keys?.map((k) => [k.id, k.name, k.fromText]),
      [['k1', 'laptop', true]],
    );
    assert.match(text.message ?? '', /laptop/);
  });

  it('addSshKey(): an answer with only a message is accepted (no key_id required)', async () => {
    await engine.fault({ path: '/user/ssh-key/add', status: 200, body: { message: 'SSH key added' } });
    const r = await client.addSshKey({ public_key: ED25519_KEY });
    assert.equal(r.message, 'SSH key added');
    assert.equal(r.key_id, undefined);
  });
});
