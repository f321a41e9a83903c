// The local engine over real HTTP: starting and stopping, health checks, bearer-token auth (full,
// read-only, unknown), and the account route.
import * as assert from 'node:assert/strict';
import { startEngine } from '../../../engine/server';
import { sleep } from '../../shared/wait';
import {
  call,
  create,
  engine,
  type Json,
  RO_TOKEN,
  sshKey,
  TOKEN,
  TOKEN2,
  UNKNOWN_TOKEN,
  useEngine,
} from './engineHttp';
import { EngineControl } from '../../shared/engineControl';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('startEngine', () => {
    it('listens on a free loopback port and reports its tokens', () => {
      assert.match(engine.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(engine.port > 0);
      assert.equal(engine.url, `http://127.0.0.1:${engine.port}`);
      assert.deepEqual(engine.tokens, [TOKEN, TOKEN2]);
    });

    it('uses tp_local_dev_token by default, and close() ends hung connections', async () => {
      const other = await startEngine({ port: 0 });
      try {
        assert.deepEqual(other.tokens, ['tp_local_dev_token']);
        const me = await fetch(`${other.url}/me`, {
          headers: { authorization: 'Bearer tp_local_dev_token' },
        });
        assert.equal(me.status, 200);
        await new EngineControl(other.url).fault({ path: '/me', action: 'hang' });
        const hung = fetch(`${other.url}/me`, {
          headers: { authorization: 'Bearer tp_local_dev_token' },
        }).then(
          () => 'answered',
          () => 'failed',
        );
        await sleep(50);
        const t0 = Date.now();
        await other.close();
        assert.ok(Date.now() - t0 < 1000, 'close does not wait for the hung call');
        assert.equal(await hung, 'failed');
      } finally {
        await other.close();
      }
    });

    it('refuses a token that is both full-access and read-only', async () => {
      await assert.rejects(
        startEngine({ port: 0, tokens: ['tp_same_token'], readonlyTokens: ['tp_same_token'] }),
      );
    });
  });

  describe('health and auth', () => {
    it('GET /healthz and POST /health need no token', async () => {
      const z = await call('GET', '/healthz', { token: null });
      assert.equal(z.status, 200);
      assert.equal(z.json.status, 'ok');
      // What the official CLI sends before each command.
      const h = await call('POST', '/health', {
        token: null,
        body: { package_version: '1.0.0', uname: ['Linux'] },
      });
      assert.equal(h.status, 200);
      assert.equal(typeof h.json.message, 'string');
    });

    it('401 {error} for a missing, unknown or non-bearer token', async () => {
      const variants: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${UNKNOWN_TOKEN}` },
        { authorization: `Basic ${TOKEN}` },
        { authorization: 'Bearer' },
      ];
      for (const headers of variants) {
        const r = await call('GET', '/cluster/list', { token: null, headers });
        assert.equal(r.status, 401, JSON.stringify(headers));
        assert.equal(typeof r.json.error, 'string');
        assert.ok(r.json.error.length > 0);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer');
      }
      // Every authenticated route, not just one.
      for (const [m, p] of [
        ['GET', '/me'],
        ['POST', '/cluster/create'],
        ['DELETE', '/cluster/x'],
        ['GET', '/object-storage/credentials'],
        ['PUT', '/object-storage/bucket/create/abc'],
      ]) {
        assert.equal((await call(m, p, { token: null })).status, 401, `${m} ${p}`);
      }
    });

    it('the bearer scheme is case-insensitive', async () => {
      const r = await call('GET', '/me', { token: null, headers: { authorization: `bearer ${TOKEN}` } });
      assert.equal(r.status, 200);
    });

    it('read-only token: reads work, every mutating call is 403 {error} and changes nothing', async () => {
      const mine = await create({ tp_cluster_name: 'ro-target' });
      assert.equal((await call('GET', '/cluster/list', { token: RO_TOKEN })).status, 200);
      assert.equal((await call('GET', '/me', { token: RO_TOKEN })).json.readonly, true);
      const attempts: [string, string, unknown][] = [
        ['POST', '/cluster/create', { instance_type: '1xH100' }],
        ['PATCH', `/cluster/edit/${mine.cluster_id}`, { deletion_protection: true }],
        ['DELETE', `/cluster/${mine.cluster_id}`, undefined],
        ['POST', '/user/ssh-key/add', { public_key: sshKey() }],
        ['DELETE', '/user/ssh-key/remove/key_x', undefined],
        ['POST', '/object-storage/enable', undefined],
        ['POST', '/object-storage/rotate-keys', undefined],
        ['DELETE', '/object-storage/disable', undefined],
        ['PUT', '/object-storage/bucket/create/ro-bucket', undefined],
        ['DELETE', '/object-storage/bucket/delete/ro-bucket', undefined],
      ];
      for (const [m, p, body] of attempts) {
        const r = await call(m, p, { token: RO_TOKEN, body });
        assert.equal(r.status, 403, `${m} ${p}: ${r.text}`);
        assert.equal(typeof r.json.error, 'string');
      }
      const list = await call('GET', '/cluster/list?include_org=true');
      assert.equal(list.json.clusters.length, 1);
      assert.equal(list.json.clusters[0].deletion_protection, false);
      assert.equal((await call('GET', '/object-storage/credentials')).status, 404);
    });

    it('unknown paths are 404 and wrong methods 405, FastAPI style', async () => {
      const r = await call('GET', '/no/such/route');
      assert.equal(r.status, 404);
      assert.deepEqual(r.json, { detail: 'Not Found' });
      const m = await call('POST', '/cluster/list');
      assert.equal(m.status, 405);
      assert.equal(m.json.detail, 'Method Not Allowed');
      assert.match(m.headers.get('allow') ?? '', /GET/);
    });
  });

  describe('account', () => {
    it('GET /me and GET /user/info describe the caller', async () => {
      const me = await call('GET', '/me');
      assert.equal(me.status, 200);
      assert.equal(me.json.uid, 'usr_1');
      assert.equal(me.json.email, 'dev1@tensorpool.local');
      assert.equal(me.json.org_id, 'org_local');
      assert.equal(typeof me.json.name, 'string');
      const other = await call('GET', '/me', { token: TOKEN2 });
      assert.equal(other.json.uid, 'usr_2');
      assert.equal(other.json.email, 'dev2@tensorpool.local');
      const info = await call('GET', '/user/info');
      assert.equal(info.status, 200);
      assert.match(info.json.message, /dev1@tensorpool\.local/);
      assert.match(info.json.message, /Local Dev Org/);
      assert.equal(info.json.uid, 'usr_1');
    });

    it('GET /user/organization/info lists every member and the balance', async () => {
      const r = await call('GET', '/user/organization/info');
      assert.equal(r.status, 200);
      assert.equal(r.json.org_name, 'Local Dev Org');
      assert.equal(typeof r.json.balance, 'number');
      const emails = (r.json.members as Json[]).map((m) => m.email);
      assert.ok(
        emails.includes('dev1@tensorpool.local') &&
          emails.includes('dev2@tensorpool.local') &&
          emails.includes('readonly1@tensorpool.local'),
      );
      for (const m of r.json.members as Json[]) assert.match(m.uid, /^usr_\d+$/);
      // The read-only user is a separate member of the same organisation.
      assert.equal((await call('GET', '/me', { token: RO_TOKEN })).json.org_id, 'org_local');
    });
  });
});
