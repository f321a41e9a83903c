/**
 * Running a service command's argv (never through a shell) as a process group of its own, so that ending
 * it ends rsync and the ssh below it too: TERM to the group, KILL after a grace period. Each running one is
 * kept until it closes, so a cancelled push, a closed socket and the window's end reach it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { childEnv } from '../../../model/childEnv';
import { missingProgram, missingProgramMessage } from '../../../model/sshFailure';

export interface CommandOutput {
  append(text: string): void;
  note(text: string): void;
}

export interface ProcessResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

const MAX_KEPT = 256 * 1024;
const KILL_GRACE_MS = 2000;

/** End a child and every process of its group: TERM now, KILL when it has not closed after the grace. */
export function endGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const signal = (s: NodeJS.Signals) => {
    try {
      if (process.platform !== 'win32') process.kill(-child.pid!, s);
      // Windows has no process groups: taskkill ends the tree below it.
      else if (s === 'SIGKILL') child.kill(s);
      else
        execFile('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true }, () => undefined);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const t = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
  child.once('close', () => clearTimeout(t));
}

/** Run `argv` in `cwd` (no shell; its own process group), its output live in `out`; ended on `signal`. */
export function runArgv(
  argv: readonly string[],
  cwd: string,
  out: CommandOutput,
  running: Set<ChildProcess>,
  signal?: AbortSignal,
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const keep = (kept: string, chunk: string) =>
      kept.length >= MAX_KEPT ? kept : (kept + chunk).slice(0, MAX_KEPT);
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: childEnv(process.env, process.platform),
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    running.add(child);
    const abort = () => endGroup(child);
    signal?.addEventListener('abort', abort, { once: true });
    if (signal?.aborted) abort();
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout = keep(stdout, d);
      out.append(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = keep(stderr, d);
      out.append(`\x1b[31m${d}\x1b[0m`);
    });
    let settled = false;
    const done = (r: ProcessResult) => {
      settled = true;
      running.delete(child);
      signal?.removeEventListener('abort', abort);
      resolve(r);
    };
    child.on('error', (e) => {
      const missing = missingProgram(`spawn ${argv[0]} ENOENT`);
      const hint =
        (e as NodeJS.ErrnoException).code === 'ENOENT' && missing
          ? missingProgramMessage(missing, process.platform)
          : undefined;
      if (hint) out.note(hint);
      // eslint-disable-next-line tensorpool/l10n -- as a shell says it: jobRun.ts reads it
      const said = `${argv[0]}: command not found`;
      done({ exitCode: 127, stdout, stderr: stderr || (hint ? `${said}\n${hint}` : e.message) });
    });
    child.on('close', (code, sig) => {
      if (settled) return; // it never started (the error above said so)
      const exitCode = code ?? (sig ? 128 : 1);
      if (signal?.aborted) out.note(vscode.l10n.t('The command was stopped.'));
      else if (exitCode !== 0) out.note(vscode.l10n.t('The command ended with exit code {0}.', exitCode));
      // `rsync: command not found` from the node (127) and the like: say what to install, for this platform.
      const missing = exitCode === 127 ? missingProgram(stderr) : undefined;
      const hint = missing ? missingProgramMessage(missing, process.platform) : undefined;
      if (hint) out.note(hint);
      done({ exitCode, stdout, stderr: hint ? `${stderr.trimEnd()}\n${hint}` : stderr });
    });
  });
}
