// Process hygiene. Every long-lived process the harness starts (engine, code-server) runs detached in
// its own process group, so signalling the group also reaches what it spawned (code-server's file
// watcher, extension host, pty host). Groups are killed on normal exit, on SIGINT/SIGTERM/SIGHUP, on
// uncaught errors and when the suite's watchdog fires. Chromium is owned by playwright-core, which
// kills it when the browser closes or this process exits; `leftovers()` double-checks with `ps`.
import { spawn, execFileSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';
import { sleep } from '../shared/wait';
import { log, summaryLine } from './util';

const groups = new Map<number, string>(); // pgid -> label
const scratchDirs = new Set<string>();
const cleanups: Array<() => Promise<void>> = [];

/** Spawn `command` as the leader of a new process group; the group is killed when the harness ends. */
export function spawnGroup(
  label: string,
  command: string,
  args: string[],
  options: SpawnOptions,
): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) throw new Error(`could not start ${label} (${command})`);
  // Even when the leader exits, its children may live on: the group stays registered until killGroup().
  groups.set(child.pid, label);
  return child;
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: nothing left in the group
  }
}

function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

/** SIGTERM the group, wait up to `graceMs`, then SIGKILL whatever is left. */
export async function killGroup(pgid: number, graceMs = 3000): Promise<void> {
  if (signalGroup(pgid, 'SIGTERM')) {
    const deadline = Date.now() + graceMs;
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(50);
    signalGroup(pgid, 'SIGKILL');
  }
  groups.delete(pgid);
}

/** A temporary directory to delete at the end (unless KEEP_STATE=1). */
export function registerScratch(dir: string): void {
  scratchDirs.add(dir);
}

/** An async cleanup (closing the browser, ...) run before the process groups are killed. */
export function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

function removeScratch(): void {
  if (process.env.KEEP_STATE) {
    for (const dir of scratchDirs) log(`KEEP_STATE: kept ${dir}`);
    scratchDirs.clear();
    return;
  }
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
  scratchDirs.clear();
}

/** Synchronous last resort (used from process.on('exit'), where nothing async can run). */
function killEverythingNow(): void {
  for (const pgid of groups.keys()) signalGroup(pgid, 'SIGKILL');
  groups.clear();
  removeScratch();
}

let cleaning: Promise<void> | undefined;
/** Run the registered cleanups, kill every group, delete scratch folders. Safe to call twice. */
export function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      await Promise.race([fn().catch(() => undefined), sleep(10_000)]);
    }
    await Promise.all([...groups.keys()].map((pgid) => killGroup(pgid)));
    removeScratch();
  })();
  return cleaning;
}

/** The working folder of a process, or '' when it cannot be read (gone, another user's). */
function cwdOf(pid: number): string {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '';
  }
}

/**
 * Processes whose command line mentions `marker` (a unique scratch path of this run, a token) or whose
 * working folder is under a marker that is a folder (an engine's data folder: a job's processes run in
 * its job folder there), other than this process: anything listed after cleanup escaped it. They are
 * killed by pid and reported.
 */
export function leftovers(markers: string[]): string[] {
  if (markers.length === 0) return [];
  let ps: string;
  try {
    ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const dirs = markers.filter((m) => m.startsWith('/'));
  const found: string[] = [];
  for (const line of ps.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid) continue;
    const cwd = dirs.length ? cwdOf(pid) : '';
    const inDir = cwd !== '' && dirs.some((d) => cwd === d || cwd.startsWith(`${d}/`));
    if (!inDir && !markers.some((m) => match[2].includes(m))) continue;
    found.push(`${line.trim().slice(0, 200)}${inDir ? ` (in ${cwd})` : ''}`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  return found;
}

/** How many of `found` (leftovers() lines) are a node's sshd, and how many anything else (job processes). */
export function countLeftovers(found: string[]): { sshd: number; other: number } {
  const sshd = found.filter((l) => /\bsshd\b/.test(l)).length;
  return { sshd, other: found.length - sshd };
}

export interface Tally {
  passed: number;
  failed: number;
}

export interface Guard {
  /** (Re)start the watchdog: if `ms` pass before the next arm()/disarm(), everything is stopped. */
  arm(ms: number, what: string): void;
  disarm(): void;
}

/**
 * Make the harness process exit cleanly whatever happens: signals and uncaught errors clean up and
 * exit non-zero; the watchdog bounds each phase, install or tests (a hung VS Code fails the run instead of hanging
 * CI). For a test suite (`tally` given) the summary line is still printed on those paths, counting
 * the interruption as a failure.
 */
export function guardProcess(name: string, opts: { tally?: Tally; exitCodeOnSignal?: number } = {}): Guard {
  const bail = (why: string, code: number) => {
    process.stdout.write(`\n[${name}] ${why}: stopping everything\n`);
    void cleanupAll().finally(() => {
      if (opts.tally) process.stdout.write(`${summaryLine(opts.tally.passed, opts.tally.failed + 1)}\n`);
      process.exit(code);
    });
  };
  const onSignal = (signal: NodeJS.Signals) =>
    bail(`received ${signal}`, opts.exitCodeOnSignal ?? (signal === 'SIGINT' ? 130 : 143));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  process.on('uncaughtException', (err) => bail(`uncaught exception: ${err.stack ?? err}`, 1));
  process.on('unhandledRejection', (err) => bail(`unhandled rejection: ${(err as Error)?.stack ?? err}`, 1));
  process.on('exit', killEverythingNow);
  let watchdog: NodeJS.Timeout | undefined;
  const disarm = () => clearTimeout(watchdog);
  return {
    arm(ms, what) {
      disarm();
      watchdog = setTimeout(() => bail(`watchdog: ${what} took longer than ${ms / 1000} s`, 2), ms);
    },
    disarm,
  };
}
