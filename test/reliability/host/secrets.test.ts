// The secrets session, at log level trace: sign in through the real sign-in box (after a wrong token),
// create, edit, enable object storage, rotate its keys, and trigger errors whose bodies echo the token
// and the secret key (500, 401, 422, a cut-off credentials answer); then sign in from a `.env`, run a job
// file (the token in the WebSocket's first message), follow its log and pull its outputs. Then the
// token, the wrong token and every secret key (or any 12-character piece of one) must appear nowhere:
// the log (every level),
// the output channel's file, the tensorpool.* settings and settings.json, globalState, everything
// code-server keeps on disk for this run, the status bar, the store, every notification and prompt
// text, the job terminals, the engine-visible requests (User-Agent, path, query, bodies, WebSocket
// messages; the token only in the Authorization header or a WebSocket's first message, which the engine
// redacts), and (in index.ts) the results JSON.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ED25519_KEY } from '../../fixtures/payloads';
import { ACCEPT, ScriptedPrompter, type Shown } from '../../fixtures/scriptedPrompter';
import { SETUP_USER_AGENT } from '../../integration/realCluster';
import { ledger } from '../ledger';
import { ensureSignedIn, freshAccount } from './common';
import { codeServerState, filesUnder, hostSecrets, registerSecret, scanForSecrets } from './secretScan';
import { dotenvAndJobSession, wsKeyMessagesOnly } from './secretsJobSession';
import * as spy from './spy';
import { SUITE_AGENT, accountIs, clusterRows, control, engine, engineApi, signIn, until } from './util';

const WRONG_TOKEN = 'tp_wrong_reliability_token_7f3a9c2e51';

