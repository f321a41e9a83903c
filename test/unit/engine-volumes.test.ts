/**
 * The local engine's storage volumes over raw HTTP: shapes, asynchronous STORAGE_* requests,
 * eligibility, protection and attachment refusals, size-only-grows, the 24-hour balance rule, list
 * modes, and clusters showing their attached volumes.
 */
import * as assert from 'node:assert/strict';
import { engineCall, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';

describe('Local engine: storage volumes', function () {
  let engine: EngineHandle;
  const call = async (method: string, path: string, body?: unknown) => {
    const { status, json } = await engineCall(engine, method, path, body);
    return { status, body: json };
  };
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const clusters = async () => {
    await engine.seed({ clusters: 1, numNodes: 2, prefix: 'multi' });
    await engine.seed({ clusters: 1, numNodes: 1, prefix: 'single' });
    await engine.seed({ clusters: 1, numNodes: 1, prefix: 'cpu', instanceType: '32xCPU' });
    const list = (await call('GET', '/cluster/list')).body.clusters as any[];
    const byName = (n: string) => list.find((c) => c.name === n).id as string;
    return { multi: byName('multi-1'), single: byName('single-1'), cpu: byName('cpu-1') };
  };
  const ready = async (body: unknown = { size: 10, deletion_protection: false }) => {
    const made = await call('POST', '/storage/create', body);
    assert.equal(made.status, 202);
    await wait(60);
    return made.body.storage_id as string;
  };

  useTestEngine((e) => (engine = e), { pendingMs: 10, processingMs: 20 });

  it('create answers 202 {message, request_id, storage_id}; the STORAGE_CREATE request goes PENDING to COMPLETED', async () => {
    // Long enough a PENDING phase that the first look sees it on a busy machine; then poll until done.
    await engine.config({ pendingMs: 1000, processingMs: 20 });
    const made = await call('POST', '/storage/create', { size: 100, deletion_protection: false, name: 'ds' });
    assert.equal(made.status, 202);
    assert.deepEqual(Object.keys(made.body).sort(), ['message', 'request_id', 'storage_id']);
    const first = await call('GET', `/request/info/${made.body.request_id}`);
    assert.equal(first.body.request_type, 'STORAGE_CREATE');
    assert.equal(first.body.status, 'PENDING');
    assert.equal((await call('GET', `/storage/info/${made.body.storage_id}`)).body.status, 'CREATING');
    let status = first.body.status;
    for (const deadline = Date.now() + 10_000; status !== 'COMPLETED' && Date.now() < deadline;) {
      await wait(50);
      status = (await call('GET', `/request/info/${made.body.request_id}`)).body.status;
    }
    await engine.config({ pendingMs: 10, processingMs: 20 });
    assert.equal(status, 'COMPLETED');
    const info = (await call('GET', `/storage/info/${made.body.storage_id}`)).body;
    assert.equal(info.status, 'READY');
    assert.equal(info.mount_path, `/mnt/${made.body.storage_id}`);
    assert.equal(info.size_gb, 100);
    assert.equal(typeof info.hourly_rate, 'number');
  });

  it('create validates size as a whole number >= 1 at ["body","size"]', async () => {
    for (const size of [0, -1, 1.5, '10', 1e12]) {
      const res = await call('POST', '/storage/create', { size, deletion_protection: false });
      assert.equal(res.status, 422, `size ${size}`);
      assert.deepEqual(res.body.detail[0].loc, ['body', 'size']);
    }
    assert.equal((await call('POST', '/storage/create', { deletion_protection: false })).status, 422);
  });

  it('create needs 24 hours of cost in the balance (control-config balance)', async () => {
    await engine.config({ balanceUsd: 1 });
    const res = await call('POST', '/storage/create', { size: 1000, deletion_protection: false });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /24 hours/);
    assert.equal(res.body.detail, res.body.message);
    assert.equal(
      (await call('POST', '/storage/create', { size: 100, deletion_protection: false })).status,
      202,
    );
  });

  it('attach: eligible clusters only, request_ids per cluster, cluster list and info show the volume', async () => {
    const c = await clusters();
    const id = await ready();
    const single = await call('POST', '/storage/attach', { storage_id: id, cluster_ids: [c.single] });
    assert.equal(single.status, 400);
    assert.match(single.body.message, /multi-node GPU clusters and to CPU instances/);
    assert.ok(single.body.detail);
    const both = await call('POST', '/storage/attach', { storage_id: id, cluster_ids: [c.multi, c.cpu] });
    assert.equal(both.status, 202);
    assert.equal(both.body.request_ids.length, 2);
    const types = await Promise.all(
      both.body.request_ids.map(
        async (r: string) => (await call('GET', `/request/info/${r}`)).body.request_type,
      ),
    );
    assert.deepEqual(types, ['STORAGE_ATTACH', 'STORAGE_ATTACH']);
    await wait(60);
    const list = (await call('GET', '/cluster/list')).body;
    const multi = list.clusters.find((x: any) => x.id === c.multi);
    assert.deepEqual(
      multi.attached_volumes.map((v: any) => [v.storage_id, v.mount_path, v.status]),
      [[id, `/mnt/${id}`, 'ATTACHED']],
    );
    assert.match(list.message, new RegExp(`/mnt/${id}`));
    const info = (await call('GET', `/cluster/info/${c.cpu}`)).body;
    assert.equal(info.attached_volumes[0].storage_id, id);
    assert.equal((await call('GET', `/storage/info/${id}`)).body.status, 'ATTACHED');
    const again = await call('POST', '/storage/attach', { storage_id: id, cluster_ids: [c.multi] });
    assert.equal(again.status, 409);
  });

  it('detach takes one cluster_id and answers one request_id (STORAGE_DETACH)', async () => {
    const c = await clusters();
    const id = await ready();
    await call('POST', '/storage/attach', { storage_id: id, cluster_ids: [c.multi] });
    await wait(60);
    const res = await call('POST', '/storage/detach', { storage_id: id, cluster_id: c.multi });
    assert.equal(res.status, 202);
    assert.equal(typeof res.body.request_id, 'string');
    assert.equal(
      (await call('GET', `/request/info/${res.body.request_id}`)).body.request_type,
      'STORAGE_DETACH',
    );
    await wait(60);
    assert.deepEqual((await call('GET', `/storage/info/${id}`)).body.attached_clusters, []);
    const notAttached = await call('POST', '/storage/detach', { storage_id: id, cluster_id: c.multi });
    assert.equal(notAttached.status, 409);
  });

  it('destroy: refused while protected (409) or attached (409), then STORAGE_DESTROY removes it', async () => {
    const c = await clusters();
    const id = await ready({ size: 5, deletion_protection: true });
    const protectedRes = await call('DELETE', `/storage/${id}`);
    assert.equal(protectedRes.status, 409);
    assert.match(protectedRes.body.message, /deletion protection/);
    await call('PATCH', `/storage/edit/${id}`, { deletion_protection: false });
    // A PENDING phase long enough that the next two calls see the attach under way on a busy machine.
    await engine.config({ pendingMs: 1000, processingMs: 20 });
    const attach = await call('POST', '/storage/attach', { storage_id: id, cluster_ids: [c.multi] });
    const attached = await call('DELETE', `/storage/${id}`);
    assert.equal(attached.status, 409);
    assert.match(attached.body.detail, /Detach/);
    const det = await call('POST', '/storage/detach', { storage_id: id, cluster_id: c.multi });
    assert.equal(det.status, 409, 'still attaching: not detachable yet');
    await engine.config({ pendingMs: 10, processingMs: 20 });
    let status = '';
    for (const deadline = Date.now() + 10_000; status !== 'COMPLETED' && Date.now() < deadline;) {
      await wait(50);
      status = (await call('GET', `/request/info/${attach.body.request_ids[0]}`)).body.status;
    }
    assert.equal(status, 'COMPLETED', 'the attach completed');
    assert.equal(
      (await call('POST', '/storage/detach', { storage_id: id, cluster_id: c.multi })).status,
      202,
    );
    await wait(60);
    const gone = await call('DELETE', `/storage/${id}`);
    assert.equal(gone.status, 202);
    assert.equal(
      (await call('GET', `/request/info/${gone.body.request_id}`)).body.request_type,
      'STORAGE_DESTROY',
    );
    await wait(60);
    assert.equal((await call('GET', `/storage/info/${id}`)).status, 404);
  });

  it('edit: size only grows (422 at ["body","size_gb"]); names and protection apply at once', async () => {
    const id = await ready({ size: 50, deletion_protection: false });
    const smaller = await call('PATCH', `/storage/edit/${id}`, { size_gb: 40 });
    assert.equal(smaller.status, 422);
    assert.deepEqual(smaller.body.detail[0].loc, ['body', 'size_gb']);
    assert.equal((await call('PATCH', `/storage/edit/${id}`, {})).status, 422);
    const ok = await call('PATCH', `/storage/edit/${id}`, {
      tp_storage_name: 'big',
      size_gb: 80,
      deletion_protection: true,
    });
    assert.equal(ok.status, 202);
    const info = (await call('GET', `/storage/info/${id}`)).body;
    assert.deepEqual([info.name, info.size_gb, info.deletion_protection], ['big', 80, true]);
  });

  it('list follows listMode: text-only, structured-only, both; include_org shows teammates', async () => {
    await ready({ size: 7, deletion_protection: false, name: 'mine' });
    await engine.config({ listMode: 'text' });
    const text = (await call('GET', '/storage/list')).body;
    assert.deepEqual(Object.keys(text), ['message']);
    assert.match(text.message, /mine/);
    await engine.config({ listMode: 'structured' });
    const structured = (await call('GET', '/storage/list?include_org=true')).body;
    assert.deepEqual(Object.keys(structured), ['volumes']);
    assert.equal(structured.volumes[0].name, 'mine');
    const other = await engine.raw('/storage/list', {
      headers: { authorization: `Bearer ${engine.otherToken}` },
    });
    assert.deepEqual(((await other.json()) as any).volumes, []);
  });
});
