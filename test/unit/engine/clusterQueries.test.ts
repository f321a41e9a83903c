// The local engine over real HTTP: cluster listings and info (scoping by token and organisation), and the ssh command.
import * as assert from 'node:assert/strict';
import { assertIssue, call, control, create, type Json, TOKEN2, useEngine } from './engineHttp';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('cluster list and info', () => {
    it('include_org scoping: own clusters by default, the organisation with include_org (Python True too)', async () => {
      const mine = await create({ tp_cluster_name: 'mine' });
      const theirs = await create({ tp_cluster_name: 'theirs' }, TOKEN2);
      const own = await call('GET', '/cluster/list');
      assert.deepEqual(
        (own.json.clusters as Json[]).map((c) => c.id),
        [mine.cluster_id],
      );
      assert.match(own.json.message, /mine/);
      assert.doesNotMatch(own.json.message, /theirs/);
      for (const q of ['include_org=true', 'include_org=True', 'include_org=1']) {
        const org = await call('GET', `/cluster/list?${q}`);
        assert.deepEqual(
          (org.json.clusters as Json[]).map((c) => c.id).sort(),
          [mine.cluster_id, theirs.cluster_id].sort(),
          q,
        );
        assert.match(org.json.message, /theirs/);
        assert.match(org.json.message, /dev2@tensorpool\.local/);
      }
      assert.equal((await call('GET', '/cluster/list?include_org=false')).json.clusters.length, 1);
      assertIssue(await call('GET', '/cluster/list?include_org=maybe'), 'bool_parsing', [
        'query',
        'include_org',
      ]);
      // Org members can see (and address) each other's clusters and requests.
      assert.equal((await call('GET', `/cluster/info/${theirs.cluster_id}`)).status, 200);
      assert.equal((await call('GET', `/request/info/${theirs.request_id}`)).status, 200);
    });

    it('structured items carry the documented fields; instances only with instances=true', async () => {
      await create({ num_nodes: 2, tp_cluster_name: 'shape' });
      const plain = (await call('GET', '/cluster/list')).json.clusters[0] as Json;
      for (const k of [
        'id',
        'name',
        'instance_type',
        'num_nodes',
        'status',
        'deletion_protection',
        'created_at',
        'owner',
        'container',
      ])
        assert.ok(k in plain, k);
      assert.equal(plain.instances, undefined);
      const withInst = await call('GET', '/cluster/list?instances=true');
      const item = withInst.json.clusters[0] as Json;
      assert.equal(item.instances.length, 2);
      for (const i of item.instances as Json[])
        assert.deepEqual(Object.keys(i).sort(), ['id', 'ip', 'private_ip', 'status']);
      assert.match(withInst.json.message, new RegExp(item.instances[1].id));
    });

    it('info answers with the message text and the same fields at top level', async () => {
      const c = await create({ tp_cluster_name: 'info-me' });
      const r = await call('GET', `/cluster/info/${c.cluster_id}`);
      assert.equal(r.status, 200);
      assert.match(r.json.message, new RegExp(c.cluster_id));
      assert.match(r.json.message, new RegExp(c.instance_ids[0]));
      assert.equal(r.json.id, c.cluster_id);
      assert.equal(r.json.name, 'info-me');
      assert.equal(r.json.instances[0].id, c.instance_ids[0]);
    });

    it("listMode 'text' answers with only the message; 'structured' with only the fields", async () => {
      await create({ tp_cluster_name: 'texty' });
      await control.config({ listMode: 'text' });
      const list = await call('GET', '/cluster/list?include_org=true&instances=true');
      assert.deepEqual(Object.keys(list.json), ['message']);
      assert.match(list.json.message, /texty/);
      const info = await call('GET', '/cluster/info/texty');
      assert.deepEqual(Object.keys(info.json), ['message']);
      await control.config({ listMode: 'structured' });
      const s = await call('GET', '/cluster/list');
      assert.deepEqual(Object.keys(s.json), ['clusters']);
      assert.equal((await call('GET', '/cluster/info/texty')).json.message, undefined);
    });

    it('an empty list still says something', async () => {
      const r = await call('GET', '/cluster/list');
      assert.deepEqual(r.json.clusters, []);
      assert.match(r.json.message, /No clusters/);
    });
  });

  describe('ssh command', () => {
    it('{command, message} for a running instance; the system may be capitalised like platform.system()', async () => {
      await control.config({ pendingMs: 0, processingMs: 0 });
      const c = await create();
      const ip = (await call('GET', `/cluster/info/${c.cluster_id}`)).json.instances[0].ip as string;
      for (const system of ['linux', 'Darwin', 'windows']) {
        const r = await call('GET', `/ssh/${c.instance_ids[0]}?system=${system}`);
        assert.equal(r.status, 200, r.text);
        assert.ok(r.json.command.includes(`@${ip}`), r.json.command);
        assert.match(r.json.command, /^ssh /);
        assert.equal(typeof r.json.message, 'string');
      }
      assertIssue(await call('GET', `/ssh/${c.instance_ids[0]}?system=plan9`), 'enum', ['query', 'system']);
    });

    it('409 while the instance has no address yet', async () => {
      await control.config({ pendingMs: 60_000 });
      const c = await create();
      const r = await call('GET', `/ssh/${c.instance_ids[0]}?system=linux`);
      assert.equal(r.status, 409);
      assert.match(r.json.detail, /not reachable yet/);
    });
  });
});
