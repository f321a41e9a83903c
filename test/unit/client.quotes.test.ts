/**
 * Price quotes: the engine's GET /cluster/quote and /storage/quote (engine/quotes.ts) and the client's
 * clusterQuote/storageQuote (src/api/quotes.ts) over real HTTP, including the switch that makes both
 * routes 404 (a service without them), failures, and the local checks that send nothing.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type TensorPoolClient, type TensorPoolError } from '../../src/api';
import { readPricesFile } from '../../engine/quotes';
import { startEngine } from '../../engine/server';
import { engineCall, testClient, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';

describe('API client: price quotes (local engine over HTTP)', function () {
  let engine: EngineHandle;
  let client: TensorPoolClient;

  useTestEngine((e) => (engine = e));
  beforeEach(() => {
    client = testClient(engine);
  });

  it('clusterQuote: GPUs × unit price × nodes from the default table, sent as the query the SDK uses', async () => {
    assert.deepEqual(await client.clusterQuote('8xH100', 2), { kind: 'price', hourlyRate: 39.84 });
    const [call] = await engine.calls('GET', '/cluster/quote');
    assert.deepEqual(call.query, { instance_type: '8xH100', num_nodes: '2' });
    assert.equal(call.status, 200);
    assert.deepEqual(await client.clusterQuote('1xL40S', 1), { kind: 'price', hourlyRate: 1.19 });
  });

  it('storageQuote: size × the GB-hour price volumes are billed at', async () => {
    assert.deepEqual(await client.storageQuote(1000), { kind: 'price', hourlyRate: 0.2 });
    const [call] = await engine.calls('GET', '/storage/quote');
    assert.deepEqual(call.query, { size_gb: '1000' });
  });

  it('the switch makes both routes 404 as a service without them; the client says "no price", not an error', async () => {
    await engine.config({ quotes: false });
    const raw = await engineCall(engine, 'GET', '/cluster/quote?instance_type=8xH100&num_nodes=1');
    assert.deepEqual(raw, { status: 404, json: { detail: 'Not Found' } });
    const cluster = await client.clusterQuote('8xH100', 1);
    assert.equal(cluster.kind, 'no-price');
    assert.equal(cluster.kind === 'no-price' && cluster.reason, 'unavailable');
    const storage = await client.storageQuote(100);
    assert.equal(storage.kind === 'no-price' && storage.reason, 'unavailable');
    assert.equal(
      (await engine.calls('GET', '/cluster/quote')).length,
      2,
      'one request each: a 404 is not retried',
    );
    await engine.reset();
    assert.equal((await client.clusterQuote('8xH100', 1)).kind, 'price', 'reset brings the quotes back');
  });

  it('prices set at run time; a type the table does not price is 404 -> unavailable', async () => {
    await engine.config({
      prices: { unitHour: { H100: 2 }, instanceHour: { '8xH100': 15 }, storageGbHour: 0.001 },
    });
    assert.deepEqual(await client.clusterQuote('8xH100', 3), { kind: 'price', hourlyRate: 45 });
    assert.deepEqual(await client.clusterQuote('2xH100', 1), { kind: 'price', hourlyRate: 4 });
    assert.deepEqual(await client.storageQuote(10), { kind: 'price', hourlyRate: 0.01 });
    const b200 = await client.clusterQuote('8xB200', 1);
    assert.equal(b200.kind === 'no-price' && b200.reason, 'unavailable');
    assert.match(
      b200.kind === 'no-price' ? b200.detail : '',
      /No price is available for instance type 8xB200/,
    );
    const refused = await engine.unchecked('POST', 'config', { prices: { unitHour: { H100: -1 } } });
    assert.equal(refused.status, 400);
  });

  it('a failing or unreadable quote is "no price" (failed), never a guess', async () => {
    await engine.fault({ method: 'GET', path: '/cluster/quote', status: 500, times: -1 });
    const failed = await client.clusterQuote('8xH100', 1);
    assert.equal(failed.kind === 'no-price' && failed.reason, 'failed');
    await engine.reset();
    await engine.fault({
      method: 'GET',
      path: '/storage/quote',
      status: 200,
      body: { hourly_rate: 'cheap' },
    });
    const odd = await client.storageQuote(10);
    assert.equal(odd.kind === 'no-price' && odd.reason, 'failed');
    await engine.fault({
      method: 'GET',
      path: '/storage/quote',
      status: 200,
      body: { hourly_rate: '0.5', extra: 1 },
    });
    assert.deepEqual(
      await client.storageQuote(10),
      { kind: 'price', hourlyRate: 0.5 },
      'lenient: a numeric string',
    );
    const noToken = testClient(engine, { getToken: () => 'tp_wrong_token_0123456789' });
    const unauthorised = await noToken.clusterQuote('8xH100', 1);
    assert.equal(unauthorised.kind === 'no-price' && unauthorised.reason, 'failed');
  });

  it('the caller cancelling is not turned into "no price"', async () => {
    await engine.fault({ method: 'GET', path: '/cluster/quote', action: 'hang' });
    const abort = new AbortController();
    const pending = client.clusterQuote('8xH100', 1, { signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await assert.rejects(pending, (e: TensorPoolError) => e.kind === 'cancelled');
  });

  it('bad input is refused locally, before any request', async () => {
    const refusals: [() => Promise<unknown>, string][] = [
      [() => client.clusterQuote('', 1), 'instance_type'],
      [() => client.clusterQuote('8 x H100', 1), 'instance_type'],
      [() => client.clusterQuote('8xH100', 0), 'num_nodes'],
      [() => client.clusterQuote('8xH100', 1.5), 'num_nodes'],
      [() => client.clusterQuote('8xH100', 100_000), 'num_nodes'],
      [() => client.storageQuote(0), 'size_gb'],
      [() => client.storageQuote(2.5), 'size_gb'],
      [() => client.storageQuote(Number.NaN), 'size_gb'],
    ];
    for (const [call, field] of refusals) {
      await assert.rejects(
        call,
        (e: TensorPoolError & { local: boolean; fieldErrors: { field: string }[] }) => {
          assert.equal(e.kind, 'validation');
          assert.equal(e.local, true);
          assert.equal(e.fieldErrors[0].field, field);
          return true;
        },
      );
    }
    assert.equal((await engine.log()).length, 0, 'nothing was sent');
  });

  it('the engine answers 422 for bad queries, in the service shape', async () => {
    const missing = await engineCall(engine, 'GET', '/cluster/quote?num_nodes=1');
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json.detail[0].loc, ['query', 'instance_type']);
    const notInt = await engineCall(engine, 'GET', '/cluster/quote?instance_type=8xH100&num_nodes=two');
    assert.equal(notInt.json.detail[0].type, 'int_parsing');
    const unoffered = await engineCall(engine, 'GET', '/cluster/quote?instance_type=3xH100');
    assert.equal(unoffered.status, 422);
    assert.equal(unoffered.json.detail[0].type, 'literal_error');
    assert.deepEqual(unoffered.json.detail[0].loc, ['query', 'instance_type']);
    const defaultNodes = await engineCall(engine, 'GET', '/cluster/quote?instance_type=1xH200');
    assert.deepEqual(defaultNodes.json, { hourly_rate: 3.29, instance_type: '1xH200', num_nodes: 1 });
    const big = await engineCall(engine, 'GET', '/storage/quote?size_gb=0');
    assert.equal(big.json.detail[0].type, 'greater_than_equal');
    const none = await engineCall(engine, 'GET', '/storage/quote');
    assert.equal(none.json.detail[0].type, 'missing');
  });
});

describe('Engine: --prices', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'tp-prices-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a prices file sets the table the engine starts with', async () => {
    const file = path.join(dir, 'prices.json');
    writeFileSync(file, JSON.stringify({ unitHour: { H100: 3 }, storageGbHour: 0.01 }));
    const running = await startEngine({
      quiet: true,
      tokens: ['tp_prices_token_0123456789'],
      prices: readPricesFile(file),
    });
    try {
      const get = async (p: string) =>
        (
          await fetch(running.url + p, { headers: { authorization: 'Bearer tp_prices_token_0123456789' } })
        ).json();
      assert.deepEqual(await get('/cluster/quote?instance_type=4xH100&num_nodes=2'), {
        hourly_rate: 24,
        instance_type: '4xH100',
        num_nodes: 2,
      });
      assert.deepEqual(await get('/storage/quote?size_gb=50'), { hourly_rate: 0.5, size_gb: 50 });
    } finally {
      await running.close();
    }
  });

  it('a bad prices file is refused with a reason', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ unitHour: { H100: 'free' } }));
    assert.throws(() => readPricesFile(bad), /unitHour\.H100 must be a number/);
    writeFileSync(bad, JSON.stringify({ gpuHour: {} }));
    assert.throws(() => readPricesFile(bad), /unknown field gpuHour/);
    writeFileSync(bad, '{not json');
    assert.throws(() => readPricesFile(bad), /cannot read prices/);
  });
});
