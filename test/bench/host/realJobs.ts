// Real jobs in the bench (called by ./index.ts after the job log), on a real node created with the user's key:
//   - first output line: the time from Run on Cluster… (scripted answers, consent given) to the job's first
//     line in its terminal, beside the official CLI's `tp job push` then `tp job listen` of the same job on
//     the same engine, to the same line on its stdout (test/shared/officialCli.ts; Debian's python3). RUNS
//     of each, alternating;
//   - upload: a 1,000-file, ~100 MB project (random bytes, so compression cannot shrink it), pushed through
//     Run on Cluster… (the push's whole time: its upload is the service's rsync over ssh) beside a plain
//     `rsync -az` over the same ssh of the same folder to a fresh folder of the same node, RUNS of each,
//     alternating. Each target is removed after its run.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { engine } from '../../integration/helpers';
import { jobDir, realCluster, type RealCluster } from '../../integration/realCluster';
import { cliMissing, tpCommand } from '../../shared/officialCli';
import { sleep } from '../../shared/wait';

/** Pairs of each (it was 5): the upload pairs read 0.97x to 1.32x, all inside the 1.5x gate. */
const RUNS = 3;
const FILES = 1000;
const FILE_BYTES = 100 * 1024;

export interface RealJobSample {
  firstLine: { extensionMs: number[]; cliMs: number[]; cliSkipped?: string };
  upload: { files: number; bytes: number; extensionMs: number[]; rsyncMs: number[] };
}

type Outcome = { kind: string; jobId?: string };

async function push(api: TensorPoolExtensionApi, file: string, cluster: string): Promise<Outcome> {
  api.setPrompter(new ScriptedPrompter([cluster, 'Keep the cluster', 'Run job', 'Run']));
  try {
    return await vscode.commands.executeCommand<Outcome>('tensorpool.runJobFile', vscode.Uri.file(file));
  } finally {
    api.setPrompter(undefined);
  }
}

async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The environment `tp` runs with, as a user's: this host's, the engine's URL and the token. */
function cliEnv(): NodeJS.ProcessEnv {
  return { ...process.env, TENSORPOOL_ENGINE: engine.url, TENSORPOOL_KEY: engine.token };
}

function runTp(args: string[], cwd: string): Promise<string> {
  const cmd = tpCommand(args);
  return new Promise((resolve, reject) =>
    execFile(cmd.file, cmd.args, { cwd, env: cliEnv(), timeout: 60_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`tp ${args.join(' ')}: ${err.message}\n${stdout}${stderr}`)) : resolve(stdout),
    ),
  );
}

/** `tp job push` then `tp job listen` until `marker` is on its stdout: the milliseconds from the push's start. */
async function cliFirstLine(folder: string, cluster: string, marker: string): Promise<number> {
  const started = performance.now();
  const out = await runTp(['job', 'push', 'first.tp.toml', cluster], folder);
  const id = /Job (job_[0-9a-f]+) submitted/.exec(out)?.[1];
  if (!id) throw new Error(`tp job push did not say the job id:\n${out}`);
  const cmd = tpCommand(['job', 'listen', id]);
  const listen = spawn(cmd.file, cmd.args, { cwd: folder, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    return await new Promise<number>((resolve, reject) => {
      let text = '';
      listen.stdout.setEncoding('utf8').on('data', (d: string) => {
        text += d;
        if (text.includes(marker)) resolve(performance.now() - started);
      });
      listen.once('exit', () => reject(new Error(`tp job listen ended without ${marker}:\n${text}`)));
    });
  } finally {
    listen.kill();
  }
}

async function firstLine(api: TensorPoolExtensionApi, root: string, c: RealCluster) {
  const folder = path.join(root, 'first-line-bench');
  mkdirSync(folder, { recursive: true });
  const cliSkipped = cliMissing();
  const extensionMs: number[] = [];
  const cliMs: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      // A job file per run (a second run of the same file while its first terminal is open is not measured).
      const file = path.join(folder, `first-${i}.tp.toml`);
      const marker = `first-line-ext-${i}-${Date.now()}`;
      writeFileSync(file, `commands = ["echo ${marker}"]\n`);
      const started = performance.now();
      const out = await push(api, file, c.name);
      if (out.kind !== 'submitted') throw new Error(`the push was not submitted: ${JSON.stringify(out)}`);
      await until(marker, () => api.testing.terminalText().includes(marker)).catch((err: Error) => {
        throw new Error(
          `${err.message}; the terminals' last text: ${api.testing.terminalText().slice(-400)}`,
        );
      });
      extensionMs.push(performance.now() - started);
      if (!cliSkipped) {
        const cliMarker = `first-line-cli-${i}-${Date.now()}`;
        writeFileSync(path.join(folder, 'first.tp.toml'), `commands = ["echo ${cliMarker}"]\n`);
        cliMs.push(await cliFirstLine(folder, c.id, cliMarker));
      }
    }
  } finally {
    for (const t of vscode.window.terminals) if (/first-\d+\.tp\.toml/.test(t.name)) t.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
  return { extensionMs, cliMs, ...(cliSkipped ? { cliSkipped } : {}) };
}

function sh(command: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('/bin/sh', ['-c', command], { cwd, timeout: 300_000 }, (err, _out, stderr) =>
      err ? reject(new Error(`${command}: ${err.message}\n${stderr}`)) : resolve(),
    ),
  );
}

async function upload(api: TensorPoolExtensionApi, root: string, c: RealCluster) {
  const folder = path.join(root, 'upload-bench');
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(folder, 'data', String(i % 20));
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `part-${i}.bin`), randomBytes(FILE_BYTES));
  }
  const file = path.join(folder, 'upload.tp.toml');
  writeFileSync(file, 'commands = ["true"]\n');
  const nodes = (await (await fetch(`${engine.url}/_engine/nodes`)).json()) as {
    nodes: Array<{ instance_id: string; port: number; user: string }>;
  };
  const node = nodes.nodes.find((n) => n.instance_id === c.instanceId);
  if (!node) throw new Error(`node ${c.instanceId} is not listed`);
  // The same transport as the service's command (engine/jobRunner.ts): rsync -az over ssh to the node.
  const rsh = `ssh -p ${node.port} -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR`;
  const extensionMs: number[] = [];
  const rsyncMs: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      let started = performance.now();
      const out = await push(api, file, c.name);
      if (out.kind !== 'submitted' || !out.jobId)
        throw new Error(`the upload push failed: ${JSON.stringify(out)}`);
      extensionMs.push(performance.now() - started);
      rmSync(jobDir(c, out.jobId), { recursive: true, force: true });
      const target = `plain-rsync-${i}`;
      started = performance.now();
      await sh(`rsync -az -e '${rsh}' ./ ${node.user}@127.0.0.1:${target}/`, folder);
      rsyncMs.push(performance.now() - started);
      rmSync(path.join(c.nodeDir, 'home', target), { recursive: true, force: true });
    }
  } finally {
    for (const t of vscode.window.terminals) if (t.name.includes('upload.tp.toml')) t.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
  return { files: FILES, bytes: FILES * FILE_BYTES, extensionMs, rsyncMs };
}

export async function realJobBench(api: TensorPoolExtensionApi): Promise<RealJobSample> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) throw new Error('the harness opened no workspace folder');
  const c = await realCluster(`bench-real-jobs-${Date.now()}`);
  await api.refresh();
  return { firstLine: await firstLine(api, root, c), upload: await upload(api, root, c) };
}
