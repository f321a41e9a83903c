// The local engine over real HTTP: the control surface (/_engine/*): configuration, reset, seeds and big listings.
import * as assert from 'node:assert/strict';
import { call, control, create, type Json, TOKEN2, useEngine, waitRequest } from './engineHttp';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('control surface', () => {
    it('config: partial updates, unknown fields and bad values are 400', async () => {
      const c = await control.config({ failCreates: 2, listMode: 'text' });
      assert.equal(c.failCreates, 2);
      assert.equal(c.listMode, 'text');
      assert.equal(c.pendingMs, 30, 'other fields keep their values');
      for (const bad of [{ failCreate: 1 }, { pendingMs: -1 }, { stuck: 'yes' }, { listMode: 'xml' }]) {
        const res = await control.unchecked('POST', 'config', bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
      }
      await control.reset();
      assert.equal((await control.getConfig()).failCreates, 0, 'reset restores the start-up config');
    });

    it('reset clears state, log and faults', async () => {
      await create();
      await control.fault({ path: '/me', status: 500 });
      await control.reset();
      assert.deepEqual(await control.log(), []);
      assert.deepEqual(await control.faults(), []);
      assert.equal((await call('GET', '/cluster/list?include_org=true')).json.clusters.length, 0);
      assert.equal((await call('GET', '/me')).status, 200);
    });

    it("reset {seed: 'demo'}: the demo clusters, a teammate's cluster for include_org, storage disabled", async () => {
      await control.reset('demo');
      const own = (await call('GET', '/cluster/list?instances=true')).json.clusters as Json[];
      const big = own.find((c) => c.instance_type === '8xH100' && c.num_nodes === 2)!;
      assert.ok(big, 'a 2-node 8xH100');
      assert.equal(big.status, 'RUNNING');
      assert.equal(big.deletion_protection, true);
      assert.ok(own.some((c) => c.instance_type === '1xH100' && c.status === 'RUNNING'));
      assert.ok(own.some((c) => c.status === 'FAILED'));
      const provisioning = own.find((c) => c.status === 'PENDING' || c.status === 'PROVISIONING')!;
      assert.ok(provisioning, 'one cluster is provisioning');
      const org = (await call('GET', '/cluster/list?include_org=true')).json.clusters as Json[];
      assert.equal(org.length, own.length + 1);
      assert.ok(org.some((c) => c.owner_email === 'teammate@tensorpool.local'));
      assert.equal((await call('GET', '/object-storage/credentials')).status, 404);
      // The provisioning cluster completes after the configured durations.
      const ops = (await call('GET', `/cluster/operations/${provisioning.id}`)).json.operations as Json[];
      await waitRequest(ops[0].request_id, 'COMPLETED');
      assert.equal((await call('GET', `/cluster/info/${provisioning.id}`)).json.status, 'RUNNING');
      // The failed one explains why.
      const failed = own.find((c) => c.status === 'FAILED')!;
      const fops = (await call('GET', `/cluster/operations/${failed.id}`)).json.operations as Json[];
      assert.equal(fops[0].status, 'FAILED');
      assert.equal(typeof fops[0].external_message, 'string');
    });

    it('state dump shows clusters, requests and config', async () => {
      const c = await create({ tp_cluster_name: 'dumped' });
      const s = await control.state();
      assert.equal(s.clusters[0].id, c.cluster_id);
      assert.deepEqual(s.clusters[0].request_ids, [c.request_id]);
      assert.equal(s.requests[0].request_id, c.request_id);
      assert.equal(s.config.pendingMs, 30);
      assert.ok((s.users as Json[]).some((u) => u.uid === 'usr_1' && u.readonly === false));
      assert.equal(s.object_storage, null);
    });

    it('objects: 404 for an unknown bucket', async () => {
      await call('POST', '/object-storage/enable');
      const res = await control.unchecked('POST', 'objects', { bucket: 'nope', key: 'k' });
      assert.equal(res.status, 404);
    });

    it('bulk seed of 10,000 running clusters; listing them stays fast', async () => {
      let t0 = Date.now();
      const seeded = await control.seed({ clusters: 10_000 });
      const seedMs = Date.now() - t0;
      assert.equal(seeded.created, 10_000);
      assert.equal(seeded.owner, 'usr_1');
      t0 = Date.now();
      const r = await call('GET', '/cluster/list?include_org=true&instances=true');
      const listMs = Date.now() - t0;
      assert.equal(r.status, 200);
      assert.equal(r.json.clusters.length, 10_000);
      assert.ok(
        (r.json.clusters as Json[]).every((c) => c.status === 'RUNNING' && c.instances[0].ip !== null),
      );
      assert.equal(r.json.message.split('\n').filter((l: string) => /^c-/.test(l)).length, 10_000);
      // About 100 ms on an idle machine; the bounds leave room for a busy 2-core CI runner.
      assert.ok(listMs < 3000, `list took ${listMs} ms`);
      assert.ok(seedMs < 4000, `seed took ${seedMs} ms`);
      // Names continue without clashing; another user's seed is theirs.
      assert.equal((await control.seed({ clusters: 5, token: TOKEN2, prefix: 'other' })).owner, 'usr_2');
      assert.equal((await call('GET', '/cluster/list', { token: TOKEN2 })).json.clusters.length, 5);
      assert.equal((await control.seed({ clusters: 3 })).created, 3);
      assert.equal((await call('GET', '/cluster/info/bulk-10003')).status, 200);
    });
  });
});
