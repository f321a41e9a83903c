// The local engine over real HTTP: the lazy request lifecycle (PENDING, PROCESSING, COMPLETED without
// timers), destroy, and cluster edits.
import * as assert from 'node:assert/strict';
import { sleep } from '../../shared/wait';
import {
  assertIssue,
  call,
  control,
  create,
  type Json,
  poll,
  requestStatus,
  useEngine,
  waitRequest,
} from './engineHttp';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('cluster lifecycle (lazy, no timers)', () => {
    it('create walks PENDING -> PROCESSING -> COMPLETED with Retry-After until terminal; the cluster follows', async () => {
      await control.config({ pendingMs: 400, processingMs: 300 });
      const c = await create({ num_nodes: 2 });
      const first = await call('GET', `/request/info/${c.request_id}`);
      assert.equal(first.status, 200);
      assert.equal(first.json.status, 'PENDING');
      assert.equal(first.json.request_id, c.request_id);
      assert.equal(first.json.request_type, 'CLUSTER_CLAIM');
      assert.equal(first.json.object_id, c.cluster_id);
      assert.ok(!Number.isNaN(Date.parse(first.json.created_at)));
      assert.equal(first.headers.get('retry-after'), '1');
      let info = (await call('GET', `/cluster/info/${c.cluster_id}`)).json;
      assert.equal(info.status, 'PENDING');
      assert.equal(info.instances[0].ip, null);

      const processing = await poll(
        'PROCESSING',
        () => call('GET', `/request/info/${c.request_id}`),
        (r) => r.json.status !== 'PENDING',
      );
      assert.equal(processing.json.status, 'PROCESSING');
      assert.equal(processing.headers.get('retry-after'), '1');
      info = (await call('GET', `/cluster/info/${c.cluster_id}`)).json;
      assert.equal(info.status, 'PROVISIONING');

      const done = await poll(
        'COMPLETED',
        () => call('GET', `/request/info/${c.request_id}`),
        (r) => r.json.status !== 'PROCESSING',
      );
      assert.equal(done.json.status, 'COMPLETED');
      assert.equal(done.headers.get('retry-after'), null, 'no Retry-After once terminal');
      assert.equal(done.json.external_message, undefined);
      info = (await call('GET', `/cluster/info/${c.cluster_id}`)).json;
      assert.equal(info.status, 'RUNNING');
      assert.equal(info.instances.length, 2);
      for (const i of info.instances as Json[]) {
        assert.equal(i.status, 'RUNNING');
        assert.match(i.ip, /^203\.0\.113\.\d+$/);
        assert.match(i.private_ip, /^198\.51\.100\.\d+$/);
      }
    });

    it('failCreates: the next N creations end FAILED with an external_message, then creations succeed again', async () => {
      await control.config({ failCreates: 1, pendingMs: 0, processingMs: 0 });
      const bad = await create();
      const good = await create();
      const r = await call('GET', `/request/info/${bad.request_id}`);
      assert.equal(r.json.status, 'FAILED');
      assert.equal(typeof r.json.external_message, 'string');
      assert.ok(r.json.external_message.length > 0);
      assert.equal(r.headers.get('retry-after'), null);
      const info = (await call('GET', `/cluster/info/${bad.cluster_id}`)).json;
      assert.equal(info.status, 'FAILED');
      assert.equal(info.instances[0].ip, null);
      assert.equal(await requestStatus(good.request_id), 'COMPLETED');
      assert.equal((await call('GET', `/cluster/info/${good.cluster_id}`)).json.status, 'RUNNING');
      // A failed cluster can still be destroyed.
      const d = await call('DELETE', `/cluster/${bad.cluster_id}`);
      assert.equal(d.status, 202);
    });

    it('stuck: requests stay PROCESSING forever (with Retry-After)', async () => {
      await control.config({ stuck: true, pendingMs: 0, processingMs: 5 });
      const c = await create();
      await sleep(80);
      const r = await call('GET', `/request/info/${c.request_id}`);
      assert.equal(r.json.status, 'PROCESSING');
      assert.equal(r.headers.get('retry-after'), '1');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.status, 'PROVISIONING');
    });

    it('retrying: requests pass through RETRYING once before they end', async () => {
      await control.config({ retrying: true, pendingMs: 40, processingMs: 150 });
      const c = await create();
      const seen = new Set<string>();
      await poll(
        'terminal',
        async () => {
          const s = await requestStatus(c.request_id);
          seen.add(s);
          return s;
        },
        (s) => s === 'COMPLETED',
      );
      assert.ok(seen.has('RETRYING'), `saw ${[...seen].join(',')}`);
      assert.ok(seen.has('PROCESSING'));
    });

    it('config changes apply to later requests only; Retry-After follows config', async () => {
      await control.config({ pendingMs: 0, processingMs: 0 });
      const quick = await create();
      await control.config({ pendingMs: 60_000, retryAfterSeconds: 7 });
      const slow = await create();
      assert.equal(await requestStatus(quick.request_id), 'COMPLETED');
      const r = await call('GET', `/request/info/${slow.request_id}`);
      assert.equal(r.json.status, 'PENDING');
      assert.equal(r.headers.get('retry-after'), '7');
    });

    it('destroy: 409 while protected (explains the edit), then 202 {message, request_id}, DESTROYING, gone (404)', async () => {
      await control.config({ pendingMs: 0, processingMs: 0 });
      const c = await create({ tp_cluster_name: 'precious', deletion_protection: true });
      const refused = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.equal(refused.status, 409);
      assert.match(refused.json.detail, /deletion protection/i);
      assert.match(refused.json.detail, /edit/i);
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.status, 'RUNNING');

      const edit = await call('PATCH', `/cluster/edit/${c.cluster_id}`, {
        body: { deletion_protection: false },
      });
      assert.equal(edit.status, 202);
      assert.equal(typeof edit.json.message, 'string');

      await control.config({ pendingMs: 250, processingMs: 250 });
      const d = await call('DELETE', '/cluster/precious'); // by name
      assert.equal(d.status, 202, d.text);
      assert.equal(typeof d.json.message, 'string');
      assert.match(d.json.request_id, /^req_/);
      const info = await call('GET', `/cluster/info/${c.cluster_id}`);
      assert.equal(info.json.status, 'DESTROYING');
      assert.match(info.json.instances[0].ip, /^203\.0\.113\./, 'still addressed while releasing');
      const req = await call('GET', `/request/info/${d.json.request_id}`);
      assert.equal(req.json.request_type, 'CLUSTER_RELEASE');
      assert.equal(req.json.object_id, c.cluster_id);

      // A second destroy while one is under way answers with the same request.
      const again = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.equal(again.status, 202);
      assert.equal(again.json.request_id, d.json.request_id);

      await waitRequest(d.json.request_id, 'COMPLETED');
      const gone = await call('GET', `/cluster/info/${c.cluster_id}`);
      assert.equal(gone.status, 404);
      assert.equal(typeof gone.json.detail, 'string');
      assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 0);
      assert.equal((await call('DELETE', `/cluster/${c.cluster_id}`)).status, 404);
      // The name is free again.
      await create({ tp_cluster_name: 'precious' });
    });

    it('failDestroys: the release ends FAILED and the cluster stays', async () => {
      await control.config({ pendingMs: 0, processingMs: 0, failDestroys: 1 });
      const c = await create();
      const d = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.equal(d.status, 202);
      const r = await call('GET', `/request/info/${d.json.request_id}`);
      assert.equal(r.json.status, 'FAILED');
      assert.equal(typeof r.json.external_message, 'string');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.status, 'RUNNING');
      const retry = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.notEqual(retry.json.request_id, d.json.request_id);
      assert.equal(await requestStatus(retry.json.request_id), 'COMPLETED');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).status, 404);
    });

    it('404 {detail} for unknown clusters, requests and instances', async () => {
      for (const [m, p] of [
        ['GET', '/cluster/info/c-nope'],
        ['DELETE', '/cluster/c-nope'],
        ['GET', '/cluster/operations/c-nope'],
        ['GET', '/request/info/req_nope'],
        ['GET', '/ssh/i-nope'],
      ]) {
        const r = await call(m, p);
        assert.equal(r.status, 404, `${m} ${p}`);
        assert.equal(typeof r.json.detail, 'string');
      }
      const e = await call('PATCH', '/cluster/edit/c-nope', { body: { deletion_protection: true } });
      assert.equal(e.status, 404);
    });

    it('GET /cluster/operations lists the cluster requests, filterable by type and status', async () => {
      await control.config({ pendingMs: 0, processingMs: 0 });
      const c = await create();
      await call('PATCH', `/cluster/edit/${c.cluster_id}`, { body: { cluster_name: 'renamed' } });
      const ops = await call('GET', `/cluster/operations/${c.cluster_id}`);
      assert.equal(ops.status, 200);
      assert.deepEqual(
        (ops.json.operations as Json[]).map((o) => o.request_type),
        ['CLUSTER_CLAIM', 'CLUSTER_EDIT'],
      );
      assert.equal(ops.json.operations[0].request_id, c.request_id);
      assert.equal(typeof ops.json.message, 'string');
      const filtered = await call(
        'GET',
        `/cluster/operations/renamed?request_type=cluster_edit&status=COMPLETED`,
      );
      assert.deepEqual(
        (filtered.json.operations as Json[]).map((o) => o.request_type),
        ['CLUSTER_EDIT'],
      );
    });
  });

  describe('cluster edit', () => {
    it('rename and protection apply at once (202 {message}); id or name both address the cluster', async () => {
      const c = await create({ tp_cluster_name: 'old-name' });
      const r = await call('PATCH', '/cluster/edit/old-name', {
        body: { cluster_name: 'new-name', deletion_protection: true },
      });
      assert.equal(r.status, 202, r.text);
      assert.match(r.json.message, /new-name/);
      const info = await call('GET', '/cluster/info/new-name');
      assert.equal(info.status, 200);
      assert.equal(info.json.id, c.cluster_id);
      assert.equal(info.json.deletion_protection, true);
      assert.equal((await call('GET', '/cluster/info/old-name')).status, 404);
      // Renaming to its own name is fine.
      assert.equal(
        (await call('PATCH', `/cluster/edit/${c.cluster_id}`, { body: { cluster_name: 'new-name' } })).status,
        202,
      );
    });

    it('409 for a rename onto another cluster name', async () => {
      await create({ tp_cluster_name: 'taken' });
      const c = await create({ tp_cluster_name: 'mine' });
      const r = await call('PATCH', `/cluster/edit/${c.cluster_id}`, { body: { cluster_name: 'taken' } });
      assert.equal(r.status, 409);
      assert.equal(typeof r.json.detail, 'string');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.name, 'mine');
    });

    it('422 for an edit with neither field, a blank name, or wrong types', async () => {
      const c = await create();
      const p = `/cluster/edit/${c.cluster_id}`;
      assertIssue(await call('PATCH', p, { body: {} }), 'value_error', ['body']);
      assertIssue(
        await call('PATCH', p, { body: { cluster_name: null, deletion_protection: null } }),
        'value_error',
        ['body'],
      );
      assertIssue(await call('PATCH', p, { body: { cluster_name: '' } }), 'string_too_short', [
        'body',
        'cluster_name',
      ]);
      assertIssue(await call('PATCH', p, { body: { cluster_name: ' \t ' } }), 'string_too_short', [
        'body',
        'cluster_name',
      ]);
      assertIssue(await call('PATCH', p, { body: { cluster_name: 12 } }), 'string_type', [
        'body',
        'cluster_name',
      ]);
      assertIssue(await call('PATCH', p, { body: { deletion_protection: 'true' } }), 'bool_type', [
        'body',
        'deletion_protection',
      ]);
      assertIssue(await call('PATCH', p, { raw: 'nope' }), 'json_invalid', ['body', 0]);
    });
  });
});
