// The local engine against what the official command-line client expects: a fixed set of offered
// instance types, refusal bodies it can print (`message`), plain bucket names, a closing sentence on
// finished requests, POST /health refusing outdated clients, and the SSH key operations.

import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { DEFAULT_INSTANCE_TYPES } from '../../engine/offered';
import { startEngine, type RunningEngine } from '../../engine/server';
import { KNOWN_INSTANCE_TYPES } from '../../src/model/validate';
import { EngineControl } from '../shared/engineControl';

const TOKEN = 'tp_unit_fidelity_token_aaaaaaaaaa';
const TOKEN2 = 'tp_unit_fidelity_token_bbbbbbbbbb';
const RO_TOKEN = 'tp_unit_fidelity_readonly_cccccccc';

type Json = Record<string, any>;

let engine: RunningEngine;

async function call(
  method: string,
  p: string,
  opts: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Json; text: string }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? TOKEN : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(engine.url + p, { method, headers, body });
  const text = await res.text();
  return { status: res.status, text, json: text ? (JSON.parse(text) as Json) : {} };
}

/** The control surface as it answers: some tests below check its refusals (400). */
function control(method: string, p: string, body?: unknown): Promise<{ status: number; json: Json }> {
  return new EngineControl(engine.url).unchecked(method, p, body);
}

function sshKey(comment: string): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

