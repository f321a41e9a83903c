// VS Code's http.proxyAuthorization as the real extension reads it: a proxy that requires
// authentication (tinyproxy with BasicAuth on loopback, started here) refuses the extension's requests
// with the 407 message until the setting is written, then lets them through; the value never shows in
// the log. (Same code-server quirk as network.test.ts: every http.* write is followed by setApiUrl().)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import {
  PROXY_AUTHORIZATION,
  PROXY_PASSWORD,
  PROXY_USER,
  startTinyproxy,
  type RunningProxy,
} from '../../fixtures/tinyproxy';
import { ledger } from '../ledger';
import { ensureSignedIn, freshAccount } from './common';
import { registerSecret } from './secretScan';
import { accountIs, control, engine, setApiUrl } from './util';

async function setHttp(key: 'proxy' | 'proxyAuthorization', value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global);
}

suite('Reliability: http.proxyAuthorization (tinyproxy with BasicAuth)', () => {
  let ext: TensorPoolExtensionApi;
  let proxy: RunningProxy;
  const tunnels = () =>
    proxy
      .log()
      .split('\n')
      .filter((l) => l.includes(`CONNECT 127.0.0.1:${new URL(engine.url).port}`)).length;

  suiteSetup(async () => {
    registerSecret('the test proxy password', PROXY_PASSWORD);
    registerSecret('the http.proxyAuthorization credentials', PROXY_AUTHORIZATION.slice('Basic '.length));
    ext = await freshAccount();
    proxy = await startTinyproxy({ basicAuth: { user: PROXY_USER, password: PROXY_PASSWORD } });
  });
  suiteTeardown(async () => {
    await setHttp('proxy', undefined);
    await setHttp('proxyAuthorization', undefined);
    await setApiUrl(engine.url);
    await ensureSignedIn(ext);
    await proxy?.close();
  });

  const check = (name: string, fn: () => Promise<void>) =>
    ledger.cover(test(name, fn), `network:host: ${name}`);

  check(
    'a proxy requiring authentication: the 407 message until http.proxyAuthorization is set, then through',
    async () => {
      await setHttp('proxy', proxy.url);
      await setApiUrl(engine.url);
      await accountIs(ext, 'unreachable', 20_000);
      assert.match(
        (ext.store.account as { message: string }).message,
        /^The proxy requires authentication \(407 Proxy Authentication Required\) for 127\.0\.0\.1:\d+: check http\.proxyAuthorization/,
      );
      await control.clearLog();
      const before = tunnels();
      await setHttp('proxyAuthorization', PROXY_AUTHORIZATION);
      await setApiUrl(engine.url);
      await accountIs(ext, 'signedIn', 20_000);
      await ext.refresh();
      assert.equal(ext.testing.clusters.error, undefined);
      assert.ok(tunnels() > before, `tinyproxy tunnelled to the engine: ${proxy.log().slice(-400)}`);
      assert.ok((await control.calls('GET', '/cluster/list')).length >= 1, 'and the engine answered');
      const log = ext.testing.logTail.join('\n');
      assert.ok(!log.includes(PROXY_PASSWORD) && !log.includes(PROXY_AUTHORIZATION.slice(6)), 'never logged');
    },
  );
});
