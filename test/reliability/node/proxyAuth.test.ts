/**
 * A proxy that requires authentication (tinyproxy with BasicAuth on loopback) and VS Code's
 * http.proxyAuthorization: with it the requests and the job WebSocket go through; without it (or with
 * wrong credentials) a clear 407 message that says nothing was sent; the value never shows in a log
 * line or an error message.
 */
import * as assert from 'node:assert/strict';
import { type ClientOptions, type TensorPoolError } from '../../../src/api';
import { nodeClientOptions } from '../../../src/api/proxy';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { createInput } from '../../fixtures/payloads';
import {
  PROXY_AUTHORIZATION,
  PROXY_PASSWORD,
  PROXY_USER,
  startTinyproxy,
  type RunningProxy,
} from '../../fixtures/tinyproxy';
import { ledger } from '../ledger';
import { apiClient } from '../../shared/apiClient';

const AUTHORIZATION = PROXY_AUTHORIZATION;

const MESSAGE_407 =
  /^The proxy requires authentication \((407 Proxy Authentication Required|401 Unauthorized)\) for 127\.0\.0\.1:\d+: check http\.proxyAuthorization, or the credentials in http\.proxy\.$/;

describe('reliability: a proxy requiring Proxy-Authorization (tinyproxy BasicAuth)', function () {
  this.timeout(20_000);
  let engine: EngineHandle;
  let proxy: RunningProxy;
  const lines: string[] = [];
  const make = (over: Partial<ClientOptions> = {}) =>
    apiClient(engine, {
      userAgent: 'tensorpool-vscode/reliability',
      maxRetries: 0,
      timeoutMs: 5000,
      log: (level, line) => lines.push(`${level} ${line}`),
      logLevel: () => 'trace',
      ...over,
    });
  const tunnels = () =>
    proxy
      .log()
      .split('\n')
      .filter((l) => l.includes(`CONNECT ${new URL(engine.url).host}`)).length;
  const refused = (e: TensorPoolError, status = 407) => {
    assert.equal(e.kind, 'network', e.message);
    assert.match(e.message, MESSAGE_407);
    assert.ok(e.message.includes(`(${status} `), e.message);
    assert.equal(e.mayHaveReachedServer, false);
    return true;
  };

  before(async () => {
    [engine, proxy] = await Promise.all([
      startTestEngine(),
      startTinyproxy({ basicAuth: { user: PROXY_USER, password: PROXY_PASSWORD } }),
    ]);
  });
  after(async () => {
    await Promise.all([proxy?.close(), engine?.close()]);
  });
  const check = (name: string, fn: () => Promise<void>) => ledger.cover(it(name, fn), `network:${name}`);

  check('http.proxyAuthorization: the requests go through the authenticating proxy', async () => {
    const before = tunnels();
    await engine.clearLog();
    const c = make({ proxy: { url: proxy.url, authorization: AUTHORIZATION } });
    await c.me();
    await c.listClusters();
    assert.ok(tunnels() > before, `tinyproxy tunnelled: ${proxy.log().slice(-300)}`);
    assert.equal((await engine.calls('GET', '/me')).length, 1, 'the engine answered');
    const sent = (await engine.log()).map((e) => JSON.stringify(e)).join('\n');
    assert.ok(
      !sent.includes(PROXY_PASSWORD) && !sent.includes(AUTHORIZATION.slice(6)),
      'the service never sees it',
    );
  });

  check('http.proxyAuthorization: the job WebSocket goes through the authenticating proxy', async () => {
    const before = tunnels();
    const out = await make({ proxy: { url: proxy.url, authorization: AUTHORIZATION } }).jobs.listen(
      'job_missing',
      {
        onMessage: () => undefined,
      },
    );
    assert.ok(out.kind === 'ended' && out.opened && out.code === 4404, JSON.stringify(out));
    assert.ok(tunnels() > before, 'through the proxy');
  });

  check('no http.proxyAuthorization: a clear 407 message, and the create was not sent', async () => {
    await engine.clearLog();
    await assert.rejects(make({ proxy: { url: proxy.url } }).createCluster(createInput()), refused);
    await assert.rejects(make({ proxy: { url: proxy.url } }).me(), refused);
    assert.equal((await engine.log()).length, 0, 'nothing reached the engine');
  });

  check(
    'wrong credentials: the authentication message (tinyproxy answers 401), without the value',
    async () => {
      const wrong = `Basic ${Buffer.from(`${PROXY_USER}:wrong_password_123`).toString('base64')}`;
      await assert.rejects(
        make({ proxy: { url: proxy.url, authorization: wrong } }).me(),
        (e: TensorPoolError) => {
          refused(e, 401);
          assert.ok(!e.message.includes(wrong.slice(6)) && !JSON.stringify(e).includes(wrong.slice(6)));
          return true;
        },
      );
      assert.ok(!lines.some((l) => l.includes(wrong.slice(6))), 'nor logged');
    },
  );

  check(
    'nodeClientOptions() (the S3 client) gives the proxy and the authorization; noProxy goes direct',
    async () => {
      const settings = { url: proxy.url, authorization: AUTHORIZATION, noProxy: ['.internal.example'] };
      assert.deepEqual((await nodeClientOptions('https://s3.example.com/bucket', settings, {})).proxy, {
        url: proxy.url,
        authorization: AUTHORIZATION,
      });
      assert.equal((await nodeClientOptions('https://s3.internal.example', settings, {})).proxy, undefined);
      assert.equal((await nodeClientOptions('https://internal.example:9000', settings, {})).proxy, undefined);
    },
  );

  check('the proxy credentials never show in a log line (at trace level)', async () => {
    await make({ proxy: { url: proxy.url, authorization: AUTHORIZATION } }).me();
    assert.ok(lines.length > 0, 'the client logged');
    const leaked = lines.filter((l) => l.includes(PROXY_PASSWORD) || l.includes(AUTHORIZATION.slice(6)));
    assert.deepEqual(leaked, []);
  });
});
