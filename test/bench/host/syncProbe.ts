// What the folder-sync step of the bench (./syncBench.ts) watches in the extension host: every child process
// the host starts (Node's child_process functions wrapped in place: the extension's bundles call them through
// the module object, so they go through the wrapper; execFile and fork are counted once, spawn is what they
// use inside), the host's CPU from /proc (its own, and that of the children it reaped), its live descendant
// processes, and the test tree (a folder of random bytes, so rsync's compression cannot shrink it).
import type * as ChildProcess from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

// The module object itself (an `import *` would be a copy): what the bundles' calls look up.
const childProcess = require('node:child_process') as typeof ChildProcess;

export interface Started {
  file: string;
  args: string[];
  cwd: string | undefined;
  /** performance.now() at the call, and when a spawned process closed. */
  at: number;
  closedAt?: number;
  /** Called from the extension's bundles (or the bench's injected work), not from VS Code or another extension. */
  ours: boolean;
}

type Rewrite = (s: Started) => Started;

const WRAPPED = ['spawn', 'execFile', 'fork', 'spawnSync', 'execFileSync', 'execSync'] as const;

/** Records what the host starts until `restore()`; `rewrite` may change a start (the bench's injections). */
/** Starts a process through the module object, as the extension's bundles do (so the spy sees it). */
export function spawnLikeTheExtension(file: string, args: string[], cwd: string): void {
  childProcess.spawn(file, args, { cwd, stdio: 'ignore' }).on('error', () => undefined);
}

export class SpawnSpy {
  readonly started: Started[] = [];
  rewrite: Rewrite | undefined;
  private readonly originals = new Map<string, unknown>();

  /** @param ours whether a call's stack is the extension's (or the bench's injected work). */
  constructor(ours: (stack: string) => boolean) {
    const cp = childProcess as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const name of WRAPPED) {
      const original = cp[name];
      this.originals.set(name, original);
      cp[name] = (...a: unknown[]) => {
        const file = String(a[0]);
        const args = Array.isArray(a[1]) ? (a[1] as unknown[]).map(String) : [];
        const opts = (Array.isArray(a[1]) ? a[2] : a[1]) as { cwd?: string } | undefined;
        const s: Started = {
          file,
          args,
          cwd: typeof opts?.cwd === 'string' ? opts.cwd : undefined,
          at: performance.now(),
          ours: ours(new Error().stack ?? ''),
        };
        this.started.push(s);
        const r = this.rewrite && name === 'spawn' && Array.isArray(a[1]) ? this.rewrite(s) : undefined;
        const child = (
          r ? original.call(childProcess, r.file, r.args, ...a.slice(2)) : original.apply(childProcess, a)
        ) as { once?: (e: string, f: () => void) => void } | undefined;
        if (name === 'spawn') child?.once?.('close', () => (s.closedAt = performance.now()));
        return child;
      };
    }
  }

  /** The unwrapped spawn (the bench's own baselines are not counted or rewritten). */
  get spawn(): typeof childProcess.spawn {
    return this.originals.get('spawn') as typeof childProcess.spawn;
  }

  restore(): void {
    const cp = childProcess as unknown as Record<string, unknown>;
    for (const [name, original] of this.originals) cp[name] = original;
  }
}

const TICK_MS = 10; // USER_HZ 100: /proc's clock ticks

/** The host's CPU so far (ms): its own threads, and the children it reaped (their whole lives). */
export function hostCpu(): { ownMs: number; childrenMs: number } {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command's closing parenthesis: state is field 3; utime 14, stime 15, cutime 16, cstime 17.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(f[i - 3]) * TICK_MS;
  return { ownMs: n(14) + n(15), childrenMs: n(16) + n(17) };
}

export interface TestTree {
  root: string;
  files: number;
  bytes: number;
  /** The text file the save step edits (relative). */
  saved: string;
}

