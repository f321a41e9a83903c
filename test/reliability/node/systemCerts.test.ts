/**
 * The operating system's certificate store (VS Code's http.systemCertificates) against a private CA:
 * the CA goes into Debian's store (update-ca-certificates), the local engine is served over https with
 * a certificate that CA signed, and the client connects with strict SSL on, directly, through a proxy
 * (tinyproxy) and over the job WebSocket; with the setting off or the CA removed it fails with the TLS
 * message. Changing the store needs root on Linux: elsewhere these checks are skipped, and in CI they
 * fail instead (they must run there).
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as https from 'node:https';
import * as path from 'node:path';
import { type ClientOptions, type TensorPoolError } from '../../../src/api';
import { nodeClientOptions } from '../../../src/api/proxy';
import { resetSystemCertificates } from '../../../src/api/systemCerts';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { startTinyproxy, type RunningProxy } from '../../fixtures/tinyproxy';
import { ledger } from '../ledger';
import {
  bundleHas,
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

const TLS_MESSAGE =
  /^TLS error talking to 127\.0\.0\.1:\d+ \([A-Z_]+\): the certificate could not be verified\. Check http\.proxyStrictSSL, or install your corporate proxy's CA in the system certificate store \(http\.systemCertificates\)\.$/;

describe('reliability: the system certificate store (private CA, update-ca-certificates)', function () {
  this.timeout(30_000);
  const problem = systemStoreProblem();
  const file = storeFile('node');
  let ca: PrivateCa;
  let engine: EngineHandle;
  let front: TlsFront;
  let proxy: RunningProxy;
  const make = (over: Partial<ClientOptions> = {}) =>
    apiClient(
      { url: front.url, token: engine.token },
      {
        userAgent: 'tensorpool-vscode/reliability',
        maxRetries: 0,
        timeoutMs: 5000,
        ...over,
      },
    );
  const tlsFailure = async (p: Promise<unknown>) =>
    assert.rejects(p, (e: TensorPoolError) => {
      assert.equal(e.kind, 'network', e.message);
      assert.match(e.message, TLS_MESSAGE);
      assert.equal(e.mayHaveReachedServer, false);
      return true;
    });

  before(async function () {
    if (problem) {
      if (process.env.CI) throw new Error(`the system-store checks must run in CI: ${problem}`);
      this.skip();
    }
    ca = makePrivateCa();
    [engine, proxy] = await Promise.all([startTestEngine(), startTinyproxy()]);
    front = await startTlsFront(Number(new URL(engine.url).port), ca);
    installCa(ca.caPem, file);
    assert.ok(bundleHas(ca.caPem), 'update-ca-certificates put the CA in /etc/ssl/certs/ca-certificates.crt');
  });
  beforeEach(() => resetSystemCertificates());
  // Always, even after a failure: the store goes back to what it was.
  after(async () => {
    if (problem) return;
    uninstallCa(file);
    resetSystemCertificates();
    await Promise.all([front?.close(), proxy?.close(), engine?.close()]);
    ca?.remove();
  });

  const check = (name: string, fn: () => Promise<void>) => ledger.cover(it(name, fn), `network:${name}`);

  check('a certificate signed by a CA in the system store is trusted with strict SSL on', async () => {
    await engine.clearLog();
    const me = await make({ proxy: { strictSSL: true } }).me();
    assert.ok(me.email, 'GET /me answered over https');
    assert.equal((await engine.calls('GET', '/me')).length, 1, 'the engine behind the TLS front answered');
  });

  check('through a proxy (CONNECT via tinyproxy) the system CA is trusted too', async () => {
    const before = proxy
      .log()
      .split('\n')
      .filter((l) => l.includes(`CONNECT 127.0.0.1:${front.port}`)).length;
    await make({ proxy: { url: proxy.url } }).me();
    const after = proxy
      .log()
      .split('\n')
      .filter((l) => l.includes(`CONNECT 127.0.0.1:${front.port}`)).length;
    assert.ok(after > before, `tinyproxy tunnelled to the TLS front: ${proxy.log().slice(-300)}`);
  });

  check('the job WebSocket (wss) trusts the system CA', async () => {
    const out = await make().jobs.listen('job_missing', { onMessage: () => undefined });
    assert.equal(out.kind, 'ended');
    assert.ok(out.kind === 'ended' && out.opened, `the wss connection opened: ${JSON.stringify(out)}`);
    assert.equal(out.kind === 'ended' && out.code, 4404, 'and the engine answered: unknown job');
  });

  check('a Node https client with nodeClientOptions() (the S3 client) trusts the system CA', async () => {
    const opts = await nodeClientOptions(front.url, { strictSSL: true });
    assert.equal(opts.rejectUnauthorized, true);
    assert.ok(
      opts.ca?.some((pem) => pem.includes(ca.caPem.split('\n')[1])),
      'the CA is in the list',
    );
    assert.equal(opts.proxy, undefined);
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(`${front.url}/me`, { ca: opts.ca, rejectUnauthorized: opts.rejectUnauthorized }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    assert.equal(status, 401, 'the TLS handshake succeeded and the engine answered (no token sent)');
  });

  check('http.systemCertificates=false: the same certificate is refused with the TLS message', async () => {
    await tlsFailure(make({ proxy: { systemCertificates: false } }).me());
    const opts = await nodeClientOptions(front.url, { systemCertificates: false });
    assert.equal(opts.ca, undefined);
  });

  // Node >= 22.15 reads the system store once per process (tls.getCACertificates('system')), as VS Code
  // does per session: the client after the removal runs in a fresh process, as a new session would.
  check(
    'with the CA removed from the system store, the TLS message; nothing reached the engine',
    async () => {
      uninstallCa(file);
      assert.equal(bundleHas(ca.caPem), false, 'update-ca-certificates --fresh removed it');
      await engine.clearLog();
      const out = await freshSession(front.url, engine.token);
      assert.match(out.create, TLS_MESSAGE);
      assert.equal(out.mayHaveReachedServer, false);
      assert.equal(
        out.listen.opened,
        false,
        `the wss connection did not open: ${JSON.stringify(out.listen)}`,
      );
      assert.equal((await engine.log()).length, 0, 'no request reached the engine');
    },
  );
});

/** A create and a job listen from a new Node process (a new session: nothing cached). Asynchronous: the
 *  engine and the TLS front answer from this process. */
async function freshSession(
  url: string,
  token: string,
): Promise<{ create: string; mayHaveReachedServer: unknown; listen: { opened?: boolean } }> {
  const script = `
    const { TensorPoolClient } = require(${JSON.stringify(path.join(__dirname, '../../../src/api'))});
    const c = new TensorPoolClient({ baseUrl: process.argv[1], getToken: () => process.env.TP_TOKEN,
      userAgent: 'tensorpool-vscode/reliability', maxRetries: 0, timeoutMs: 5000 });
    (async () => {
      const out = {};
      try { await c.createCluster({ instance_type: '1xH100' }); out.create = 'created'; }
      catch (e) { out.create = e.message; out.mayHaveReachedServer = e.mayHaveReachedServer; }
      out.listen = await c.jobs.listen('job_missing', { onMessage: () => undefined });
      process.stdout.write(JSON.stringify(out));
    })();`;
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['-e', script, url],
      { env: { ...process.env, TP_TOKEN: token }, encoding: 'utf8', timeout: 20_000 },
      (err, out) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(out)),
    ),
  );
  return JSON.parse(stdout) as Awaited<ReturnType<typeof freshSession>>;
}
