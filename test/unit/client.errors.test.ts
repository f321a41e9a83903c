/**
 * Error classes, retries and the never-retry rule for mutations, against faults injected by the
 * local engine (real sockets: drops, hangs, HTML pages, truncated JSON).
 */
import * as assert from 'node:assert/strict';
import type { ClientOptions, TensorPoolError } from '../../src/api';
import { testClient, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';
import { createInput, validationErrorBody } from '../fixtures/payloads';
import { freePort } from '../shared/net';

type Err = TensorPoolError & Record<string, unknown>;

function rejectsWith(p: Promise<unknown>, kind: string, check?: (e: Err) => void): Promise<void> {
  return assert.rejects(p, (e: Err) => {
    assert.equal(e.kind, kind, `expected ${kind}, got ${e.kind}: ${e.message}`);
    check?.(e);
    return true;
  });
}

describe('API client errors, retries and timeouts', function () {
  this.timeout(10_000);
  let engine: EngineHandle;
  let sleeps: number[];
  const make = (over: Partial<ClientOptions> = {}) =>
    testClient(engine, {
      timeoutMs: 2000,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...over,
    });

  useTestEngine((e) => (engine = e));
  beforeEach(() => {
    sleeps = [];
  });

  it('401 with a wrong token: UnauthorizedError with the server message; the onUnauthorized hook fires', async () => {
    let hooked = 0;
    const c = make({
      getToken: () => 'tp_wrong_token_123456',
      onUnauthorized: () => {
        hooked++;
      },
    });
    await rejectsWith(c.me(), 'unauthorized', (e) => {
      assert.equal(e.status, 401);
      assert.ok(e.message.length > 5);
      assert.ok(!e.message.includes('tp_wrong_token_123456'));
    });
    assert.equal(hooked, 1);
    assert.equal((await engine.calls('GET', '/me')).length, 1, '401 is not retried');
  });

  it('401 with no token at all', async () => {
    await rejectsWith(make({ getToken: () => undefined }).me(), 'unauthorized');
    const [call] = await engine.calls('GET', '/me');
    assert.equal(call.authorization, null);
  });

  it('403 for the read-only token on a mutation', async () => {
    await rejectsWith(
      make({ getToken: () => engine.readonlyToken }).createCluster(createInput()),
      'forbidden',
      (e) => assert.equal(e.status, 403),
    );
  });

  it('422 from the server becomes per-field messages', async () => {
    await engine.fault({
      method: 'POST',
      path: '/cluster/create',
      status: 422,
      body: validationErrorBody(
        ['num_nodes', 'Input should be greater than or equal to 1'],
        ['instance_type', 'Unknown instance type'],
      ),
    });
    await rejectsWith(make().createCluster(createInput()), 'validation', (e) => {
      const v = e as unknown as { messageFor(f: string): string | undefined; local: boolean };
      assert.equal(v.local, false);
      assert.equal(v.messageFor('num_nodes'), 'Input should be greater than or equal to 1');
      assert.equal(v.messageFor('instance_type'), 'Unknown instance type');
      assert.match(e.message, /num_nodes/);
    });
  });

  it('the engine itself answers 422 for a bad body (sent raw, bypassing the client)', async () => {
    const res = await engine.raw('/cluster/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ instance_type: '8xH100', num_nodes: 0 }),
    });
    assert.equal(res.status, 422);
    const body = (await res.json()) as { detail: Array<{ loc: unknown[] }> };
    assert.deepEqual(body.detail[0].loc, ['body', 'num_nodes']);
  });

  it('404 for an unknown cluster and 409 for a duplicate name', async () => {
    await rejectsWith(make().clusterInfo('c-does-not-exist'), 'not-found', (e) =>
      assert.equal(e.status, 404),
    );
    await make().createCluster(createInput({ tp_cluster_name: 'dup' }));
    await rejectsWith(make().createCluster(createInput({ tp_cluster_name: 'dup' })), 'conflict', (e) =>
      assert.match(e.message, /dup|exist/i),
    );
  });

  it('error text is read from message, error, detail or external_message', async () => {
    for (const [body, text] of [
      [{ message: 'from message' }, 'from message'],
      [{ error: 'from error' }, 'from error'],
      [{ detail: 'from detail' }, 'from detail'],
      [{ external_message: 'from external' }, 'from external'],
    ] as const) {
      await engine.fault({ method: 'GET', path: '/me', status: 400, body });
      await rejectsWith(make().me(), 'validation', (e) => assert.equal(e.message, text));
    }
  });

  it("the service's words keep no link a notification would render (command:, https:, file:)", async () => {
    const said =
      'Denied. [Open a terminal](command:workbench.action.terminal.new) or [docs](https://x.test/a)';
    await engine.fault({ method: 'GET', path: '/me', status: 400, body: { message: said } });
    await rejectsWith(make().me(), 'validation', (e) => {
      assert.equal(
        e.message,
        'Denied. [Open a terminal] (command:workbench.action.terminal.new) or [docs] (https://x.test/a)',
      );
      assert.doesNotMatch(e.message, /\]\(/);
    });
    await engine.fault({
      method: 'POST',
      path: '/cluster/create',
      status: 422,
      body: validationErrorBody(['num_nodes', 'See [this](file:///etc/passwd)']),
    });
    await rejectsWith(make().createCluster(createInput()), 'validation', (e) => {
      const v = e as unknown as { messageFor(f: string): string | undefined };
      assert.equal(v.messageFor('num_nodes'), 'See [this] (file:///etc/passwd)');
    });
  });

  it('429 with Retry-After: a GET waits what the server says, then succeeds', async () => {
    await engine.fault({
      method: 'GET',
      path: '/cluster/list',
      status: 429,
      body: { error: 'slow down' },
      headers: { 'retry-after': '3' },
    });
    const listing = await make().listClusters();
    assert.deepEqual(listing.clusters, []);
    assert.deepEqual(sleeps, [3000]);
    assert.equal((await engine.calls('GET', '/cluster/list')).length, 2);
  });

  it('429 without Retry-After: backoff; a Retry-After beyond the cap is not waited for', async () => {
    await engine.fault({ method: 'GET', path: '/cluster/list', status: 429, body: { error: 'slow down' } });
    await make().listClusters();
    assert.equal(sleeps.length, 1);
    assert.ok(sleeps[0] > 0 && sleeps[0] < 100, `backoff ${sleeps[0]} ms`);
    sleeps = [];
    await engine.fault({
      method: 'GET',
      path: '/cluster/list',
      status: 429,
      body: { error: 'later' },
      headers: { 'retry-after': '3600' },
    });
    await rejectsWith(make().listClusters(), 'rate-limited', (e) => assert.equal(e.retryAfterMs, 3_600_000));
    assert.deepEqual(sleeps, []);
  });

  it('GET retries on 5xx are bounded, then ServerError', async () => {
    await engine.fault({
      method: 'GET',
      path: '/me',
      status: 503,
      body: { message: 'maintenance' },
      times: 10,
    });
    await rejectsWith(make({ maxRetries: 2 }).me(), 'server', (e) => {
      assert.equal(e.status, 503);
      assert.match(e.message, /maintenance/);
    });
    assert.equal((await engine.calls('GET', '/me')).length, 3);
  });

  it('502 with an HTML body: a short readable message, not the page', async () => {
    await engine.fault({
      method: 'GET',
      path: '/me',
      status: 502,
      rawBody: '<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>',
      contentType: 'text/html',
      times: 10,
    });
    await rejectsWith(make({ maxRetries: 0 }).me(), 'server', (e) => {
      assert.match(e.message, /502 Bad Gateway/);
      assert.ok(!e.message.includes('<'));
    });
  });

  it('POST/PATCH/DELETE are never retried: 503, drop, drop-after, timeout each reach the engine once', async () => {
    const c = make({ timeoutMs: 1000 }); // long enough for a busy machine to answer the cases that do answer
    const cases: Array<[string, Parameters<EngineHandle['fault']>[0]]> = [
      ['network', { method: 'POST', path: '/cluster/create', action: 'drop' }],
      ['network', { method: 'POST', path: '/cluster/create', action: 'drop-after' }],
      ['timeout', { method: 'POST', path: '/cluster/create', action: 'hang' }],
      ['server', { method: 'POST', path: '/cluster/create', status: 503, body: { message: 'busy' } }],
    ];
    for (const [kind, fault] of cases) {
      await engine.clearLog();
      await engine.fault(fault);
      await rejectsWith(c.createCluster(createInput()), kind, (e) =>
        assert.equal(
          e.mayHaveReachedServer,
          true,
          `${fault.action ?? fault.status} may have reached the server`,
        ),
      );
      assert.equal(
        (await engine.calls('POST', '/cluster/create')).length,
        1,
        `one create under ${fault.action ?? fault.status}`,
      );
    }
    assert.deepEqual(sleeps, []);
    // drop-after really created a cluster: that is exactly why nothing may be retried.
    const listing = await make().listClusters();
    assert.equal(listing.clusters?.length, 1);

    await engine.clearLog();
    const { cluster_id } = await make().createCluster(createInput({ tp_cluster_name: 'patch-me' }));
    await engine.fault({ method: 'PATCH', path: `/cluster/edit/${cluster_id}`, status: 502, body: {} });
    await rejectsWith(c.editCluster(cluster_id, { cluster_name: 'x1' }), 'server');
    await engine.fault({ method: 'DELETE', path: `/cluster/${cluster_id}`, action: 'drop' });
    await rejectsWith(c.destroyCluster(cluster_id), 'network');
    assert.equal((await engine.calls('PATCH', `/cluster/edit/${cluster_id}`)).length, 1);
    assert.equal((await engine.calls('DELETE', `/cluster/${cluster_id}`)).length, 1);
  });

  it('GETs are retried after a dropped connection and a timeout', async () => {
    await engine.fault({ method: 'GET', path: '/me', action: 'drop' });
    await make().me();
    await engine.fault({ method: 'GET', path: '/me', action: 'hang' });
    await make({ timeoutMs: 1000 }).me(); // the retry must answer within it, busy machine or not
    assert.equal((await engine.calls('GET', '/me')).length, 4);
    assert.equal(sleeps.length, 2);
  });

  it('connection refused: NetworkError that says the request was never sent', async () => {
    const port = await freePort();
    const c = make({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    await rejectsWith(c.createCluster(createInput()), 'network', (e) => {
      assert.equal(e.code, 'ECONNREFUSED');
      assert.equal(e.mayHaveReachedServer, false);
      assert.match(e.message, /refused/i);
    });
  });

  it('bad responses: truncated JSON, empty 200, wrong shape; extra fields are kept', async () => {
    await engine.fault({ method: 'GET', path: '/object-storage/credentials', action: 'truncate' });
    await make().enableObjectStorage();
    await rejectsWith(make().objectStorageCredentials(), 'bad-response', (e) =>
      assert.match(e.message, /not JSON/),
    );
    await engine.fault({ method: 'GET', path: '/user/organization/info', status: 200, rawBody: '' });
    await rejectsWith(make().organizationInfo(), 'bad-response', (e) => assert.match(e.message, /empty/));
    await engine.fault({
      method: 'GET',
      path: '/request/info/r-1',
      status: 200,
      body: { request_id: 'r-1', status: 7 },
    });
    await rejectsWith(make().requestInfo('r-1'), 'bad-response', (e) => assert.match(e.message, /status/));
    await engine.fault({
      method: 'GET',
      path: '/request/info/r-2',
      status: 200,
      body: { request_id: 'r-2', status: 'COMPLETED', brand_new: { x: 1 } },
    });
    const { info } = await make().requestInfo('r-2');
    assert.deepEqual((info as Record<string, unknown>).brand_new, { x: 1 });
  });

  it('an AbortSignal cancels a request in flight', async () => {
    await engine.fault({ method: 'GET', path: '/me', action: 'hang' });
    const ac = new AbortController();
    const p = make().me({ signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await rejectsWith(p, 'cancelled');
  });
});
