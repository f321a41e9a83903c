/**
 * Network reality at the client: VS Code's http.proxyStrictSSL (with and without http.proxy) and
 * HTTPS_PROXY / NO_PROXY against an HTTPS endpoint with a self-signed certificate, through a real
 * proxy (Debian's tinyproxy on loopback), and clear messages for TLS errors, DNS failures and
 * refused connections, direct and behind the proxy. (proxy.test.ts next to this file
 * covers http.proxy, http.noProxy, HTTP_PROXY and a proxy that is down against plain http.)
 */
import * as assert from 'node:assert/strict';
import { type ClientOptions, type TensorPoolError } from '../../../src/api';
import { proxyDispatcher } from '../../../src/api/proxy';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { createInput } from '../../fixtures/payloads';
import { startTinyproxy, type RunningProxy } from '../../fixtures/tinyproxy';
import { ledger } from '../ledger';
import { startTlsServer, type TlsServer } from './tlsServer';
import { freePort as closedPort } from '../../shared/net';
import { apiClient } from '../../shared/apiClient';

type Err = TensorPoolError & { code?: string };

describe('reliability: network reality (TLS, proxy, DNS, refused)', function () {
  this.timeout(20_000);
  let tls: TlsServer;
  let proxy: RunningProxy;
  let engine: EngineHandle;
  const make = (over: Partial<ClientOptions>) =>
    apiClient(
      { url: tls.url, token: 'tp_network_token_123456' },
      {
        userAgent: 'tensorpool-vscode/reliability',
        maxRetries: 0,
        timeoutMs: 5000,
        ...over,
      },
    );
  /** tinyproxy's log lines for tunnels to the TLS server. */
  const tunnels = () =>
    proxy
      .log()
      .split('\n')
      .filter((l) => l.includes(`CONNECT 127.0.0.1:${tls.port}`) || l.includes(`127.0.0.1:${tls.port}`))
      .length;

  async function failsWith(p: Promise<unknown>, check: (e: Err) => void): Promise<void> {
    await assert.rejects(p, (e: Err) => {
      assert.equal(e.kind, 'network', `${e.kind}: ${e.message}`);
      assert.ok(e.message.length < 300, e.message);
      assert.ok(!e.message.includes('tp_network_token_123456'));
      check(e);
      return true;
    });
  }

  before(async () => {
    [tls, proxy, engine] = await Promise.all([startTlsServer(), startTinyproxy(), startTestEngine()]);
  });
  after(async () => {
    await Promise.all([tls?.close(), proxy?.close(), engine?.close()]);
  });

  const check = (name: string, fn: () => Promise<void>) => ledger.cover(it(name, fn), `network:${name}`);

  check(
    'TLS: a self-signed certificate is refused by default, with a message naming http.proxyStrictSSL; nothing is sent',
    async () => {
      const before = tls.hits();
      await failsWith(make({}).createCluster(createInput()), (e) => {
        assert.match(
          e.message,
          /^TLS error talking to 127\.0\.0\.1:\d+ \([A-Z_]+\): the certificate could not be verified\. Check http\.proxyStrictSSL/,
        );
        assert.equal(e.mayHaveReachedServer, false);
      });
      assert.equal(tls.hits(), before, 'no request got through');
    },
  );

  check('TLS: https to a plain-http port is a TLS error, not a hang', async () => {
    await failsWith(make({ baseUrl: engine.url.replace('http:', 'https:') }).me(), (e) => {
      assert.match(e.message, /^TLS error talking to 127\.0\.0\.1:\d+/);
      assert.equal(e.mayHaveReachedServer, false);
    });
  });

  check('http.proxyStrictSSL=false (no proxy) accepts the self-signed certificate', async () => {
    assert.equal((await make({ proxy: { strictSSL: false } }).me()).email, 'tls@reliability.test');
  });

  check(
    'http.proxy + proxyStrictSSL=true: the tunnel is made through tinyproxy, the certificate still refused',
    async () => {
      const before = tunnels();
      await failsWith(make({ proxy: { url: proxy.url, strictSSL: true } }).me(), (e) =>
        assert.match(e.message, /TLS error|certificate/),
      );
      assert.ok(tunnels() > before, `tinyproxy saw the CONNECT: ${proxy.log().slice(-300)}`);
    },
  );

  check('http.proxy + proxyStrictSSL=false: through tinyproxy, accepted', async () => {
    const before = tunnels();
    assert.equal(
      (await make({ proxy: { url: proxy.url, strictSSL: false } }).me()).email,
      'tls@reliability.test',
    );
    assert.ok(tunnels() > before, 'the request went through the proxy');
  });

  check('HTTPS_PROXY from the environment is used for an https endpoint', async () => {
    const before = tunnels();
    const dispatcher = proxyDispatcher({ strictSSL: false }, { HTTPS_PROXY: proxy.url });
    assert.ok(dispatcher);
    await make({ dispatcher }).me();
    assert.ok(tunnels() > before, 'through the proxy');
  });

  check('NO_PROXY in the environment (and http.noProxy) bypasses the proxy for that host', async () => {
    const before = tunnels();
    const hitsBefore = tls.hits();
    await make({
      dispatcher: proxyDispatcher({ strictSSL: false }, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }),
    }).me();
    await make({ proxy: { url: proxy.url, strictSSL: false, noProxy: ['127.0.0.1'] } }).me();
    assert.equal(tunnels(), before, 'nothing went through the proxy');
    assert.equal(tls.hits(), hitsBefore + 2, 'both reached the server directly');
  });

  check('DNS failure, direct: "Cannot resolve <host>", nothing sent', async () => {
    await failsWith(
      make({ baseUrl: 'https://engine.tensorpool.invalid' }).createCluster(createInput()),
      (e) => {
        assert.match(
          e.message,
          /^Cannot resolve engine\.tensorpool\.invalid: check the API URL and your network or DNS\.$/,
        );
        assert.equal(e.mayHaveReachedServer, false);
      },
    );
  });

  check('DNS failure behind the proxy: the message names the proxy', async () => {
    await failsWith(
      make({ baseUrl: 'https://engine.tensorpool.invalid', proxy: { url: proxy.url } }).me(),
      (e) => {
        assert.match(e.message, /proxy/i);
        assert.match(e.message, /engine\.tensorpool\.invalid/);
        assert.match(e.message, /http\.proxy or HTTPS_PROXY/);
      },
    );
  });

  check('connection refused, direct: names the host and says nothing was sent', async () => {
    const port = await closedPort();
    await failsWith(make({ baseUrl: `http://127.0.0.1:${port}` }).createCluster(createInput()), (e) => {
      assert.equal(
        e.message,
        `Connection refused by 127.0.0.1:${port}: is the service (or the local engine) running?`,
      );
      assert.equal(e.mayHaveReachedServer, false);
    });
  });

  check(
    'connection refused behind the proxy (the proxy cannot reach the host): the message names the proxy',
    async () => {
      const port = await closedPort();
      await failsWith(make({ baseUrl: `https://127.0.0.1:${port}`, proxy: { url: proxy.url } }).me(), (e) => {
        assert.match(e.message, /proxy/i);
        assert.match(e.message, /http\.proxy or HTTPS_PROXY/);
      });
    },
  );
});