describe('local engine: what the official client expects', function () {
  this.timeout(20_000);

  before(async () => {
    engine = await startEngine({
      tokens: [TOKEN, TOKEN2],
      readonlyTokens: [RO_TOKEN],
      pendingMs: 10,
      processingMs: 10,
    });
  });
  after(() => engine.close());
  beforeEach(async () => {
    assert.equal((await control('POST', 'reset', {})).status, 200);
  });

  describe('offered instance types', () => {
    it('offers the list the create wizard shows, CPU types included', () => {
      assert.deepEqual([...DEFAULT_INSTANCE_TYPES].sort(), [...KNOWN_INSTANCE_TYPES].sort());
      assert.ok(DEFAULT_INSTANCE_TYPES.includes('32xCPU') && DEFAULT_INSTANCE_TYPES.includes('8xB300'));
    });

    it('refuses a type it does not offer with 422 on instance_type and creates nothing', async () => {
      const r = await call('POST', '/cluster/create', { body: { instance_type: '1xNOPE' } });
      assert.equal(r.status, 422, r.text);
      const [problem] = r.json.detail as Json[];
      assert.deepEqual(problem.loc, ['body', 'instance_type']);
      assert.equal(problem.type, 'literal_error');
      assert.equal(problem.input, '1xNOPE');
      assert.match(problem.msg, /1xH100/);
      assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 0);
      const ok = await call('POST', '/cluster/create', { body: { instance_type: '64xCPU' } });
      assert.equal(ok.status, 202, ok.text);
    });

    it('the offered list is configurable at run time and at start-up', async () => {
      const set = await control('POST', 'config', { instanceTypes: ['1xNOPE'] });
      assert.deepEqual(set.json.config.instanceTypes, ['1xNOPE']);
      assert.equal(
        (await call('POST', '/cluster/create', { body: { instance_type: '1xNOPE' } })).status,
        202,
      );
      assert.equal(
        (await call('POST', '/cluster/create', { body: { instance_type: '1xH100' } })).status,
        422,
      );
      assert.equal((await control('POST', 'config', { instanceTypes: [] })).status, 400);
      assert.equal((await control('POST', 'config', { instanceTypes: 'x' })).status, 400);
      await control('POST', 'reset', {});
      assert.equal((await control('GET', 'config')).json.config.instanceTypes.length, 19);

      const other = await startEngine({ tokens: ['tp_other_engine_token_xx'], instanceTypes: ['2xA100'] });
      try {
        const res = await fetch(`${other.url}/cluster/create`, {
          method: 'POST',
          headers: { authorization: 'Bearer tp_other_engine_token_xx', 'content-type': 'application/json' },
          body: JSON.stringify({ instance_type: '8xH100' }),
        });
        assert.equal(res.status, 422);
      } finally {
        await other.close();
      }
    });
  });

  describe('refusal bodies', () => {
    it('404 and 409 carry message as well as detail; 401/403 keep error; 422 keeps the detail list', async () => {
      const missing = await call('GET', '/cluster/info/c_nope');
      assert.equal(missing.status, 404);
      assert.equal(missing.json.message, missing.json.detail);
      assert.match(missing.json.message, /c_nope/);

      const key = sshKey('a@b');
      await call('POST', '/user/ssh-key/add', { body: { public_key: key } });
      const dup = await call('POST', '/user/ssh-key/add', { body: { public_key: key } });
      assert.equal(dup.status, 409);
      assert.match(dup.json.message, /already registered/);
      assert.equal(dup.json.detail, dup.json.message);

      const anon = await call('GET', '/me', { token: null });
      assert.equal(anon.status, 401);
      assert.equal(typeof anon.json.error, 'string');
      const ro = await call('POST', '/user/ssh-key/add', { token: RO_TOKEN, body: { public_key: key } });
      assert.equal(ro.status, 403);
      assert.equal(typeof ro.json.error, 'string');

      const bad = await call('POST', '/cluster/create', { body: {} });
      assert.equal(bad.status, 422);
      assert.ok(Array.isArray(bad.json.detail));
      assert.equal(bad.json.message, undefined);

      assert.deepEqual((await call('GET', '/no/such/route')).json, { detail: 'Not Found' });
    });
  });

  describe('object storage and requests', () => {
    it('bucket list answers plain names, the way the official client prints them', async () => {
      await call('POST', '/object-storage/enable');
      await call('PUT', '/object-storage/bucket/create/alpha-one');
      await call('PUT', '/object-storage/bucket/create/beta-two');
      const list = await call('GET', '/object-storage/bucket/list');
      assert.deepEqual(list.json.buckets, ['alpha-one', 'beta-two']);
      assert.match(list.json.message, /alpha-one/);
      const rclone = await call('GET', '/object-storage/configure/rclone');
      assert.equal(rclone.json.remote_name, 'tp');
      assert.match(rclone.json.rclone_config, /^\[tp\]/);
    });

    it('a finished request carries a short human message; an unfinished one does not', async () => {
      await control('POST', 'config', { pendingMs: 60_000 });
      const slow = await call('POST', '/cluster/create', { body: { instance_type: '1xH100' } });
      const pending = await call('GET', `/request/info/${slow.json.request_id}`);
      assert.equal(pending.json.status, 'PENDING');
      assert.equal(pending.json.message, undefined);

      await control('POST', 'config', { pendingMs: 0, processingMs: 0, failCreates: 1 });
      const failed = await call('POST', '/cluster/create', { body: { instance_type: '1xH100' } });
      const ok = await call('POST', '/cluster/create', { body: { instance_type: '1xH100' } });
      const f = await call('GET', `/request/info/${failed.json.request_id}`);
      assert.equal(f.json.status, 'FAILED');
      assert.match(f.json.message, /could not be created: .*insufficient capacity/);
      const c = await call('GET', `/request/info/${ok.json.request_id}`);
      assert.equal(c.json.status, 'COMPLETED');
      assert.equal(c.json.message, `Cluster ${ok.json.cluster_id} is ready.`);
    });
  });

  describe('POST /health', () => {
    const health = (body: unknown, headers: Record<string, string> = {}) =>
      call('POST', '/health', { token: null, body, headers });

    it('answers 200 to any client until a minimum version is configured, and logs X-Client-Type', async () => {
      const r = await health({ package_version: '0.0.1', uname: 'Linux' }, { 'x-client-type': 'cli' });
      assert.equal(r.status, 200);
      const { json } = await control('GET', 'log');
      const entry = (json.entries as Json[]).find((e) => e.path === '/health');
      assert.equal(entry?.clientType, 'cli');
      assert.deepEqual(entry?.body, { package_version: '0.0.1', uname: 'Linux' });
    });

    it('minClientVersion: an older, missing or unreadable package_version gets a non-200 message to update', async () => {
      assert.equal((await control('POST', 'config', { minClientVersion: 'soon' })).status, 400);
      await control('POST', 'config', { minClientVersion: '1.2.0' });
      for (const body of [{ package_version: '1.1.9' }, { uname: 'x' }, { package_version: 'new' }]) {
        const r = await health(body);
        assert.equal(r.status, 426, JSON.stringify(body));
        assert.match(r.json.message, /1\.2\.0 or later is required/);
        assert.match(r.json.message, /update/i);
      }
      for (const v of ['1.2.0', '1.10.0', 'v2.0', '1.2.0-beta']) {
        assert.equal((await health({ package_version: v })).status, 200, v);
      }
      await control('POST', 'config', { minClientVersion: null });
      assert.equal((await health({ package_version: '0.0.1' })).status, 200);
    });
  });

  describe('SSH keys', () => {
    it('add answers {key_id, message}; the name defaults to the comment; org listing shows teammates', async () => {
      const added = await call('POST', '/user/ssh-key/add', { body: { public_key: sshKey('me@laptop') } });
      assert.equal(added.status, 200);
      assert.match(added.json.message, /me@laptop/);
      await call('POST', '/user/ssh-key/add', {
        token: TOKEN2,
        body: { public_key: sshKey('them@desk'), name: 'desk' },
      });
      const mine = await call('GET', '/user/ssh-key/list');
      assert.deepEqual(
        (mine.json.keys as Json[]).map((k) => k.name),
        ['me@laptop'],
      );
      const org = await call('GET', '/user/ssh-key/list?include_org=True');
      assert.deepEqual((org.json.keys as Json[]).map((k) => k.name).sort(), ['desk', 'me@laptop']);
      assert.match(org.json.message, /OWNER/);
      assert.equal((await call('GET', '/user/ssh-key/list?include_org=maybe')).status, 422);
      const gone = await call('DELETE', `/user/ssh-key/remove/${added.json.key_id}`);
      assert.match(gone.json.message, /removed/);
    });
  });
});
