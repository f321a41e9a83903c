// A command-line user's setup in the real extension host: TENSORPOOL_ENGINE as the base URL when the
// setting is not set (and ignored when it is), a workspace `.env` token offered (trusted workspaces only,
// read only after consent, never written), and POST /health refusing this client version.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ConfirmOptions } from '../../src/wizards/prompter';
import { ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engine, eventually } from './helpers';
import { accountIs, api, control, setApiUrl, signIn } from './control';

/** A scripted prompter that runs `before` when a confirmation is shown, before it is answered. */
class HookedPrompter extends ScriptedPrompter {
  constructor(
    script: string[],
    private readonly before: (o: ConfirmOptions) => Promise<void>,
  ) {
    super(script);
  }
  override async confirm(o: ConfirmOptions): Promise<string | undefined> {
    await this.before(o);
    return super.confirm(o);
  }
}

/** The status bar's tooltip as a reader sees it (Markdown escapes and &nbsp; undone). */
function tooltipText(ext: TensorPoolExtensionApi): string {
  const t = ext.testing.statusBar.tooltip;
  const text = typeof t === 'string' ? t : (t?.value ?? '');
  return text.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
}

suite('Command-line setup: TENSORPOOL_ENGINE, .env token, health check', () => {
  let ext: TensorPoolExtensionApi;
  const saved = {
    key: process.env.TENSORPOOL_KEY,
    apiKey: process.env.TENSORPOOL_API_KEY,
    engine: process.env.TENSORPOOL_ENGINE,
  };
  let folder: string;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    delete process.env.TENSORPOOL_KEY;
    delete process.env.TENSORPOOL_API_KEY;
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tp-cli-setup-'));
  });
  teardown(async () => {
    await control.clearFaults();
    await control.config({ minClientVersion: null });
    ext.setPrompter(undefined);
    ext.testing.configure({});
  });
  suiteTeardown(async () => {
    for (const [name, value] of [
      ['TENSORPOOL_KEY', saved.key],
      ['TENSORPOOL_API_KEY', saved.apiKey],
      ['TENSORPOOL_ENGINE', saved.engine],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await setApiUrl(engine.url);
    await fs.rm(folder, { recursive: true, force: true });
  });

  test('TENSORPOOL_ENGINE is the base URL while tensorpool.apiUrl is not set; the tooltip and log say so', async () => {
    assert.equal((await signIn()).ok, true);
    process.env.TENSORPOOL_ENGINE = engine.url;
    await setApiUrl(undefined);
    const seen = vscode.workspace.getConfiguration('tensorpool').inspect('apiUrl');
    assert.deepEqual(
      [seen?.globalValue, seen?.workspaceValue, seen?.workspaceFolderValue],
      [undefined, undefined, undefined],
      'tensorpool.apiUrl is not set at any level',
    );
    await eventually(10_000, async () => {
      assert.ok(ext.testing.logTail.some((l) => /from TENSORPOOL_ENGINE in the environment/.test(l)));
    });
    await accountIs(ext, 'signedIn');
    await control.clearLog();
    await ext.refresh();
    assert.equal(
      (await control.calls('GET', '/cluster/list')).length,
      1,
      'the list came from TENSORPOOL_ENGINE',
    );
    assert.match(
      tooltipText(ext),
      /Service: http:\/\/127\.0\.0\.1:\d+ \(TENSORPOOL_ENGINE environment variable\)/,
    );
  });

  test('the setting wins over TENSORPOOL_ENGINE when it is set', async () => {
    process.env.TENSORPOOL_ENGINE = 'http://127.0.0.1:9';
    await setApiUrl(engine.url);
    // The tooltip is rendered by the account check that follows the settings change.
    await eventually(10_000, async () => assert.match(tooltipText(ext), /tensorpool\.apiUrl setting/));
    await accountIs(ext, 'signedIn');
    await control.clearLog();
    await ext.refresh();
    assert.equal((await control.calls('GET', '/cluster/list')).length, 1, 'not sent to TENSORPOOL_ENGINE');
    assert.ok(
      ext.testing.logTail.some((l) =>
        l.includes(`Service: ${engine.url} (from the tensorpool.apiUrl setting)`),
      ),
    );
    delete process.env.TENSORPOOL_ENGINE;
  });

  test('a .env token is not offered in an untrusted workspace: nothing is read and the user is told why', async () => {
    await vscode.commands.executeCommand('tensorpool.signOut');
    const dir = await fs.mkdtemp(path.join(folder, 'untrusted-'));
    await fs.writeFile(path.join(dir, '.env'), `TENSORPOOL_KEY=${engine.token}\n`);
    ext.testing.configure({ folders: () => [dir], isTrusted: () => false });
    const p = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(p);
    await control.clearLog();
    await ext.testing.initializeAccount(); // settles once the offer was made and answered
    assert.deepEqual(
      p.shown.map((s) => [
        s.items,
        /\.env was not read for an API token, because this workspace is not trusted/.test(s.message ?? ''),
      ]),
      [[['Manage Workspace Trust'], true]],
      'only told why',
    );
    assert.deepEqual(await control.log(), []);
    assert.equal(ext.store.account.kind, 'signedOut');
  });

  test('a .env token is offered once, read only after consent, used, and the file is left untouched', async () => {
    await vscode.commands.executeCommand('tensorpool.signOut');
    const dir = await fs.mkdtemp(path.join(folder, 'trusted-'));
    const file = path.join(dir, '.env');
    // Before consent the file holds a token the engine rejects; it gets the real one while the question
    // is on screen. Signing in with the real one proves the file was read after the answer, not before.
    await fs.writeFile(file, 'TENSORPOOL_KEY=tp_not_the_right_token_000\n');
    const finalText = `# tp cli\r\nexport TENSORPOOL_KEY="${engine.token}" # from the dashboard\r\nTENSORPOOL_KEY=tp_second_line_is_ignored\r\n`;
    ext.testing.configure({ folders: () => [dir], isTrusted: () => true });
    const p = new HookedPrompter(['Read .env'], async (o) => {
      if (/\.env/.test(o.message)) await fs.writeFile(file, finalText);
    });
    ext.setPrompter(p);
    await control.clearLog();
    await ext.testing.initializeAccount();
    await accountIs(ext, 'signedIn');
    assert.equal(p.shown.length, 1);
    assert.match(p.shown[0].message ?? '', /This workspace has a \.env file/);
    assert.deepEqual(p.shown[0].items, ['Read .env', 'Not Now']);
    const [me] = await control.calls('GET', '/me');
    assert.equal(me.status, 200);
    assert.equal(await fs.readFile(file, 'utf8'), finalText, 'never written');
    assert.ok(!ext.testing.logTail.join('\n').includes(engine.token), 'the token is not logged');

    // Offered once per file: signed out again, nothing is asked.
    await vscode.commands.executeCommand('tensorpool.signOut');
    const again = new ScriptedPrompter([]);
    ext.setPrompter(again);
    await ext.testing.initializeAccount();
    assert.deepEqual(again.shown, []);
    assert.equal(ext.store.account.kind, 'signedOut');
  });

  test('"Not Now" reads nothing and sends nothing', async () => {
    const dir = await fs.mkdtemp(path.join(folder, 'declined-'));
    await fs.writeFile(path.join(dir, '.env'), `TENSORPOOL_API_KEY=${engine.token}\n`);
    ext.testing.configure({ folders: () => [dir] });
    const p = new ScriptedPrompter(['Not Now']);
    ext.setPrompter(p);
    await control.clearLog();
    await ext.testing.initializeAccount();
    assert.equal(p.shown.length, 1);
    assert.deepEqual(await control.log(), []);
    assert.equal(ext.store.account.kind, 'signedOut');
  });

  test('POST /health refusing this version: shown once, the status bar says so, no further requests', async () => {
    ext.setPrompter(undefined);
    assert.equal((await signIn()).ok, true);
    await control.config({ minClientVersion: '99.0.0' });
    const p = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(p);
    await control.clearLog();
    // Settles once the /me sent alongside (this version was not refused before) was answered and dropped.
    await ext.testing.initializeAccount();
    assert.equal(ext.store.account.kind, 'outdated', 'the answer of the /me sent alongside signs nobody in');
    assert.equal((await control.calls('GET', '/me')).length, 1, 'that /me went out');
    const [health] = await control.calls('POST', '/health');
    assert.equal(health.status, 426);
    const body = health.body as { package_version: string; uname: string };
    assert.match(body.package_version, /^\d+\.\d+\.\d+/);
    assert.equal(typeof body.uname, 'string');
    assert.equal((health as { clientType?: string }).clientType, 'vscode');
    assert.match(ext.testing.statusBar.text, /Update Needed/);
    assert.match(tooltipText(ext), /refused this version of the extension/);
    assert.equal(p.shown.length, 1);
    assert.match(p.shown[0].message ?? '', /99\.0\.0 or later is required/);
    assert.deepEqual(p.shown[0].items, ['Update Extension', 'Show Log']);

    await control.clearLog();
    await ext.refresh();
    await vscode.commands.executeCommand('tensorpool.refreshSshKeys');
    await vscode.commands.executeCommand('tensorpool.refreshObjectStorage');
    assert.equal((await signIn()).ok, false, 'sign-in is refused locally too');
    assert.deepEqual(await control.log(), [], 'nothing requested after the refusal');

    // The next background check asks again, for nothing alongside now; the same refusal is not shown twice.
    await ext.testing.initializeAccount();
    await accountIs(ext, 'outdated');
    assert.deepEqual(
      (await control.log()).map((e) => `${e.method} ${e.path}`),
      ['POST /health'],
    );
    assert.equal(p.shown.length, 1);

    await control.config({ minClientVersion: null });
    await vscode.commands.executeCommand('tensorpool.retryAccountCheck');
    await accountIs(ext, 'signedIn');
  });
});
