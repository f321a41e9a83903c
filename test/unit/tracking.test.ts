/**
 * Request tracking against the engine's asynchronous lifecycle.
 */
import * as assert from 'node:assert/strict';
import { type TensorPoolClient, trackRequest } from '../../src/api';
import { useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';
import { createInput } from '../fixtures/payloads';
import { apiClient } from '../shared/apiClient';

describe('request tracking', function () {
  this.timeout(10_000);
  let engine: EngineHandle;
  let client: TensorPoolClient;
  let waits: number[];
  // Real waiting, but recorded, and shortened so the suite stays fast: 1 s of Retry-After = 20 ms here.
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      waits.push(ms);
      const t = setTimeout(resolve, ms / 50);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          reject(new Error('aborted'));
        },
        { once: true },
      );
    });

  /** The next GET /request/info/{id} answers 200 with this status (and these headers). */
  const answer = (id: string, status: string, headers?: Record<string, string>) =>
    engine.fault({
      method: 'GET',
      path: `/request/info/${id}`,
      status: 200,
      body: { request_id: id, status },
      ...(headers ? { headers } : {}),
    });

  useTestEngine((e) => (engine = e), { pendingMs: 40, processingMs: 80, retryAfterSeconds: 1 });
  beforeEach(() => {
    waits = [];
    client = apiClient(engine, { userAgent: 'test' });
  });

  it('follows a create through PENDING and PROCESSING to COMPLETED, waiting Retry-After between polls', async () => {
    const { request_id, cluster_id } = await client.createCluster(createInput());
    const seen: string[] = [];
    const outcome = await trackRequest(client, request_id!, { sleep, onStatus: (i) => seen.push(i.status) });
    assert.equal(outcome.kind, 'completed');
    assert.equal(outcome.info?.object_id, cluster_id);
    assert.deepEqual(seen, ['PENDING', 'PROCESSING', 'COMPLETED']);
    assert.ok(waits.length >= 2 && waits.every((w) => w === 1000), `waits ${waits}`);
    const info = await client.clusterInfo(cluster_id);
    assert.equal(info.cluster?.status, 'RUNNING');
  });

  it('passes through RETRYING when the engine retries', async () => {
    await engine.config({ retrying: true });
    const { request_id } = await client.createCluster(createInput());
    const seen: string[] = [];
    await trackRequest(client, request_id!, { sleep, onStatus: (i) => seen.push(i.status) });
    assert.ok(seen.includes('RETRYING'), seen.join(','));
    assert.equal(seen.at(-1), 'COMPLETED');
  });

  it('reports FAILED with the external message', async () => {
    await engine.config({ failCreates: 1 });
    const { request_id } = await client.createCluster(createInput());
    const outcome = await trackRequest(client, request_id!, { sleep });
    assert.equal(outcome.kind, 'failed');
    assert.ok(outcome.info?.external_message, 'external_message present');
  });

  it("a FAILED request's external message carries no link a notification would render", async () => {
    await engine.fault({
      method: 'GET',
      path: '/request/info/r-link',
      status: 200,
      body: {
        request_id: 'r-link',
        status: 'FAILED',
        external_message: 'Quota hit. [Fix it](command:evil.run?1)',
      },
    });
    const outcome = await trackRequest(client, 'r-link', { sleep });
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.info?.external_message, 'Quota hit. [Fix it] (command:evil.run?1)');
  });

  it('waits 2 s when Retry-After is missing or unreadable', async () => {
    await answer('r-x', 'PROCESSING');
    await answer('r-x', 'PROCESSING', { 'retry-after': 'soon' });
    await answer('r-x', 'COMPLETED');
    const outcome = await trackRequest(client, 'r-x', { sleep });
    assert.equal(outcome.kind, 'completed');
    assert.deepEqual(waits, [2000, 2000]);
  });

  it('an unknown status is "still going"', async () => {
    await answer('r-u', 'WARMING_UP', { 'retry-after': '1' });
    await answer('r-u', 'COMPLETED');
    const seen: string[] = [];
    const outcome = await trackRequest(client, 'r-u', { sleep, onStatus: (i) => seen.push(i.status) });
    assert.deepEqual(seen, ['WARMING_UP', 'COMPLETED']);
    assert.equal(outcome.kind, 'completed');
  });

  it('gives up after the total cap when a request never leaves PROCESSING, without cancelling it', async () => {
    await engine.config({ stuck: true });
    const { request_id } = await client.createCluster(createInput());
    let t = 0;
    const outcome = await trackRequest(client, request_id!, {
      sleep: async (ms) => {
        t += ms;
      },
      now: () => t,
      maxTotalMs: 10_000,
    });
    assert.equal(outcome.kind, 'gave-up');
    assert.match(outcome.info?.status ?? '', /^(PENDING|PROCESSING)$/);
    assert.equal(
      (await engine.log()).filter((e) => e.method !== 'GET' && e.method !== 'POST').length,
      0,
      'nothing cancelled',
    );
  });

  it('can be stopped with an AbortSignal', async () => {
    await engine.config({ stuck: true });
    const { request_id } = await client.createCluster(createInput());
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const outcome = await trackRequest(client, request_id!, { signal: ac.signal, sleep });
    assert.equal(outcome.kind, 'stopped');
  });
});
