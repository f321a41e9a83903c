/**
 * The client against the engine in text-only mode: every table style reads back as the same
 * clusters, cluster info and SSH keys the structured answers give; /me in words gives the e-mail.
 */
import * as assert from 'node:assert/strict';
import { type TensorPoolClient } from '../../src/api';
import type { Cluster } from '../../src/model/cluster';
import { accountLabel } from '../../src/model/account';
import { startTestEngine, type EngineHandle } from '../fixtures/engine';
import { ED25519_KEY, createInput } from '../fixtures/payloads';
import type { TextStyle } from '../../engine/types';
import { apiClient } from '../shared/apiClient';

const STYLES: TextStyle[] = ['plain', 'markdown', 'grid', 'box', 'heavy', 'keyValue'];

/** What a text answer can honestly carry: timestamps to the second. */
function comparable(c: Cluster) {
  return {
    id: c.id,
    name: c.name,
    instanceType: c.instanceType,
    numNodes: c.numNodes,
    status: c.status,
    deletionProtection: c.deletionProtection,
    created: c.createdAt ? Math.floor(Date.parse(c.createdAt) / 1000) : undefined,
    instances: c.instances.map((i) => ({ id: i.id, status: i.status, ip: i.ip, privateIp: i.privateIp })),
  };
}

describe('text-only answers normalize to the structured model (client against engine)', function () {
  let engine: EngineHandle;
  let client: TensorPoolClient;
  let structured: Cluster[];

  before(async () => {
    engine = await startTestEngine({ pendingMs: 10, processingMs: 10 });
    client = apiClient(engine, {
      userAgent: 'test',
      retryBaseMs: 5,
    });
    await client.createCluster(
      createInput({ tp_cluster_name: 'alpha', num_nodes: 2, instance_type: '8xH100' }),
    );
    await client.createCluster(createInput({ tp_cluster_name: 'beta', deletion_protection: true }));
    const gamma = await client.createCluster(createInput({ tp_cluster_name: 'gamma' }));
    await client.addSshKey({ public_key: ED25519_KEY, name: 'laptop' });
    await new Promise((r) => setTimeout(r, 100)); // every claim completed: addresses are known
    // one cluster still on its way, without addresses
    await engine.config({ pendingMs: 60_000 });
    await client.createCluster(createInput({ tp_cluster_name: 'delta' }));
    structured = [...((await client.listClusters()).clusters ?? [])];
    assert.equal(structured.length, 4);
    assert.ok(
      structured.some((c) => c.id === gamma.cluster_id && c.instances[0].ip),
      'running with an ip',
    );
  });
  after(async () => engine.close());
  afterEach(async () =>
    engine.config({
      listMode: 'both',
      answers: { clusterList: null, clusterInfo: null, me: null, sshKeyList: null },
    }),
  );

  for (const style of STYLES) {
    it(`a cluster list in the ${style} style gives the same clusters, marked as read from text`, async () => {
      await engine.config({ answers: { clusterList: { mode: 'text', style } } });
      const listing = await client.listClusters();
      assert.equal(listing.clusters, undefined, 'the structured list stays absent');
      assert.ok(listing.message);
      assert.deepEqual(listing.textClusters?.map(comparable), structured.map(comparable));
      assert.ok(listing.textClusters?.every((c) => c.source === 'text'));
      assert.deepEqual(listing.unreadRows, []);
    });

    it(`cluster info in the ${style} style gives the same cluster, by id and by name`, async () => {
      await engine.config({ answers: { clusterInfo: { mode: 'text', style } } });
      const alpha = structured.find((c) => c.name === 'alpha')!;
      const byId = await client.clusterInfo(alpha.id);
      assert.deepEqual(byId.cluster && comparable(byId.cluster), comparable(alpha));
      assert.equal(byId.cluster?.source, 'text');
      const byName = await client.clusterInfo('alpha');
      assert.equal(byName.cluster?.id, alpha.id);
    });

    it(`SSH keys in the ${style} style read back as the structured keys`, async () => {
      const want = (await client.sshKeys()).keys?.map((k) => [k.id, k.name, k.fingerprint]);
      assert.ok(want);
      assert.equal(want.length, 1);
      await engine.config({ answers: { sshKeyList: { mode: 'text', style } } });
      const got = await client.sshKeys();
      assert.deepEqual(
        got.keys?.map((k) => [k.id, k.name, k.fingerprint]),
        want,
      );
      assert.ok(got.keys?.every((k) => k.fromText === true));
    });
  }

  it('cluster info as a `Field | Value` table (rich) gives the cluster and its nodes with their addresses', async () => {
    await engine.config({ answers: { clusterInfo: { mode: 'text', style: 'fieldValue' } } });
    for (const want of structured) {
      const info = await client.clusterInfo(want.id);
      assert.match(info.message ?? '', /┃ Field +┃ Value/);
      const got = info.cluster;
      assert.equal(got?.source, 'text');
      assert.deepEqual(
        got && [got.id, got.name, got.instanceType, got.numNodes, got.status, got.deletionProtection],
        [want.id, want.name, want.instanceType, want.numNodes, want.status, want.deletionProtection],
      );
      assert.deepEqual(
        got?.instances.map((i) => ({ id: i.id, ip: i.ip })),
        want.instances.map((i) => (i.ip ? { id: i.id, ip: i.ip } : { id: i.id, ip: undefined })),
        `the nodes of ${want.name}`,
      );
    }
    assert.ok(
      structured.some((c) => c.instances.length === 2 && c.instances.every((i) => i.ip)),
      'a cluster with two addressed nodes was read (their list wraps onto a second line)',
    );
  });

  it('an empty text-only list reads as no clusters found, not as a list', async () => {
    const other = apiClient(
      { url: engine.url, token: engine.otherToken },
      {
        userAgent: 'test',
      },
    );
    await engine.config({ listMode: 'text' });
    const listing = await other.listClusters();
    assert.equal(listing.clusters, undefined);
    assert.deepEqual(listing.textClusters, []);
    assert.match(listing.message ?? '', /No clusters/);
  });

  it('a /me that answers only in words gives the e-mail as the account label', async () => {
    await engine.config({ answers: { me: { mode: 'text' } } });
    const me = await client.me();
    assert.deepEqual(Object.keys(me), ['message']);
    assert.equal(accountLabel(me), 'dev1@tensorpool.local');
  });
});
