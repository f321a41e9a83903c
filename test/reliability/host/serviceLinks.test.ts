// Links in the service's words: VS Code renders `[words](command:…)` in a notification as a link that runs
// the command when clicked, so a compromised or misconfigured service could put one in an error message
// or in a failed operation's external_message. The extension shows the words with the link broken. A job's
// output reaches its terminal with colours only: an OSC 8 link, a title change or a clipboard write that a
// job prints arrives as its words.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { realCluster } from '../../integration/realCluster';
import { freshAccount } from './common';
import * as spy from './spy';
import { control, until } from './util';

const LINK = '[Open a terminal](command:workbench.action.terminal.new)';

suite('Reliability: links in the service’s words', () => {
  let ext: TensorPoolExtensionApi;

  suiteSetup(async () => {
    ext = await freshAccount();
  });
  teardown(async () => {
    await control.clearFaults();
  });

  test('an error notification shows the words with no link', async () => {
    assert.ok(spy.installed, 'the notification spy is in force');
    const from = spy.notifications.length;
    await control.fault({
      method: 'GET',
      path: '/cluster/info/c-no-such-one',
      status: 404,
      body: { message: `No such cluster. ${LINK}` },
      times: -1,
    });
    await vscode.commands.executeCommand('tensorpool.copyClusterId', 'c-no-such-one');
    await until('the error is shown', () => spy.notifications.length > from);
    const shown = spy.notifications.slice(from).map((n) => n.message);
    assert.ok(
      shown.some((m) => m.includes('No such cluster. [Open a terminal] (command:')),
      shown.join('\n'),
    );
    assert.ok(
      shown.every((m) => !m.includes('](')),
      `no link: ${shown.join('\n')}`,
    );
    assert.ok(
      ext.testing.logTail.every((l) => !l.includes(LINK)),
      'nor in the log',
    );
  });

  test('a job printing an OSC 8 link, a title and a clipboard write: its terminal gets the words and colours only', async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    const folder = path.join(root, 'reliability-osc');
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(
        path.join(folder, 'osc.js'),
        [
          "const E = '\\x1b', BEL = '\\x07';",
          "process.stdout.write('see ' + E + ']8;;command:workbench.action.terminal.new' + BEL + 'the docs' + E + ']8;;' + BEL + ' ok\\n');",
          "process.stdout.write(E + ']0;pwned-title' + BEL + E + ']52;c;cHduZWQ=' + BEL + E + '[32mgreen' + E + '[0m osc-' + 'done\\n');",
        ].join('\n'),
      );
      writeFileSync(path.join(folder, 'osc.tp.toml'), 'commands = ["node osc.js"]\n');
      const cluster = await realCluster(`rel-osc-${Date.now()}`);
      await ext.refresh();
      const before = ext.testing.terminalText().length;
      ext.setPrompter(new ScriptedPrompter([cluster.name, 'Keep the cluster', 'Run job', 'Run']));
      const out = await vscode.commands.executeCommand<{ kind: string }>(
        'tensorpool.runJobFile',
        vscode.Uri.file(path.join(folder, 'osc.tp.toml')),
      );
      assert.equal(out.kind, 'submitted', JSON.stringify(out));
      const mine = () => ext.testing.terminalText().slice(before);
      await until('the job output in its terminal', () => mine().includes('osc-done'), 60_000);
      const text = mine();
      assert.match(text, /see the docs ok/, 'the words stay');
      assert.ok(text.includes('\x1b[32mgreen\x1b[0m'), 'colours pass');
      assert.ok(!text.includes('\x1b]'), `no OSC sequence: ${JSON.stringify(text.slice(-400))}`);
      assert.ok(!text.includes('pwned-title') && !text.includes('cHduZWQ='), 'no title, no clipboard text');
    } finally {
      ext.setPrompter(undefined);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
