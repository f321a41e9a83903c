// The local engine over real HTTP: injected faults (status codes, resets, hangs, slow and cut-off
// answers) and the request log.
import * as assert from 'node:assert/strict';
import {
  call,
  control,
  create,
  engine,
  type Json,
  rawCall,
  RO_TOKEN,
  TOKEN,
  TOKEN2,
  UNKNOWN_TOKEN,
  useEngine,
  waitRequest,
} from './engineHttp';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('faults', () => {
    it('respond: the given status/body/headers for the next N calls, then the real handler', async () => {
      await control.fault({
        method: 'GET',
        path: '/cluster/list',
        times: 2,
        status: 503,
        body: { detail: 'maintenance' },
        headers: { 'Retry-After': '3' },
      });
      for (let i = 0; i < 2; i++) {
        const r = await call('GET', '/cluster/list');
        assert.equal(r.status, 503);
        assert.deepEqual(r.json, { detail: 'maintenance' });
        assert.equal(r.headers.get('retry-after'), '3');
      }
      assert.equal((await call('GET', '/cluster/list')).status, 200);
      assert.deepEqual(await control.faults(), []);
    });

    it('respond with rawBody and contentType; method filter; prefix paths with *', async () => {
      await control.fault({
        path: '/object-storage/*',
        status: 502,
        rawBody: '<html>Bad Gateway</html>',
        contentType: 'text/html',
      });
      await control.fault({ method: 'POST', path: '/me', status: 500 });
      const r = await call('GET', '/object-storage/credentials');
      assert.equal(r.status, 502);
      assert.equal(r.text, '<html>Bad Gateway</html>');
      assert.equal(r.headers.get('content-type'), 'text/html');
      // Method filter: GET /me is not affected by the POST fault.
      assert.equal((await call('GET', '/me')).status, 200);
      const listed = (await control.faults()) as Json[];
      assert.equal(listed.length, 1);
      await control.removeFault(listed[0].id);
      assert.deepEqual(await control.faults(), []);
    });

    it('faults apply to unauthenticated calls too (they run before auth)', async () => {
      await control.fault({ path: '/me', status: 429, body: { detail: 'slow down' } });
      const r = await call('GET', '/me', { token: null });
      assert.equal(r.status, 429);
    });

    it('drop: the socket is destroyed and the handler never runs', async () => {
      await control.fault({ method: 'POST', path: '/cluster/create', action: 'drop' });
      const r = await rawCall('POST', '/cluster/create', { body: { instance_type: '1xH100' } });
      assert.ok('error' in r, JSON.stringify(r));
      assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 0);
      const [entry] = ((await control.log()) as Json[]).filter((e) => e.path === '/cluster/create');
      assert.equal(entry.status, null);
      assert.equal(entry.fault, 'drop');
    });

    it('drop-after: the handler runs (the cluster IS created) but no answer arrives', async () => {
      await control.fault({ method: 'POST', path: '/cluster/create', action: 'drop-after' });
      const r = await rawCall('POST', '/cluster/create', {
        body: { instance_type: '1xH100', tp_cluster_name: 'ghost' },
      });
      assert.ok('error' in r, JSON.stringify(r));
      const list = (await call('GET', '/cluster/list')).json.clusters as Json[];
      assert.deepEqual(
        list.map((c) => c.name),
        ['ghost'],
      );
      const [entry] = ((await control.log()) as Json[]).filter((e) => e.path === '/cluster/create');
      assert.equal(entry.status, null);
      assert.equal(entry.user, 'usr_1');
      // A retry by the client now meets the duplicate name.
      assert.equal(
        (
          await call('POST', '/cluster/create', {
            body: { instance_type: '1xH100', tp_cluster_name: 'ghost' },
          })
        ).status,
        409,
      );
    });

    it('truncate: the real status with only the first part of the JSON body', async () => {
      // A settled cluster: a listing read while it provisions could change between the two reads.
      const { request_id } = await create({ tp_cluster_name: 'cut-me' });
      await waitRequest(request_id as string, 'COMPLETED');
      const whole = (await call('GET', '/cluster/list')).text;
      await control.fault({ path: '/cluster/list', action: 'truncate' });
      const r = await call('GET', '/cluster/list');
      assert.equal(r.status, 200);
      assert.ok(r.text.length > 0 && r.text.length < whole.length);
      assert.ok(whole.startsWith(r.text));
      assert.throws(() => JSON.parse(r.text));
      const entry = ((await control.log()) as Json[]).filter((e) => e.path === '/cluster/list').at(-1)!;
      assert.equal(entry.status, 200);
      assert.equal(entry.fault, 'truncate');
    });

    it('hang: no answer until the client gives up', async () => {
      await control.fault({ path: '/me', action: 'hang' });
      const t0 = Date.now();
      const r = await rawCall('GET', '/me', { timeoutMs: 300 });
      assert.ok('error' in r && /client timeout/.test(r.error), JSON.stringify(r));
      assert.ok(Date.now() - t0 >= 290);
      const ac = new AbortController();
      await control.fault({ path: '/me', action: 'hang' });
      setTimeout(() => ac.abort(), 100);
      await assert.rejects(
        fetch(`${engine.url}/me`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: ac.signal }),
      );
    });

    it('delayMs: waits, then handles normally (or applies the action)', async () => {
      await control.fault({ path: '/me', delayMs: 200 });
      let t0 = Date.now();
      const r = await call('GET', '/me');
      assert.equal(r.status, 200);
      assert.ok(Date.now() - t0 >= 190);
      await control.fault({ path: '/me', delayMs: 150, status: 504 });
      t0 = Date.now();
      assert.equal((await call('GET', '/me')).status, 504);
      assert.ok(Date.now() - t0 >= 140);
    });

    it('times: -1 applies until removed; bad fault specs are 400', async () => {
      await control.fault({ path: '/me', times: -1, status: 500 });
      for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/me')).status, 500);
      await control.clearFaults();
      assert.equal((await call('GET', '/me')).status, 200);
      for (const spec of [
        {},
        { path: 'no-slash' },
        { path: '/me', action: 'explode' },
        { path: '/me', times: 0 },
        { path: '/me', status: 42 },
        { path: '/me', bogus: 1 },
      ]) {
        const res = await control.unchecked('POST', 'faults', spec);
        assert.equal(res.status, 400, JSON.stringify(spec));
        assert.equal(typeof res.json.error, 'string');
      }
    });
  });

  describe('request log', () => {
    it('records method, path, query, body, status, user, redacted authorization and user agent', async () => {
      await call('POST', '/cluster/create', {
        body: { instance_type: '2xH100', tp_cluster_name: 'logged' },
        headers: { 'user-agent': 'unit-test/1.0' },
      });
      await call('GET', '/cluster/list?include_org=true&instances=true');
      await call('GET', '/me', { token: null });
      await control.state(); // control calls are never logged
      const entries = (await control.log()) as Json[];
      assert.deepEqual(
        entries.map((e) => `${e.method} ${e.path} ${e.status}`),
        ['POST /cluster/create 202', 'GET /cluster/list 200', 'GET /me 401'],
      );
      const [post, list, anon] = entries;
      assert.deepEqual(post.body, { instance_type: '2xH100', tp_cluster_name: 'logged' });
      assert.equal(post.rawBody, JSON.stringify({ instance_type: '2xH100', tp_cluster_name: 'logged' }));
      assert.equal(post.user, 'usr_1');
      assert.equal(post.authorization, 'Bearer [redacted]');
      assert.equal(post.userAgent, 'unit-test/1.0');
      assert.equal(typeof post.seq, 'number');
      assert.ok(!Number.isNaN(Date.parse(post.time)));
      assert.deepEqual(list.query, { include_org: 'true', instances: 'true' });
      assert.equal(list.body, null);
      assert.equal(anon.user, null);
      assert.equal(anon.authorization, null);
      const since = (await control.log(post.seq)) as Json[];
      assert.equal(since.length, 2);
      await control.clearLog();
      assert.deepEqual(await control.log(), []);
    });

    it('no token string ever appears in the log, wherever the caller put it', async () => {
      await call('GET', '/me');
      await call('GET', '/me', { token: TOKEN2 });
      await call('GET', '/me', { token: RO_TOKEN });
      await call('GET', '/me', { token: UNKNOWN_TOKEN });
      await call('GET', '/me', { token: null, headers: { authorization: `Token ${UNKNOWN_TOKEN}x` } });
      // The official CLI's old health check sent the key in the body.
      await call('POST', '/health', { token: null, body: { key: TOKEN, package_version: '1.0' } });
      await call('GET', `/cluster/list?leak=${TOKEN2}`);
      await call('POST', '/cluster/create', { raw: `{"instance_type": "${RO_TOKEN}"` });
      await control.fault({ path: '/me', action: 'drop' });
      await rawCall('GET', '/me');
      const text = JSON.stringify(await control.log());
      for (const secret of [TOKEN, TOKEN2, RO_TOKEN, UNKNOWN_TOKEN])
        assert.ok(!text.includes(secret), `log leaks ${secret}`);
      assert.ok(text.includes('[redacted]'));
      const entries = (await control.log()) as Json[];
      assert.equal(entries.length, 9);
      assert.deepEqual(entries.find((e) => e.path === '/health')!.body, {
        key: '[redacted]',
        package_version: '1.0',
      });
      // Nor in the state dump.
      const state = JSON.stringify(await control.state());
      for (const secret of [TOKEN, TOKEN2, RO_TOKEN]) assert.ok(!state.includes(secret));
    });
  });
});
