// The secrets session's second half (secrets.test.ts runs it): sign in from a workspace `.env` (the token
// read from a file the user agreed to), then run a job file (the token travels in the job WebSocket's first
// message), follow its log into the terminal to the end, and pull its outputs. What the engine logged for
// the WebSockets is checked by wsKeyMessagesOnly(); the terminal text is one of the places searched.
// The job is real (a node of the engine's, the user's key): the `rsync` and `ssh` the extension starts for
// its upload run through recording wrappers first on PATH (their command lines and environments, read
// from /proc/self), the job writes its own environment, and every file of the node is read: the token is
// in none of them.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ScriptedPrompter, type Shown } from '../../fixtures/scriptedPrompter';
import { realCluster } from '../../integration/realCluster';
import { accountIs, engine, until } from './util';

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
  const spyDir = mkdtempSync(path.join(os.tmpdir(), 'tp-spy-'));
  const spyLog = path.join(spyDir, 'recorded.txt');
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

    // Run a job file on a real node and follow it to the end; then pull its outputs.
    const cluster = await realCluster(`secrets-${Date.now()}`);
    mkdirSync(jobs, { recursive: true });
    const file = path.join(jobs, 'secret.tp.toml');
    writeFileSync(
      file,
      'commands = ["env > job-env.txt && echo job-env-written"]\noutputs = ["job-env.txt"]\n',
    );
    await ext.refresh();
    const run = new ScriptedPrompter([cluster.name, 'Keep the cluster', 'Run job', 'Run']);
    ext.setPrompter(run);
    const out = await withRecordingPath(spyLog, () =>
      vscode.commands.executeCommand<{ kind: string; jobId?: string }>(
        'tensorpool.runJobFile',
        vscode.Uri.file(file),
      ),
    );
    shown.push(...run.shown);
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    const recorded = readFileSync(spyLog, 'utf8');
    assert.match(recorded, /^PROG rsync /m, 'the upload ran rsync');
    assert.match(recorded, /^PROG ssh /m, 'and rsync ran ssh');
    const leaked = recorded
      .split('\n')
      .filter((l) => l.includes(engine.token))
      .map((l) => (l.startsWith('PROG ') ? l.split(' ').slice(0, 2).join(' ') : l.split('=')[0]));
    assert.deepEqual(leaked, [], 'no token in the command line or environment of rsync or ssh');
    await until(
      'the log in the terminal',
      () => ext.testing.terminalText().includes('job-env-written'),
      30_000,
    );
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
    assert.deepEqual(pulled.written, ['job-env.txt']);
    const jobEnv = readFileSync(path.join(jobs, 'outputs', 'job-env.txt'), 'utf8');
    assert.match(jobEnv, /^TP_NODE=i-/m, "the job's own environment");
    assert.ok(!jobEnv.includes(engine.token), "no token in the job's environment");
    for (const f of filesUnder(cluster.nodeDir))
      assert.ok(!readFileSync(f).includes(engine.token), `no token in the node's file ${f}`);
  } finally {
    rmSync(spyDir, { recursive: true, force: true });
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

/** Run `fn` with recording `rsync` and `ssh` wrappers first on this extension host's PATH (what the commands
 *  it starts inherit): each appends its program name, command line and environment (from /proc/self) to
 *  `log`, then runs the real program. */
async function withRecordingPath<T>(log: string, fn: () => Thenable<T>): Promise<T> {
  const bin = path.join(path.dirname(log), 'bin');
  mkdirSync(bin, { recursive: true });
  for (const tool of ['rsync', 'ssh']) {
    const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    const script = [
      '#!/bin/sh',
      `{ printf 'PROG ${tool} '; tr '\\0' ' ' < /proc/$$/cmdline; echo; tr '\\0' '\\n' < /proc/$$/environ; } >> '${log}'`,
      `exec '${real}' "$@"`,
      '',
    ].join('\n');
    writeFileSync(path.join(bin, tool), script);
    chmodSync(path.join(bin, tool), 0o755);
  }
  const saved = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${saved ?? ''}`;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}
