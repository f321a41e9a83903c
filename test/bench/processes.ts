// The bench's child processes: a command with its output collected, and a probe (a fresh Node process running
// one of the bench's scripts, ./node.ts by default) whose last stdout line is its JSON answer.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { REPO } from '../harness/util';

export function runProcess(
  command: string,
  args: string[],
  opts: { cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const NODE_PROBE = path.join(REPO, 'out', 'test', 'bench', 'node.js');

export async function probe<T>(node: string, args: string[], script = NODE_PROBE): Promise<T> {
  const r = await runProcess(node, [script, ...args], { timeoutMs: 300_000 });
  if (r.code !== 0)
    throw new Error(`${path.basename(node)} ${args[0]} exited ${r.code}: ${r.stderr.slice(-1500)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as T;
}
