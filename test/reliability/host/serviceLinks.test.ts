// Links in the service's words: VS Code renders `[words](command:…)` in a notification as a link that runs
// the command when clicked, so a compromised or misconfigured service could put one in an error message
// or in a failed operation's external_message. The extension shows the words with the link broken.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
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
});
