/**
 * The fault matrix at the API client, against the in-process engine over real sockets: for every
 * fault kind, what a GET (retried when it is safe) and, where it applies, POST /cluster/create (never
 * retried) make of it: the error kind, a readable message, how many times the engine saw the call,
 * and whether the client says the request may have reached the server.
 * (The same kinds run around the real extension in test/reliability/host/faults.test.ts.)
 */
import * as assert from 'node:assert/strict';
import { trackRequest, type ClientOptions, type TensorPoolError } from '../../../src/api';
import { clusterPhase } from '../../../src/model/cluster';
import { startTestEngine, type EngineHandle, type Fault } from '../../fixtures/engine';
import { credentialsRecord, clusterRecord, createInput } from '../../fixtures/payloads';
import { FAULT_KINDS, HTML_502, faultSubject, findSecrets, type FaultKind } from '../catalogue';
import { ledger } from '../ledger';
import { freePort as closedPort } from '../../shared/net';
import { sleep as realSleep } from '../../shared/wait';
import { apiClient } from '../../shared/apiClient';

type Err = TensorPoolError & Record<string, unknown>;

describe('reliability: fault matrix at the API client', function () {
  this.timeout(30_000);
  let engine: EngineHandle;
  let sleeps: number[];
  let unauthorized: number;
  let logLines: string[];

  const make = (over: Partial<ClientOptions> = {}) =>
    apiClient(engine, {
      userAgent: 'tensorpool-vscode/reliability',
      retryBaseMs: 1,
      maxRetries: 3,
      timeoutMs: 400,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      log: (_level, message) => {
        logLines.push(message);
      },
      onUnauthorized: () => {
        unauthorized++;
      },
      ...over,
    });

  /** The call fails with `kind`; the message is short, readable, secret-free. */
  async function fails(p: Promise<unknown>, kind: string, check?: (e: Err) => void): Promise<Err> {
    let caught: Err | undefined;
    await assert.rejects(p, (e: Err) => {
      caught = e;
      return true;
    });
    const e = caught!;
    assert.equal(e.kind, kind, `expected ${kind}, got ${e.kind}: ${e.message}`);
    assert.ok(
      e.message.length > 10 && e.message.length < 400,
      `message length ${e.message.length}: ${e.message}`,
    );
    assert.ok(!/<[a-z!/]/i.test(e.message), `markup in the message: ${e.message}`);
    assert.deepEqual(
      findSecrets([e.message, String(e), e.stack ?? '', ...logLines].join('\n'), [
        { name: 'the token', value: engine.token },
      ]),
      [],
    );
    check?.(e);
    return e;
  }

  async function clearFaults(): Promise<void> {
    await engine.clearFaults();
  }

  async function count(method: string, path: string): Promise<number> {
    return (await engine.calls(method, path)).length;
  }

  /** POST /cluster/create once under `fault` (or a client option): exactly one create reaches the engine
   * (none when nothing could be sent). */
  async function createOnce(
    fault: Omit<Fault, 'path'> | undefined,
    kind: string,
    mayHaveReached: boolean,
    over: Partial<ClientOptions> = {},
  ): Promise<void> {
    await engine.clearLog();
    sleeps = [];
    if (fault) await engine.fault({ ...fault, method: 'POST', path: '/cluster/create' });
    await fails(make(over).createCluster(createInput()), kind, (e) =>
      assert.equal(e.mayHaveReachedServer, mayHaveReached, 'mayHaveReachedServer'),
    );
    const creates = await count('POST', '/cluster/create');
    ledger.createsFor(1, creates);
    assert.equal(creates, over.baseUrl ? 0 : 1, 'creates the engine received');
    assert.deepEqual(sleeps, [], 'a create is never retried');
    await engine.reset();
  }

  const kinds: Record<FaultKind, () => Promise<void>> = {
    '500': async () => {
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 500,
        body: { message: 'database on fire' },
        times: -1,
      });
      await fails(make().listClusters(), 'server', (e) =>
        assert.match(e.message, /database on fire \(HTTP 500\)/),
      );
      assert.equal(await count('GET', '/cluster/list'), 4, 'a GET is retried 3 times');
      await createOnce({ status: 500, body: { message: 'boom' } }, 'server', true);
    },
    '502-html': async () => {
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 502,
        rawBody: HTML_502,
        contentType: 'text/html',
        times: -1,
      });
      await fails(make().listClusters(), 'server', (e) => assert.match(e.message, /502 Bad Gateway/));
      assert.equal(await count('GET', '/cluster/list'), 4);
      await createOnce({ status: 502, rawBody: HTML_502, contentType: 'text/html' }, 'server', true);
    },
    '503': async () => {
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 503,
        body: { detail: 'maintenance' },
        times: -1,
      });
      await fails(make().listClusters(), 'server', (e) => assert.match(e.message, /maintenance/));
      assert.equal(await count('GET', '/cluster/list'), 4);
      await engine.fault({ method: 'GET', path: '/me', status: 503, times: 1 });
      await make().me();
      assert.equal(await count('GET', '/me'), 2, 'one 503, then the retry succeeds');
      await createOnce({ status: 503 }, 'server', true);
    },
    '504': async () => {
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 504,
        rawBody: 'upstream timed out',
        contentType: 'text/plain',
        times: -1,
      });
      await fails(make().listClusters(), 'server', (e) => assert.match(e.message, /upstream timed out.*504/));
      assert.equal(await count('GET', '/cluster/list'), 4);
      await createOnce({ status: 504 }, 'server', true);
    },
    '429-retry-after': async () => {
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 429,
        body: { error: 'slow down' },
        headers: { 'retry-after': '2' },
        times: -1,
      });
      await fails(make().listClusters(), 'rate-limited', (e) =>
        assert.match(e.message, /slow down\. Try again in 2 s/),
      );
      assert.deepEqual(sleeps, [2000, 2000, 2000], 'waits what Retry-After says');
      await createOnce(
        { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '2' } },
        'rate-limited',
        true,
      );
    },
    '429-no-retry-after': async () => {
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 429,
        body: { error: 'slow down' },
        times: -1,
      });
      await fails(make({ retryBaseMs: 100 }).listClusters(), 'rate-limited', (e) =>
        assert.match(e.message, /Try again shortly/),
      );
      assert.equal(sleeps.length, 3);
      assert.ok(
        sleeps[0] >= 75 && sleeps[0] <= 125 && sleeps[2] >= 300 && sleeps[2] <= 500,
        `exponential backoff with jitter: ${sleeps}`,
      );
      await createOnce({ status: 429, body: { error: 'slow down' } }, 'rate-limited', true);
    },
    slow: async () => {
      await engine.fault({ method: 'GET', path: '/cluster/list', delayMs: 900 });
      assert.deepEqual((await make().listClusters()).clusters, [], 'the retry after the timeout succeeds');
      assert.equal(await count('GET', '/cluster/list'), 2);
      await engine.fault({ method: 'GET', path: '/me', delayMs: 900, times: -1 });
      await fails(make().me(), 'timeout', (e) =>
        assert.match(e.message, /^No answer from 127\.0\.0\.1:\d+ within/),
      );
      await createOnce({ delayMs: 900 }, 'timeout', true);
    },
    hang: async () => {
      await engine.fault({ method: 'GET', path: '/cluster/list', action: 'hang', times: -1 });
      await fails(make({ timeoutMs: 200 }).listClusters(), 'timeout', (e) =>
        assert.equal(e.mayHaveReachedServer, true),
      );
      assert.equal(await count('GET', '/cluster/list'), 4);
      await createOnce({ action: 'hang' }, 'timeout', true, { timeoutMs: 200 });
    },
    'drop-before': async () => {
      await engine.fault({ method: 'GET', path: '/cluster/list', action: 'drop', times: -1 });
      await fails(make().listClusters(), 'network', (e) =>
        assert.match(e.message, /closed before an answer arrived/),
      );
      assert.equal(await count('GET', '/cluster/list'), 4);
      await createOnce({ action: 'drop' }, 'network', true);
    },
    'drop-after': async () => {
      await engine.fault({ method: 'GET', path: '/cluster/list', action: 'drop-after', times: -1 });
      await fails(make().listClusters(), 'network');
      assert.equal(await count('GET', '/cluster/list'), 4);
      await clearFaults();
      await engine.fault({ method: 'POST', path: '/cluster/create', action: 'drop-after' });
      await fails(make().createCluster(createInput({ tp_cluster_name: 'made-anyway' })), 'network', (e) =>
        assert.equal(e.mayHaveReachedServer, true),
      );
      const creates = await count('POST', '/cluster/create');
      ledger.createsFor(1, creates);
      assert.equal(creates, 1);
      const listing = await make().listClusters();
      assert.deepEqual(
        listing.clusters?.map((c) => c.name),
        ['made-anyway'],
        'the server did create it: exactly why a create is never resent',
      );
    },
    refused: async () => {
      const baseUrl = `http://127.0.0.1:${await closedPort()}`;
      await fails(make({ baseUrl }).listClusters(), 'network', (e) => {
        assert.equal(e.code, 'ECONNREFUSED');
        assert.match(e.message, /Connection refused by 127\.0\.0\.1:\d+/);
        assert.equal(e.mayHaveReachedServer, false);
      });
      assert.equal(sleeps.length, 3, 'a GET that was never sent is retried');
      await createOnce(undefined, 'network', false, { baseUrl });
    },
    dns: async () => {
      const baseUrl = 'https://engine.tensorpool.invalid';
      await fails(make({ baseUrl }).listClusters(), 'network', (e) => {
        assert.ok(e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN', String(e.code));
        assert.match(e.message, /Cannot resolve engine\.tensorpool\.invalid: check the API URL/);
        assert.equal(e.mayHaveReachedServer, false);
      });
      await createOnce(undefined, 'network', false, { baseUrl });
    },
    truncated: async () => {
      await engine.seed({ clusters: 3 });
      await engine.fault({ method: 'GET', path: '/cluster/list', action: 'truncate', times: -1 });
      await fails(make().listClusters(), 'bad-response', (e) => assert.match(e.message, /not JSON/));
      assert.equal(await count('GET', '/cluster/list'), 1, 'an unreadable answer is not retried');
      await clearFaults();
      await engine.fault({ method: 'POST', path: '/cluster/create', action: 'truncate' });
      await fails(
        make().createCluster(createInput({ tp_cluster_name: 'half-answer' })),
        'bad-response',
        (e) => assert.equal(e.mayHaveReachedServer, true),
      );
      const creates = await count('POST', '/cluster/create');
      ledger.createsFor(1, creates);
      assert.equal(creates, 1);
      assert.ok(
        (await make().listClusters()).clusters?.some((c) => c.name === 'half-answer'),
        'the create went through; only its answer was cut',
      );
    },
    'shape-missing': async () => {
      await engine.fault({
        method: 'GET',
        path: '/object-storage/credentials',
        status: 200,
        body: { org_id: 'o', access_key_id: 'AKIA1' },
      });
      await fails(make().objectStorageCredentials(), 'bad-response', (e) =>
        assert.match(e.message, /unexpected shape \(secret_access_key/),
      );
      await engine.fault({ method: 'GET', path: '/cluster/list', status: 200, body: {} });
      await fails(make().listClusters(), 'bad-response', (e) =>
        assert.match(e.message, /neither clusters nor a message|unexpected/),
      );
      assert.equal(await count('GET', '/cluster/list'), 1);
      await createOnce({ status: 200, body: { message: 'created, but no id' } }, 'bad-response', true);
    },
    'shape-types': async () => {
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 200,
        body: { message: 42, clusters: 'all of them' },
      });
      await fails(make().listClusters(), 'bad-response', (e) =>
        assert.match(e.message, /unexpected shape \(.*(message|clusters)/),
      );
      await engine.fault({
        method: 'GET',
        path: '/object-storage/credentials',
        status: 200,
        body: credentialsRecord({ secret_access_key: 12345 }),
      });
      await fails(make().objectStorageCredentials(), 'bad-response', (e) =>
        assert.match(e.message, /secret_access_key/),
      );
      await createOnce({ status: 202, body: { cluster_id: 7, request_id: ['r'] } }, 'bad-response', true);
    },
    'shape-extra': async () => {
      const record = clusterRecord({
        id: 'c-extra',
        name: 'extra',
        brand_new_field: { nested: [1, 2] },
        instances: [{ id: 'i-1', status: 'RUNNING', gpu_temp: 71 }],
      });
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 200,
        body: { message: 't', clusters: [record], pagination: { next: null }, deprecation: 'v2' },
      });
      const listing = await make().listClusters();
      assert.deepEqual(
        listing.clusters?.map((c) => [c.id, c.name, c.instances.length]),
        [['c-extra', 'extra', 1]],
      );
      await engine.fault({
        method: 'GET',
        path: '/object-storage/credentials',
        status: 200,
        body: credentialsRecord({ mfa: true, quota_gb: 100 }),
      });
      assert.equal((await make().objectStorageCredentials()).access_key_id, 'AKIATESTKEY0001');
    },
    'empty-200': async () => {
      await engine.fault({ method: 'GET', path: '/cluster/list', status: 200, rawBody: '' });
      await fails(make().listClusters(), 'bad-response', (e) => assert.match(e.message, /empty body/));
      assert.equal(await count('GET', '/cluster/list'), 1);
      await createOnce({ status: 200, rawBody: '' }, 'bad-response', true);
    },
    '401-mid-session': async () => {
      await make().me();
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 401,
        body: { error: 'Token revoked' },
      });
      await fails(make().listClusters(), 'unauthorized', (e) => assert.match(e.message, /Token revoked/));
      assert.equal(unauthorized, 1, 'the 401 hook fired once');
      assert.equal(await count('GET', '/cluster/list'), 1, 'a 401 is not retried');
      await createOnce({ status: 401, body: { error: 'Token revoked' } }, 'unauthorized', true);
    },
    '403': async () => {
      await fails(
        make({ getToken: () => engine.readonlyToken }).createCluster(createInput()),
        'forbidden',
        (e) => assert.match(e.message, /read-only/),
      );
      await engine.fault({
        method: 'GET',
        path: '/cluster/list',
        status: 403,
        body: { error: 'Not allowed to list' },
      });
      await fails(make().listClusters(), 'forbidden', (e) => assert.match(e.message, /Not allowed to list/));
      assert.equal(await count('GET', '/cluster/list'), 1);
    },
    '404-vanished': async () => {
      const c = make();
      const { cluster_id, request_id } = await c.createCluster(createInput({ tp_cluster_name: 'vanishing' }));
      await trackRequest(c, request_id!, { minDelayMs: 1, defaultDelayMs: 20, sleep: realSleep });
      const destroy = await c.destroyCluster(cluster_id);
      await trackRequest(c, destroy.request_id!, { minDelayMs: 1, defaultDelayMs: 20, sleep: realSleep });
      await engine.clearLog();
      const vanished = new RegExp(`${cluster_id}.*not found|not found`, 'i');
      await fails(c.clusterInfo(cluster_id), 'not-found', (e) => assert.match(e.message, vanished));
      await fails(c.editCluster(cluster_id, { cluster_name: 'renamed' }), 'not-found');
      await fails(c.destroyCluster(cluster_id), 'not-found');
      assert.deepEqual(
        (await engine.log()).map((e) => `${e.method} ${e.status}`),
        ['GET 404', 'PATCH 404', 'DELETE 404'],
        'nothing retried',
      );
    },
    stuck: async () => {
      await engine.config({ stuck: true });
      const c = make();
      const { request_id } = await c.createCluster(createInput());
      const seen: string[] = [];
      const outcome = await trackRequest(c, request_id!, {
        maxTotalMs: 400,
        minDelayMs: 1,
        defaultDelayMs: 40,
        sleep: realSleep,
        onStatus: (i) => seen.push(i.status),
      });
      assert.equal(outcome.kind, 'gave-up');
      assert.equal(outcome.info?.status, 'PROCESSING');
      const log = await engine.log();
      assert.equal(log.filter((e) => e.method !== 'GET').length, 1, 'one create; the rest are polls');
      assert.ok(log.filter((e) => e.path === `/request/info/${request_id}`).length >= 2);
      assert.ok(seen.includes('PROCESSING'));
    },
    'unknown-status': async () => {
      const c = make();
      const { request_id } = await c.createCluster(createInput());
      await engine.fault({
        method: 'GET',
        path: `/request/info/${request_id}`,
        status: 200,
        body: { request_id, request_type: 'CLUSTER_CLAIM', status: 'PAUSED_BY_OPERATOR' },
        times: 2,
      });
      const seen: string[] = [];
      const outcome = await trackRequest(c, request_id!, {
        minDelayMs: 1,
        defaultDelayMs: 20,
        sleep: realSleep,
        onStatus: (i) => seen.push(i.status),
      });
      assert.equal(seen[0], 'PAUSED_BY_OPERATOR', 'reported as the server says');
      assert.equal(
        clusterPhase('PAUSED_BY_OPERATOR'),
        'unknown',
        'classified as unknown, not as running or failed',
      );
      assert.equal(
        outcome.kind,
        'completed',
        'an unknown status is not terminal: the tracker kept following',
      );
    },
    'text-only': async () => {
      await make().createCluster(createInput({ tp_cluster_name: 'in-text' }));
      await engine.config({ listMode: 'text' });
      const listing = await make().listClusters();
      assert.equal(listing.clusters, undefined, 'text only is not an empty list');
      assert.match(listing.message ?? '', /in-text/);
    },
    'huge-list': async () => {
      await engine.seed({ clusters: 10_000 });
      const started = Date.now();
      const listing = await make({ timeoutMs: 20_000 }).listClusters();
      const ms = Date.now() - started;
      assert.equal(listing.clusters?.length, 10_000);
      assert.equal(listing.skipped, 0);
      assert.ok(ms < 15_000, `10,000 clusters read in ${ms} ms`);
      assert.equal(await count('GET', '/cluster/list'), 1);
    },
  };

  before(async () => {
    engine = await startTestEngine();
  });
  after(async () => {
    await engine?.close();
  });
  beforeEach(async () => {
    await engine.reset();
    sleeps = [];
    unauthorized = 0;
    logLines = [];
  });

  for (const [kind, run] of Object.entries(kinds) as Array<[FaultKind, () => Promise<void>]>) {
    ledger.cover(it(`${kind}: ${FAULT_KINDS[kind]}`, run), faultSubject(kind));
  }
});
