// The Get Started walkthrough in the real extension host: offered once after the first activation (the
// harness turns VS Code's workbench.welcomePage.walkthroughs.openOnInstall off, which it respects), opened
// again only by TensorPool: Open Walkthrough; the context keys its steps complete on follow what the
// user did (signed in, a cluster listed, object storage enabled).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { accountIs, api, control, signIn } from './control';
import { engine, eventually } from './helpers';

/** Tabs that show a walkthrough (VS Code's Welcome / Walkthrough editor). */
const walkthroughTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => /welcome|walkthrough|get started/i.test(t.label));

async function closeWalkthroughs(): Promise<void> {
  await vscode.window.tabGroups.close(walkthroughTabs());
}

suite(
  'Walkthrough: opened once on first activation, again on request; its steps complete by themselves',
  () => {
    let ext: TensorPoolExtensionApi;
    const workbench = () => vscode.workspace.getConfiguration('workbench.welcomePage');

    suiteSetup(async () => {
      ext = await api();
      await control.reset('none');
    });
    teardown(async () => {
      await workbench().update('walkthroughs.openOnInstall', false, vscode.ConfigurationTarget.Global);
      await closeWalkthroughs();
    });

    test("the first activation recorded the offer without opening it, as VS Code's open-on-install setting asks", () => {
      assert.equal(
        workbench().get('walkthroughs.openOnInstall'),
        false,
        'the harness turns it off (machine settings)',
      );
      assert.equal(ext.testing.globalState()['tensorpool.walkthroughOffered'], true);
      assert.deepEqual(walkthroughTabs(), []);
    });

    test('on a first activation it opens once; the next activation does not open it again', async () => {
      await workbench().update('walkthroughs.openOnInstall', true, vscode.ConfigurationTarget.Global);
      await ext.testing.walkthrough.forget();
      assert.equal(await ext.testing.walkthrough.openOnce(), true);
      await eventually(10_000, async () => assert.equal(walkthroughTabs().length, 1));
      await closeWalkthroughs();
      assert.equal(await ext.testing.walkthrough.openOnce(), false, 'never again: nothing was opened');
      assert.deepEqual(walkthroughTabs(), []);
    });

    test('TensorPool: Open Walkthrough opens it whenever asked', async () => {
      await vscode.commands.executeCommand('tensorpool.openWalkthrough');
      await eventually(10_000, async () => assert.equal(walkthroughTabs().length, 1));
    });

    test('the steps complete on what the user did: signed in, a cluster listed, object storage enabled', async () => {
      await vscode.commands.executeCommand('tensorpool.signOut');
      await accountIs(ext, 'signedOut');
      assert.equal(ext.testing.contextKey('tensorpool.account'), 'signedOut');
      assert.equal((await signIn()).ok, true);
      await accountIs(ext, 'signedIn');
      assert.equal(ext.testing.contextKey('tensorpool.account'), 'signedIn');

      await ext.refresh();
      assert.equal(ext.testing.contextKey('tensorpool.hasClusters'), false, 'no cluster yet');
      await control.seed({ clusters: 1 });
      await ext.refresh();
      assert.equal(ext.testing.contextKey('tensorpool.hasClusters'), true);

      const enabled = await fetch(`${engine.url}/object-storage/enable`, {
        method: 'POST',
        headers: { authorization: `Bearer ${engine.token}` },
      });
      assert.ok(enabled.ok, `enable: ${enabled.status}`);
      await ext.testing.refreshObjectStorage();
      await eventually(5_000, async () =>
        assert.equal(ext.testing.contextKey('tensorpool.objectStorage'), 'enabled'),
      );
    });
  },
);
