// The extension inside a real VS Code (code-server's Node extension host), against the local engine.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activate,
  control,
  engine,
  engineClusterNames,
  eventually,
  extension,
  packageJson,
  topLevelLabels,
} from './helpers';

/** Commands VS Code itself registers for every contributed view (`<view id>.focus`, ...). */
const VIEW_COMMAND_SUFFIXES = ['focus', 'resetViewLocation', 'toggleVisibility', 'removeView', 'open'];

suite('TensorPool extension in a real VS Code', () => {
  suiteSetup(() => control.reset('demo'));

  test('activates and returns its test API', async () => {
    const api = await activate();
    assert.equal(extension().isActive, true);
    assert.ok(api, 'activate() returned nothing');
    assert.equal(
      typeof api.views?.clusters?.getChildren,
      'function',
      'api.views.clusters is not a TreeDataProvider',
    );
    assert.equal(typeof api.refresh, 'function', 'api.refresh is missing');
    assert.equal(typeof api.store?.onDidChange, 'function', 'api.store.onDidChange is missing');
  });

  test('every command in package.json is registered', async () => {
    await activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const declared = (packageJson().contributes.commands ?? []).map((c) => c.command);
    assert.ok(declared.length > 0, 'package.json declares no commands');
    assert.deepEqual(
      declared.filter((c) => !registered.has(c)),
      [],
      'declared in package.json but not registered',
    );
  });

  test('every registered tensorpool.* command is declared in package.json', async () => {
    await activate();
    const contributes = packageJson().contributes;
    const declared = new Set((contributes.commands ?? []).map((c) => c.command));
    const viewIds = Object.values(contributes.views ?? {})
      .flat()
      .map((v) => v.id);
    const generated = new Set(viewIds.flatMap((id) => VIEW_COMMAND_SUFFIXES.map((s) => `${id}.${s}`)));
    const ours = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('tensorpool.'));
    assert.deepEqual(
      ours.filter((c) => !declared.has(c) && !generated.has(c)),
      [],
      'registered but not declared in package.json',
    );
  });

  test('contributes the TensorPool view container and the clusters tree', async () => {
    const contributes = packageJson().contributes;
    const container = contributes.viewsContainers?.activitybar?.find((c) => c.id === 'tensorpool');
    assert.ok(container, 'no activity-bar view container "tensorpool"');
    assert.equal(container.title, 'TensorPool');
    assert.ok(
      contributes.views?.tensorpool?.some((v) => v.id === 'tensorpool.clusters'),
      'no view "tensorpool.clusters"',
    );
    // The workbench knows both: opening the container and focusing the view must succeed.
    await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
    await vscode.commands.executeCommand('tensorpool.clusters.focus');
  });

  test('settings point the extension at the local engine', () => {
    assert.equal(vscode.workspace.getConfiguration('tensorpool').get<string>('apiUrl'), engine.url);
  });

  test('signing in stores the token (SecretStorage) and the tree shows what the engine holds', async () => {
    const api = await activate();
    const names = await engineClusterNames();
    assert.ok(names.length > 0, 'the engine holds no clusters (expected its demo data)');
    const result = await vscode.commands.executeCommand<{ ok: boolean; message?: string } | undefined>(
      'tensorpool.signIn',
      { token: engine.token },
    );
    assert.notEqual(result?.ok, false, `sign-in refused: ${result?.message}`);
    await eventually(15_000, async () => {
      await api.refresh();
      const labels = await topLevelLabels(api);
      assert.deepEqual(
        names.filter((n) => !labels.includes(n)),
        [],
        `engine clusters missing from the tree (rows: ${JSON.stringify(labels)})`,
      );
    });
  });

  test('signing out forgets the token and the tree no longer shows the clusters', async () => {
    const api = await activate();
    const names = await engineClusterNames();
    await vscode.commands.executeCommand('tensorpool.signOut');
    await eventually(15_000, async () => {
      await api.refresh();
      const labels = await topLevelLabels(api);
      assert.deepEqual(
        labels.filter((l) => names.includes(l)),
        [],
        'clusters still shown after signing out',
      );
    });
  });
});
