/**
 * The storage-volume client methods against the local engine over real HTTP, with the exact request
 * bodies (field names differ between create and edit, and between attach and detach) read back from
 * the engine's request log.
 */
import * as assert from 'node:assert/strict';
import { type TensorPoolClient, trackRequest, type TensorPoolError } from '../../src/api';
import { testClient, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';

describe('API client: storage volumes (local engine over HTTP)', function () {
  let engine: EngineHandle;
  let client: TensorPoolClient;

  useTestEngine((e) => (engine = e), { pendingMs: 10, processingMs: 20 });
  beforeEach(() => {
    client = testClient(engine);
  });

  const settle = async (id: string | null | undefined) => {
    assert.ok(id, 'a request id');
    const outcome = await trackRequest(client, id, { minDelayMs: 5, defaultDelayMs: 5, maxDelayMs: 20 });
    assert.equal(outcome.kind, 'completed');
  };
  const multiNode = async () => {
    await engine.seed({ clusters: 1, numNodes: 2, prefix: 'multi' });
    const listing = await client.listClusters();
    return listing.clusters!.find((c) => c.name === 'multi-1')!;
  };

  it('createVolume sends {size, deletion_protection, name} and answers storage_id and request_id', async () => {
    const res = await client.volumes.createVolume({ size: 100, deletion_protection: true, name: 'datasets' });
    assert.match(res.storage_id ?? '', /^vol-/);
    const [call] = await engine.calls('POST', '/storage/create');
    assert.deepEqual(call.body, { size: 100, deletion_protection: true, name: 'datasets' });
    assert.equal(call.status, 202);
    await settle(res.request_id);
    const info = await client.volumes.volumeInfo(res.storage_id!);
    assert.equal(info.volume?.name, 'datasets');
    assert.equal(info.volume?.sizeGb, 100);
    assert.equal(info.volume?.deletionProtection, true);
    assert.equal(info.volume?.status, 'READY');
    assert.match(info.message ?? '', /\/mnt\/vol-/);
  });

  it('editVolume sends exactly tp_storage_name, size_gb and deletion_protection', async () => {
    const res = await client.volumes.createVolume({ size: 10, deletion_protection: false });
    await client.volumes.editVolume(res.storage_id!, {
      tp_storage_name: 'renamed',
      size_gb: 20,
      deletion_protection: true,
    });
    const [call] = await engine.calls('PATCH', `/storage/edit/${res.storage_id}`);
    assert.deepEqual(call.body, { tp_storage_name: 'renamed', size_gb: 20, deletion_protection: true });
    const listing = await client.volumes.listVolumes();
    assert.equal(listing.volumes?.[0].name, 'renamed');
    assert.equal(listing.volumes?.[0].sizeGb, 20);
  });

  it('a smaller size is a 422 on size_gb from the service', async () => {
    const res = await client.volumes.createVolume({ size: 50, deletion_protection: false });
    await assert.rejects(
      client.volumes.editVolume(res.storage_id!, { size_gb: 40 }),
      (e: TensorPoolError) => {
        assert.equal(e.kind, 'validation');
        assert.equal((e as unknown as { fieldErrors: { field: string }[] }).fieldErrors[0].field, 'size_gb');
        return true;
      },
    );
  });

  it('attach sends {storage_id, cluster_ids} and gets request_ids; detach sends {storage_id, cluster_id}', async () => {
    const cluster = await multiNode();
    const res = await client.volumes.createVolume({ size: 10, deletion_protection: false });
    await settle(res.request_id);
    const attached = await client.volumes.attachVolume({
      storage_id: res.storage_id!,
      cluster_ids: [cluster.id],
    });
    assert.equal(attached.request_ids?.length, 1);
    const [a] = await engine.calls('POST', '/storage/attach');
    assert.deepEqual(a.body, { storage_id: res.storage_id, cluster_ids: [cluster.id] });
    await settle(attached.request_ids?.[0]);
    const info = await client.clusterInfo(cluster.id);
    assert.deepEqual(
      info.cluster?.volumes?.map((v) => v.id),
      [res.storage_id],
    );
    const detached = await client.volumes.detachVolume({
      storage_id: res.storage_id!,
      cluster_id: cluster.id,
    });
    const [d] = await engine.calls('POST', '/storage/detach');
    assert.deepEqual(d.body, { storage_id: res.storage_id, cluster_id: cluster.id });
    await settle(detached.request_id);
    const after = await client.volumes.listVolumes();
    assert.deepEqual(after.volumes?.[0].attachments, []);
  });

  it('destroyVolume sends DELETE /storage/{id}; the volume is gone once the request completes', async () => {
    const res = await client.volumes.createVolume({ size: 10, deletion_protection: false });
    await settle(res.request_id);
    const destroyed = await client.volumes.destroyVolume(res.storage_id!);
    assert.equal((await engine.calls('DELETE', `/storage/${res.storage_id}`)).length, 1);
    await settle(destroyed.request_id);
    assert.deepEqual((await client.volumes.listVolumes()).volumes, []);
  });

  it('a protected volume is refused with 409 (conflict) and a readable message', async () => {
    const res = await client.volumes.createVolume({ size: 10, deletion_protection: true });
    await assert.rejects(client.volumes.destroyVolume(res.storage_id!), (e: TensorPoolError) => {
      assert.equal(e.kind, 'conflict');
      assert.match(e.message, /deletion protection/);
      return true;
    });
  });

  it('listVolumes in text-only mode keeps the text and gives no list', async () => {
    await client.volumes.createVolume({ size: 10, deletion_protection: false, name: 'text-vol' });
    await engine.config({ listMode: 'text' });
    const listing = await client.volumes.listVolumes({ includeOrg: true });
    assert.equal(listing.volumes, undefined);
    assert.match(listing.message ?? '', /text-vol/);
    const [call] = await engine.calls('GET', '/storage/list');
    assert.deepEqual(call.query, { include_org: 'true' });
  });

  for (const [what, input] of [
    ['size 0', { size: 0, deletion_protection: false }],
    ['a negative size', { size: -5, deletion_protection: false }],
    ['a fractional size', { size: 1.5, deletion_protection: false }],
    ['10^12 GB', { size: 1e12, deletion_protection: false }],
    ['a size as text', { size: '100', deletion_protection: false }],
    ['a name with spaces', { size: 1, deletion_protection: false, name: 'my data' }],
    ['an unknown field', { size: 1, deletion_protection: false, size_gb: 1 }],
  ] as const) {
    it(`refuses ${what} before sending anything`, async () => {
      await assert.rejects(
        client.volumes.createVolume(input as never),
        (e: TensorPoolError) => e.kind === 'validation',
      );
      assert.deepEqual(await engine.calls('POST', '/storage/create'), []);
    });
  }

  it('an empty edit and an attach without clusters are refused before sending', async () => {
    await assert.rejects(
      client.volumes.editVolume('vol-x', {}),
      (e: TensorPoolError) => e.kind === 'validation',
    );
    await assert.rejects(
      client.volumes.attachVolume({ storage_id: 'vol-x', cluster_ids: [] }),
      (e: TensorPoolError) => e.kind === 'validation',
    );
    assert.deepEqual(await engine.log(), []);
  });

  it('a create whose answer is lost is not sent again', async () => {
    await engine.fault({ method: 'POST', path: '/storage/create', action: 'drop-after' });
    await assert.rejects(client.volumes.createVolume({ size: 10, deletion_protection: false }));
    assert.equal((await engine.calls('POST', '/storage/create')).length, 1);
  });
});