suite('Reliability: secrets appear nowhere (log level trace)', () => {
  let ext: TensorPoolExtensionApi;
  const shown: Shown[] = [];
  const prompter = (script: string[]) => {
    const p = new ScriptedPrompter(script);
    ext.setPrompter(p);
    return p;
  };
  const keep = (p: ScriptedPrompter) => shown.push(...p.shown);

  suiteSetup(async () => {
    ext = await freshAccount();
    registerSecret('the wrong token typed first', WRONG_TOKEN);
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
  });

  test('log level trace is in force', async () => {
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'trace');
    assert.equal(vscode.env.logLevel, vscode.LogLevel.Trace);
  });

  test('the session: sign in (wrong token, then the real box), create, edit, enable object storage, rotate keys, errors', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('tensorpool.signOut');
    // A wrong token first: rejected by the server, not stored, never shown.
    const wrong = await signIn(WRONG_TOKEN);
    assert.equal(wrong.ok, false);
    assert.match(wrong.message ?? '', /rejected/i);
    // Then the real sign-in box, as a user pastes the token.
    const before = spy.inputBoxes.length;
    const done = vscode.commands.executeCommand<{ ok: boolean }>('tensorpool.signIn');
    await until('the sign-in box', () => spy.inputBoxes.length > before);
    spy.inputBoxes.at(-1)!.value = engine.token;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await done).ok, true);
    await accountIs(ext, 'signedIn');

    // Create (with a pasted key) and follow it to the end; edit it.
    keep(
      prompter([
        '1xH100',
        ACCEPT,
        'secret-session',
        'Paste a public key…',
        ED25519_KEY,
        'Only for this cluster',
        '',
        'Off',
        'Create cluster',
      ]),
    );
    const id = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
    assert.ok(id);
    await until('the create ends', () => ext.store.clusterOperations.length === 0, 30_000);
    await ext.refresh();
    const node = (await clusterRows(ext)).find((r) => r.label === 'secret-session')!.node;
    keep(prompter(['secret-session-2', 'On', 'Apply changes']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.editCluster', node), true);

    // Object storage: enable, rotate (two secret keys).
    keep(prompter(['Enable']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.enableObjectStorage'), true);
    const first = await engineApi<{ secret_access_key: string }>('GET', '/object-storage/credentials');
    registerSecret('the first secret access key', first.body.secret_access_key);
    keep(prompter(['Rotate Keys']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.rotateObjectStorageKeys'), true);
    const second = await engineApi<{ secret_access_key: string }>('GET', '/object-storage/credentials');
    registerSecret('the second secret access key', second.body.secret_access_key);
    assert.notEqual(first.body.secret_access_key, second.body.secret_access_key);
    const secret = second.body.secret_access_key;

    // Errors whose bodies echo the secrets back.
    await control.fault({
      method: 'GET',
      path: '/cluster/list',
      status: 500,
      times: -1,
      body: { message: `backend saw Bearer ${engine.token} and key ${secret}` },
    });
    await ext.refresh();
    assert.equal(ext.testing.clusters.error?.kind, 'server');
    await control.clearFaults();
    await control.fault({
      method: 'PATCH',
      path: `/cluster/edit/${id}`,
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'cluster_name'],
            msg: `name clashes with ${secret} (token ${engine.token})`,
            type: 'value_error',
          },
        ],
      },
    });
    const p422 = prompter(['secret-session-3', ACCEPT, 'Apply changes', 'secret-session-4', 'Apply changes']);
    assert.equal(
      await vscode.commands.executeCommand(
        'tensorpool.editCluster',
        (await clusterRows(ext)).find((r) => r.label === 'secret-session-2')?.node ?? node,
      ),
      true,
    );
    keep(p422);
    assert.ok(
      p422.shown.some((s) => s.initialError),
      'the 422 message was shown at the name step',
    );
    await control.fault({
      method: 'GET',
      path: '/object-storage/credentials',
      action: 'truncate',
      times: -1,
    });
    await ext.testing.refreshObjectStorage();
    assert.equal(ext.store.objectStorage.kind, 'error');
    await control.clearFaults();
    await control.fault({
      method: 'GET',
      path: '/me',
      status: 401,
      body: { error: `token ${engine.token} revoked`, echo: `Authorization: Bearer ${engine.token}` },
    });
    await vscode.commands.executeCommand('tensorpool.retryAccountCheck');
    await accountIs(ext, 'rejected');
    await control.clearFaults();
    await ensureSignedIn(ext);
    await ext.testing.refreshObjectStorage();
    await ext.refresh();
    assert.ok(
      ext.testing.logTail.some((l) => l.startsWith('[trace]')),
      'trace lines were logged',
    );
  });

  test('the session, continued: sign in from a workspace .env, run a job file (the key message), follow its log, pull its outputs', async function () {
    this.timeout(90_000);
    await dotenvAndJobSession(ext, shown);
  });

  const places: Array<[string, () => Promise<string>]> = [
    ['the job terminals (every line they received)', async () => ext.testing.terminalText()],
    ['the log (every level, as written)', async () => ext.testing.logTail.join('\n')],
    [
      "the output channel's log file",
      async () => {
        const state = codeServerState();
        assert.ok(state, "code-server's folders were found");
        const files = filesUnder(`${state.userData}/logs`).filter((f) => /TensorPool\.log$/.test(f.file));
        assert.ok(files.length > 0, 'the TensorPool output channel has a log file');
        const text = files.map((f) => f.text).join('\n');
        assert.match(text, /\[trace\]/, 'the file has trace lines');
        return text;
      },
    ],
    [
      'tensorpool.* settings and settings.json',
      async () => {
        const c = vscode.workspace.getConfiguration('tensorpool');
        const keys = [
          'apiUrl',
          'containerField',
          'refreshInterval',
          'lowBalanceWarning',
          'destroyConfirmation',
          'sshUser',
          'sshPort',
          'sshConfigMode',
          'objectStorageProfile',
        ];
        const state = codeServerState()!;
        return [
          JSON.stringify(c),
          ...keys.map((k) => JSON.stringify(c.inspect(k))),
          ...filesUnder(`${state.userData}/User`)
            .filter((f) => f.file.endsWith('.json'))
            .map((f) => f.text),
        ].join('\n');
      },
    ],
    ['globalState', async () => JSON.stringify(ext.testing.globalState())],
    [
      'everything code-server keeps on disk for this run (user data, state databases, logs, its own log)',
      async () => {
        const state = codeServerState()!;
        return filesUnder(state.root)
          .map((f) => f.text)
          .join('\n');
      },
    ],
    [
      'the status bar and the store',
      async () =>
        JSON.stringify({
          text: ext.testing.statusBar.text,
          tooltip:
            (ext.testing.statusBar.tooltip as vscode.MarkdownString | undefined)?.value ??
            ext.testing.statusBar.tooltip,
          account: ext.store.account,
          clusters: { data: ext.testing.clusters.data, error: ext.testing.clusters.error },
          storage: ext.store.objectStorage,
          operations: ext.store.operations,
        }),
    ],
    [
      'every notification, prompt, validation message and error shown',
      async () =>
        JSON.stringify({
          notifications: spy.notifications,
          shown,
          boxes: spy.inputBoxes.map((b) => b.validationMessage),
        }),
    ],
    [
      'the tree rows and tooltips',
      async () => {
        const rows = await clusterRows(ext);
        return JSON.stringify(rows.map((r) => [r.label, r.description, r.tooltip]));
      },
    ],
    [
      'the requests the engine received (User-Agent, path, query, bodies)',
      async () => {
        const all = (await control.log()).filter((e) => e.userAgent !== SUITE_AGENT);
        assert.ok(all.length > 10);
        // The job WebSockets: the token only as a connection's first message (checked there).
        assert.ok(wsKeyMessagesOnly(all) >= 2, 'the job push and its log stream were logged');
        // Output downloads go to presigned URLs: never with the token (nor the extension's User-Agent).
        const presigned = all.filter((e) => e.path.startsWith('/job/output/'));
        assert.ok(presigned.length > 0, 'the pull downloaded from presigned URLs');
        assert.ok(
          presigned.every((e) => e.authorization === null),
          'no credential sent to a presigned URL',
        );
        // The tests' own setup calls (a real cluster for the job, realCluster.ts) are not the extension's.
        const log = all.filter(
          (e) => e.method !== 'WS' && !presigned.includes(e) && e.userAgent !== SETUP_USER_AGENT,
        );
        const uas = new Set(log.map((e) => e.userAgent));
        assert.ok(
          [...uas].every((ua) =>
            /^tensorpool-vscode\/\d+\.\d+\.\d+ \(VS Code \d+\.\d+\.\d+; \w+\)$/.test(ua ?? ''),
          ),
          `User-Agents: ${[...uas]}`,
        );
        const elsewhere = log.filter((e) =>
          JSON.stringify([
            e.path,
            e.query,
            e.body,
            (e as { rawBody?: string }).rawBody,
            e.userAgent,
          ]).includes('[redacted]'),
        );
        assert.deepEqual(
          elsewhere.map((e) => `${e.method} ${e.path}`),
          [],
          'the engine found the token outside the Authorization header',
        );
        assert.ok(
          log.every((e) => e.authorization === 'Bearer [redacted]'),
          'the token travels in the Authorization header',
        );
        return JSON.stringify(
          all.map((e) => [
            e.method,
            e.path,
            e.query,
            e.body,
            (e as { rawBody?: string }).rawBody,
            e.userAgent,
          ]),
        );
      },
    ],
  ];

  for (const [place, read] of places) {
    ledger.cover(
      test(`no secret in ${place}`, async () => {
        const secrets = await hostSecrets();
        assert.ok(
          secrets.length >= 4,
          `the token, the wrong token and two secret keys: ${secrets.map((s) => s.name)}`,
        );
        const text = await read();
        const findings = scanForSecrets(text, secrets);
        ledger.searched(place, findings);
        assert.deepEqual(findings, []);
      }),
      'secrets:host',
    );
  }
});
