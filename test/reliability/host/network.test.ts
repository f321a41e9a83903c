// VS Code's proxy settings as the real extension reads them: http.proxy (a real tinyproxy on
// loopback, started here), http.noProxy, and http.proxyStrictSSL against an HTTPS endpoint with a
// self-signed certificate (made by openssl), with the TLS message the user sees.
//
// code-server quirk: writing an application-scoped setting (http.*) makes the remote extension host
// re-read the user settings without tensorpool.apiUrl, although settings.json still has it; writing
// tensorpool.apiUrl again restores it. So every http.* change here is followed by setApiUrl().
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { startTinyproxy, type RunningProxy } from '../../fixtures/tinyproxy';
import { ledger } from '../ledger';
import { startTlsServer, type TlsServer } from '../node/tlsServer';
import { ensureSignedIn, freshAccount } from './common';
import { accountIs, control, engine, setApiUrl } from './util';

async function setHttp(key: 'proxy' | 'noProxy' | 'proxyStrictSSL', value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global);
}

suite('Reliability: VS Code proxy settings (tinyproxy) and TLS', () => {
  let ext: TensorPoolExtensionApi;
  let proxy: RunningProxy;
  let tls: TlsServer;
  const enginePort = () => new URL(engine.url).port;
  const tunnels = (port: string | number) =>
    proxy
      .log()
      .split('\n')
      .filter((l) => l.includes(`CONNECT 127.0.0.1:${port}`)).length;

  suiteSetup(async () => {
    ext = await freshAccount();
    [proxy, tls] = await Promise.all([startTinyproxy(), startTlsServer()]);
  });
  suiteTeardown(async () => {
    await setHttp('proxy', undefined);
    await setHttp('noProxy', undefined);
    await setHttp('proxyStrictSSL', undefined);
    await setApiUrl(engine.url);
    await ensureSignedIn(ext);
    await Promise.all([proxy?.close(), tls?.close()]);
  });

  const check = (name: string, fn: () => Promise<void>) =>
    ledger.cover(test(name, fn), `network:host: ${name}`);

  check("http.proxy: the extension's requests go through the proxy", async () => {
    const before = tunnels(enginePort());
    await setHttp('proxy', proxy.url);
    await setApiUrl(engine.url);
    await accountIs(ext, 'signedIn', 20_000);
    await control.clearLog();
    await ext.refresh();
    assert.equal(ext.testing.clusters.error, undefined);
    assert.ok(
      tunnels(enginePort()) > before,
      `tinyproxy tunnelled to the engine: ${proxy.log().slice(-400)}`,
    );
    assert.ok((await control.calls('GET', '/cluster/list')).length >= 1, 'and the engine answered');
  });

  check('http.noProxy: listed hosts are reached directly', async () => {
    await setHttp('noProxy', ['127.0.0.1']);
    await setApiUrl(engine.url);
    await accountIs(ext, 'signedIn', 20_000);
    const before = tunnels(enginePort());
    await ext.refresh();
    assert.equal(ext.testing.clusters.error, undefined);
    assert.equal(tunnels(enginePort()), before, 'nothing went through the proxy');
    await setHttp('noProxy', undefined);
  });

  check(
    'http.proxyStrictSSL: a self-signed certificate is refused with a message naming the setting, then accepted with it off',
    async () => {
      await setApiUrl(tls.url);
      await accountIs(ext, 'unreachable', 20_000);
      const message = (ext.store.account as { message: string }).message;
      assert.match(
        message,
        /^TLS error talking to 127\.0\.0\.1:\d+ \([A-Z_]+\): the certificate could not be verified\. Check http\.proxyStrictSSL/,
      );
      assert.match(ext.testing.statusBar.text, /Offline/);
      assert.equal(tls.hits(), 0, 'no request got through');
      const before = tunnels(tls.port);
      await setHttp('proxyStrictSSL', false);
      await setApiUrl(tls.url);
      await accountIs(ext, 'signedIn', 20_000);
      assert.equal((ext.store.account as { label: string }).label, 'tls@reliability.test');
      assert.ok(tls.hits() > 0);
      assert.ok(tunnels(tls.port) > before, 'through the proxy (http.proxy is still set)');
    },
  );
});
