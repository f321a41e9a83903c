/**
 * A company's TLS-inspecting proxy (squid-openssl with ssl_bump) whose CA is in the operating system's
 * store: the client goes through it with strict SSL on, although the origin's own certificate comes
 * from a CA the client does not know (the proxy re-signs the tunnel); with http.systemCertificates off
 * the proxy's certificate is refused with the TLS message. Root on Linux with squid-openssl only;
 * skipped elsewhere, failing in CI.
 */
import * as assert from 'node:assert/strict';
import { type ClientOptions, type TensorPoolError } from '../../../src/api';
import { resetSystemCertificates } from '../../../src/api/systemCerts';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { ledger } from '../ledger';
import { inspectingProxyProblem, startInspectingProxy, type InspectingProxy } from './inspectingProxy';
import {
  installCa,
  makePrivateCa,
  startTlsFront,
  storeFile,
  systemStoreProblem,
  uninstallCa,
  type PrivateCa,
  type TlsFront,
} from './privateCa';
import { apiClient } from '../../shared/apiClient';

describe('reliability: a TLS-inspecting proxy (squid ssl_bump) with its CA in the system store', function () {
  this.timeout(40_000);
  const problem = systemStoreProblem() ?? inspectingProxyProblem();
  const file = storeFile('inspect');
  let origin: PrivateCa;
  let company: PrivateCa;
  let engine: EngineHandle;
  let front: TlsFront;
  let squid: InspectingProxy;
  const make = (over: Partial<ClientOptions> = {}) =>
    apiClient(
      { url: front.url, token: engine.token },
      {
        userAgent: 'tensorpool-vscode/reliability',
        maxRetries: 0,
        timeoutMs: 8000,
        ...over,
      },
    );

  before(async function () {
    if (problem) {
      if (process.env.CI) throw new Error(`the TLS-inspecting proxy check must run in CI: ${problem}`);
      this.skip();
    }
    origin = makePrivateCa('TensorPool Origin CA');
    company = makePrivateCa('TensorPool Company Inspection CA');
    engine = await startTestEngine();
    front = await startTlsFront(Number(new URL(engine.url).port), origin);
    squid = await startInspectingProxy({ key: company.caKey, cert: company.caPem });
    installCa(company.caPem, file);
  });
  beforeEach(() => resetSystemCertificates());
  after(async () => {
    if (problem) return;
    uninstallCa(file);
    resetSystemCertificates();
    await Promise.all([squid?.close(), front?.close(), engine?.close()]);
    origin?.remove();
    company?.remove();
  });

  const check = (name: string, fn: () => Promise<void>) => ledger.cover(it(name, fn), `network:${name}`);

  check(
    'strict SSL on: through the inspecting proxy, its certificate trusted from the system store',
    async () => {
      await engine.clearLog();
      const me = await make({ proxy: { url: squid.url, strictSSL: true } }).me();
      assert.ok(me.email);
      assert.equal((await engine.calls('GET', '/me')).length, 1, 'the engine answered');
      assert.match(
        squid.accessLog(),
        new RegExp(`GET https://127\\.0\\.0\\.1:${front.port}/me`),
        'squid decrypted it',
      );
    },
  );

  check(
    'without the proxy the origin certificate (an unknown CA) is refused: the proxy really re-signed',
    async () => {
      await assert.rejects(make().me(), (e: TensorPoolError) => {
        assert.match(
          e.message,
          /^TLS error talking to 127\.0\.0\.1:\d+ \([A-Z_]+\): the certificate could not be verified/,
        );
        return true;
      });
    },
  );

  check(
    'http.systemCertificates=false: the inspecting proxy certificate is refused with the TLS message',
    async () => {
      await assert.rejects(
        make({ proxy: { url: squid.url, systemCertificates: false } }).me(),
        (e: TensorPoolError) => {
          assert.equal(e.kind, 'network', e.message);
          assert.match(
            e.message,
            /^TLS error talking to 127\.0\.0\.1:\d+ \([A-Z_]+\): the certificate could not be verified\. Check http\.proxyStrictSSL/,
          );
          assert.equal(e.mayHaveReachedServer, false);
          return true;
        },
      );
    },
  );
});