/** `files` files of random bytes (`bytes` in all) in 100 folders, and one text file of the same size. */
export function writeTree(root: string, files: number, bytes: number): TestTree {
  const size = Math.round(bytes / files);
  const buf = Buffer.alloc(size);
  fs.rmSync(root, { recursive: true, force: true });
  for (let i = 0; i < files - 1; i++) {
    const dir = path.join(root, 'data', String(i % 100).padStart(2, '0'));
    if (i < 100) fs.mkdirSync(dir, { recursive: true });
    randomFillSync(buf);
    fs.writeFileSync(path.join(dir, `part-${i}.bin`), buf);
  }
  const saved = 'src/train.py';
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, saved), textOfSize(size, 0));
  return { root, files, bytes: size * files, saved };
}

/** Python-looking text of `size` bytes whose first line says `round` (each save changes it). */
export function textOfSize(size: number, round: number): string {
  const head = `# round ${String(round).padStart(6, '0')}\n`;
  const line = 'print("the quick brown fox jumps over the lazy dog", 1234567890)\n';
  return (head + line.repeat(Math.ceil(size / line.length))).slice(0, size - 1) + '\n';
}

/** Every file under `root` stat()ed: the walk an injected cost does (./syncBench.ts). */
export function walk(root: string): number {
  let n = 0;
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    fs.lstatSync(path.join(root, rel));
    n++;
  }
  return n;
}

interface ProfileNode {
  id: number;
  callFrame: { url: string };
  children?: number[];
}

/**
 * The host thread's CPU over `ms`, from V8's sampling profiler (node:inspector, in this process): the time
 * of the samples whose stack holds a frame of a script `ours` accepts (its callees included: a native call
 * made by our code is ours), and of all samples that were not idle.
 */
export async function profiledWindow(
  ms: number,
  ours: (url: string) => boolean,
  during?: () => Promise<void>,
): Promise<{ oursMs: number; busyMs: number; top: string[] }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) =>
      session.post(method, params, (err, r) => (err ? reject(err) : resolve(r))),
    );
  try {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 1000 });
    await post('Profiler.start');
    await (during ? during() : new Promise((r) => setTimeout(r, ms)));
    const { profile } = (await post('Profiler.stop')) as {
      profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    };
    const parent = new Map<number, number>();
    const byId = new Map<number, ProfileNode>();
    for (const n of profile.nodes) {
      byId.set(n.id, n);
      for (const c of n.children ?? []) parent.set(c, n.id);
    }
    const mine = new Map<number, boolean>();
    const isMine = (id: number): boolean => {
      const known = mine.get(id);
      if (known !== undefined) return known;
      const n = byId.get(id);
      const p = parent.get(id);
      const v = (n !== undefined && ours(n.callFrame.url)) || (p !== undefined && isMine(p));
      mine.set(id, v);
      return v;
    };
    let oursUs = 0;
    let busyUs = 0;
    const where = new Map<string, number>();
    /** The frame of ours nearest the sample's leaf: what the time is spent for. */
    const nearest = (id: number): string => {
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const f = byId.get(n)!.callFrame as { url: string; functionName?: string; lineNumber?: number };
        if (ours(f.url))
          return `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${(f.lineNumber ?? 0) + 1}`;
      }
      return '?';
    };
    profile.samples.forEach((id, i) => {
      const dt = profile.timeDeltas[i + 1] ?? 0; // the time until the next sample
      const name = (byId.get(id) as { callFrame: { functionName?: string } } | undefined)?.callFrame
        .functionName;
      if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
        if (name === '(garbage collector)') busyUs += dt;
        return;
      }
      busyUs += dt;
      if (!isMine(id)) return;
      oursUs += dt;
      const k = nearest(id);
      where.set(k, (where.get(k) ?? 0) + dt);
    });
    const top = [...where]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, us]) => `${k} ${(us / 1000).toFixed(1)} ms`);
    return { oursMs: oursUs / 1000, busyMs: busyUs / 1000, top };
  } finally {
    await post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}
