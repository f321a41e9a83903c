// What the tests of the engine's real nodes and jobs share: running a real client program, calling the
// engine with a token, and counting processes from /proc (sshd by command line, anything by working folder).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineControl } from '../../shared/engineControl';

// Test code reads arbitrary JSON answers; `any` keeps the assertions readable.
export type Json = Record<string, any>;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(
  file: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 30_000, ...opts }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `call` (the API with a token; non-2xx fails) and `control` (/_engine/, the typed EngineControl) of the
 *  engine `url()` names. */
export function engineCalls(url: () => string, defaultToken: string) {
  const fetchJson = async (what: string, target: string, init: RequestInit): Promise<Json> => {
    const res = await fetch(target, init);
    const text = await res.text();
    assert.ok(res.ok, `${what} -> ${res.status} ${text}`);
    return JSON.parse(text) as Json;
  };
  const body = (b: unknown) => (b === undefined ? undefined : JSON.stringify(b));
  const json = { 'content-type': 'application/json' };
  return {
    call: (method: string, p: string, b?: unknown, token = defaultToken) =>
      fetchJson(`${method} ${p}`, url() + p, {
        method,
        headers: { authorization: `Bearer ${token}`, ...json },
        body: body(b),
      }),
    control: new EngineControl(url),
  };
}

function pids(): string[] {
  return fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
}

/** sshd processes whose command line names a path under `dir` (a node's config is in its folder). */
export function sshdUnder(dir: string): number {
  return pids().filter((e) => {
    try {
      const cmd = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ');
      return cmd.includes('sshd') && cmd.includes(dir);
    } catch {
      return false;
    }
  }).length;
}

/** Processes whose working folder is `dir` or under it (a login's or a job's, and all they started). */
export function processesIn(dir: string): number[] {
  return pids()
    .filter((e) => {
      try {
        const cwd = fs.readlinkSync(`/proc/${e}/cwd`);
        return cwd === dir || cwd.startsWith(dir + path.sep);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The text of every file under `dir`. */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath ?? e.path, e.name), 'utf8'));
}
