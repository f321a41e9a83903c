/**
 * Proxy support against a real proxy (Debian's tinyproxy on loopback): VS Code's http.proxy (passed
 * as ProxySettings), HTTPS_PROXY / HTTP_PROXY and NO_PROXY from the environment, and clear messages.
 */
import * as assert from 'node:assert/strict';
import { proxyDispatcher } from '../../../src/api/proxy';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { startTinyproxy, type RunningProxy } from '../../fixtures/tinyproxy';
import { apiClient } from '../../shared/apiClient';

describe('proxy support (tinyproxy on loopback)', function () {
  this.timeout(15_000);
  let engine: EngineHandle;
  let proxy: RunningProxy;
  const engineHost = () => new URL(engine.url).host;
  const through = () =>
    proxy
      .log()
      .split('\n')
      .filter((l) => l.includes(`CONNECT ${engineHost()}`) || l.includes(engineHost())).length;

  before(async () => {
    engine = await startTestEngine();
    proxy = await startTinyproxy();
  });
  after(async () => {
    await proxy?.close();
    await engine?.close();
  });

  it('http.proxy: every request goes through the proxy', async () => {
    const before = through();
    const c = apiClient(engine, {
      userAgent: 't',
      proxy: { url: proxy.url },
    });
    await c.me();
    await c.listClusters();
    assert.ok(through() >= before + 1, `proxy log shows the engine: ${proxy.log().slice(-500)}`);
    assert.equal((await engine.calls('GET', '/me')).length >= 1, true);
  });

  it('http.noProxy (and NO_PROXY) hosts are reached directly', async () => {
    const before = through();
    const c = apiClient(engine, {
      userAgent: 't',
      proxy: { url: proxy.url, noProxy: ['127.0.0.1'] },
    });
    await c.me();
    assert.equal(through(), before, 'nothing went through the proxy');
    const d = proxyDispatcher({ url: proxy.url }, { NO_PROXY: '127.0.0.1' });
    const c2 = apiClient(engine, {
      userAgent: 't',
      dispatcher: d,
    });
    await c2.me();
    assert.equal(through(), before);
  });

  it('HTTPS_PROXY / HTTP_PROXY from the environment are honoured', async () => {
    const before = through();
    const d = proxyDispatcher(undefined, { HTTP_PROXY: proxy.url });
    assert.ok(d, 'a proxy dispatcher for HTTP_PROXY');
    await apiClient(engine, {
      userAgent: 't',
      dispatcher: d,
    }).me();
    assert.ok(through() > before);
    assert.equal(proxyDispatcher(undefined, {}), undefined, 'no proxy and strict TLS: undici default');
  });

  it('a proxy that is down gets a message naming the proxy, and the request was not sent', async () => {
    const c = apiClient(engine, {
      userAgent: 't',
      maxRetries: 0,
      proxy: { url: 'http://127.0.0.1:9' },
    });
    await assert.rejects(
      c.createCluster({ instance_type: '1xH100' }),
      (e: Error & { kind?: string; mayHaveReachedServer?: boolean }) => {
        assert.equal(e.kind, 'network');
        assert.match(e.message, /proxy at 127\.0\.0\.1:9/);
        assert.equal(e.mayHaveReachedServer, false);
        return true;
      },
    );
  });
});
