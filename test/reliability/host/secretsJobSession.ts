// The secrets session's second half (secrets.test.ts runs it): sign in from a workspace `.env` (the token
// read from a file the user agreed to), then run a job file (the token travels in the job WebSocket's first
// message), follow its log into the terminal to the end, and pull its outputs. What the engine logged for
// the WebSockets is checked by wsKeyMessagesOnly(); the terminal text is one of the places searched.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ScriptedPrompter, type Shown } from '../../fixtures/scriptedPrompter';
import { accountIs, control, engine, until } from './util';

interface Entry {
  method: string;
  path: string;
  ws?: string;
  body: unknown;
  rawBody?: string | null;
  authorization: string | null;
}

export async function dotenvAndJobSession(ext: TensorPoolExtensionApi, shown: Shown[]): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root, 'the harness opens a workspace folder');
  // Sign in from a `.env` (a fresh folder: each file is offered once).
  const dir = mkdtempSync(path.join(root, 'secrets-env-'));
  const jobs = path.join(root, 'secrets-job');
  try {
    writeFileSync(path.join(dir, '.env'), `# from the dashboard\nTENSORPOOL_KEY=${engine.token}\n`);
    await vscode.commands.executeCommand('tensorpool.signOut');
    ext.testing.configure({ folders: () => [dir], isTrusted: () => true });
    const env = new ScriptedPrompter(['Read .env']);
    ext.setPrompter(env);
    await ext.testing.initializeAccount();
    await accountIs(ext, 'signedIn', 20_000);
    shown.push(...env.shown);
    assert.equal(env.shown.length, 1, 'the .env offer was made and accepted');
    ext.testing.configure({});

    // Run a job file and follow it to the end; then pull its outputs.
    await control.config({ jobs: { pendingMs: 100, lineMs: 60, lines: 3, outputBytes: 1000 } });
    mkdirSync(jobs, { recursive: true });
    const file = path.join(jobs, 'secret.tp.toml');
    writeFileSync(file, 'commands = ["python train.py"]\noutputs = ["results.json"]\n');
    await ext.refresh();
    const label = ext.store.clusters.data?.clusters?.find((c) => c.status === 'RUNNING')?.name;
    assert.ok(label, 'a running cluster to run on');
    const run = new ScriptedPrompter([label, 'Keep the cluster', 'Run job', 'Run']);
    ext.setPrompter(run);
    const out = await vscode.commands.executeCommand<{ kind: string; jobId?: string }>(
      'tensorpool.runJobFile',
      vscode.Uri.file(file),
    );
    shown.push(...run.shown);
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    const last = `[${out.jobId}] python train.py: line 3 of 3`;
    await until('the log in the terminal', () => ext.testing.terminalText().includes(last), 30_000);
    await until('the job completed', async () => {
      await ext.testing.jobs.refresh();
      return ext.testing.jobs.find(out.jobId!)?.status === 'completed';
    });
    const pull = new ScriptedPrompter([path.join(jobs, 'outputs'), 'Download']);
    ext.setPrompter(pull);
    const pulled = await vscode.commands.executeCommand<{ written: string[] }>(
      'tensorpool.pullJobOutputs',
      out.jobId,
    );
    shown.push(...pull.shown);
    assert.deepEqual(pulled.written, ['results.json']);
  } finally {
    ext.testing.configure({});
    ext.setPrompter(undefined);
    rmSync(dir, { recursive: true, force: true });
    rmSync(jobs, { recursive: true, force: true });
  }
}

/**
 * The engine's log of the job WebSockets: no token in a URL or a header, and the token (redacted by the
 * engine) only as the whole first message of a connection, `{"TENSORPOOL_KEY": ...}`. Returns how many
 * connections sent it.
 */
export function wsKeyMessagesOnly(logged: readonly unknown[]): number {
  const entries = logged as readonly Entry[];
  const ws = entries.filter((e) => e.method === 'WS');
  for (const e of ws.filter((x) => x.ws === 'upgrade'))
    assert.equal(e.authorization, null, `no credential in the upgrade of ${e.path}`);
  const keyMessages = ws.filter(
    (e) => e.ws === 'message' && JSON.stringify(e.body) === '{"TENSORPOOL_KEY":"[redacted]"}',
  );
  const others = ws.filter(
    (e) => !keyMessages.includes(e) && JSON.stringify([e.path, e.body, e.rawBody]).includes('[redacted]'),
  );
  assert.deepEqual(
    others.map((e) => `${e.ws} ${e.path}`),
    [],
    'the engine found the token in a WebSocket message other than the first one',
  );
  return keyMessages.length;
}
