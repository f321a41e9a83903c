// Jobs (spec "Jobs"): the engine's domain state for them. Like clusters, nothing is timed: a job's
// status and the log lines it has printed are derived from the clock whenever somebody looks.
//
//   push received        -> pending (not yet submitted: the upload command has not reported back)
//   upload succeeded     -> pending for `pendingMs`, then running: one log line every `lineMs`
//   every line printed   -> completed, or failed when a command is `exit <n>` with n != 0
//   cancel               -> canceling for `cancelMs`, then canceled (printing stops at the cancel)
// A job's log: per command `$ <command>`, then `lines` output lines (`exit 1` prints nothing more).
// Output files: one per `outputs` entry (a folder, `x/`, gets `x/result.bin`), plus config
// `jobs.extraOutputs` (path -> text, served verbatim: how tests offer `../escape.txt`).
// With real nodes (the default of the CLI and the suites), a job's `real` run (engine/jobRunner.ts)
// replaces all of that: its status, log, exit code and outputs are what its processes on the node did.
// The simulation stays for what a real process cannot give deterministically (engine/server.ts realJobs).

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Toml from 'smol-toml' with { 'resolution-mode': 'import' };
import type { RealRun } from './jobRunner';
import type { ClusterStore } from './clusterStore';
import type { EngineConfig, User } from './types';
import { isMetricStyle, METRIC_STYLES, metricLine, type MetricStyle } from './metricLines';

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed' | 'canceling' | 'canceled';
export const TERMINAL_JOB: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'canceled']);

export interface JobConfig {
  pendingMs: number;
  lineMs: number;
  cancelMs: number;
  /** Output lines printed per command (100000 for the benchmark's "many lines" job). */
  lines: number;
  /** Bytes of each generated output file. */
  outputBytes: number;
  extraOutputs: Record<string, string>;
  /** Output lines print training metrics in this style (engine/metricLines.ts); '' (default): plain. */
  metrics: MetricStyle;
  /** A hostile service: the push's upload command as sent, from a template ('' = the real one; see
   *  serviceCommand). */
  pushCommand: string;
  /** The same for a running job's pull command. */
  pullCommand: string;
  /** How long the push waits for the upload command's result before it closes (4408). */
  answerMs: number;
}

export const DEFAULT_JOB_CONFIG: JobConfig = {
  pendingMs: 1000,
  lineMs: 150,
  cancelMs: 1000,
  lines: 3,
  outputBytes: 64 * 1024,
  extraOutputs: {},
  metrics: '',
  pushCommand: '',
  pullCommand: '',
  answerMs: 60_000,
};

/**
 * The command the engine sends when a test plays a hostile service: `template` with `{command}` (the real
 * command), `{user}`, `{host}`, `{port}` (node 0's login) and `{job}` (the job id) filled in; the real
 * command when the template is ''.
 */
export function serviceCommand(
  template: string,
  real: string,
  vars: { user: string; host: string; port: number; job: string },
): string {
  if (!template) return real;
  return template.replace(/\{(command|user|host|port|job)\}/g, (_m, k: string) =>
    k === 'command' ? real : String(vars[k as keyof typeof vars]),
  );
}

export interface Job {
  id: string;
  ownerUid: string;
  orgId: string;
  clusterId: string;
  tpConfig: string;
  system: string;
  teardown: boolean;
  commands: string[];
  outputs: string[];
  createdMs: number;
  /** When the upload reported success; null until then. */
  submittedMs: number | null;
  /** The upload failed: the job failed before it ran. */
  uploadFailed: string | null;
  cancelMs: number | null;
  torn: boolean;
  /** Captured at creation so later config changes only affect later jobs. */
  cfg: JobConfig;
  /** Index into `script` of the first line that means failure (`exit n`), or -1. */
  failAt: number;
  /** The number of log lines the job prints in all. */
  total: number;
  /** `ignore` of the job file (what the real upload leaves out). */
  ignore: string[];
  /** A job that really runs on the cluster's first node (engine/jobRunner.ts, `--real-jobs`). */
  real?: RealRun;
}

/** Check and read a tp_config: TOML with `commands` (strings), optional `outputs` and `ignore`. */
export function readTpConfig(
  text: unknown,
): { commands: string[]; outputs: string[]; ignore: string[] } | string {
  if (typeof text !== 'string' || text.trim() === '')
    return 'tp_config must be the TOML text of the job file';
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text);
  } catch (err) {
    return `tp_config is not valid TOML: ${(err as Error).message.split('\n')[0]}`;
  }
  const strings = (key: string): string[] | string => {
    const v = doc[key] ?? [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      return `${key} must be a list of strings`;
    return v;
  };
  const commands = strings('commands');
  const outputs = strings('outputs');
  const ignore = strings('ignore');
  if (typeof commands === 'string') return commands;
  if (typeof outputs === 'string') return outputs;
  if (typeof ignore === 'string') return ignore;
  if (commands.length === 0) return 'tp_config has no commands to run';
  return { commands, outputs, ignore };
}

// smol-toml ships CommonJS too (its `require` export); only its types are declared as ESM.
const { parse: parseToml } = require('smol-toml') as typeof Toml;

const EXIT = /^\s*exit\s+(\d+)\s*$/;

/** The idx-th log line of a job (computed, so a 100,000-line job costs no memory). */
export function jobLine(job: Job, idx: number): string {
  if (job.real) return job.real.lines[idx] ?? '';
  const per = job.cfg.lines + 1;
  const c = Math.floor(idx / per);
  const k = idx % per;
  const command = job.commands[c] ?? '';
  if (k === 0) return `\u001b[36m$ ${command}\u001b[0m`;
  const metric = metricLine(job.cfg.metrics, k);
  if (metric !== undefined) return metric;
  return `[${job.id}] ${command.slice(0, 40)}: line ${k} of ${job.cfg.lines}`;
}

export class JobStore {
  private readonly jobs = new Map<string, Job>();

  /** `config` is read live (its `jobs` part when a job is created); `clusters` tears down a job's
   *  cluster when it was submitted with teardown_cluster. */
  constructor(
    private readonly state: {
      config: EngineConfig;
      users: ReadonlyMap<string, User>;
      clusters: Pick<ClusterStore, 'destroyCluster'>;
    },
  ) {}

  create(
    user: User,
    input: { tpConfig: string; system: string; clusterId: string; teardown: boolean },
    now: number,
    parsed: { commands: string[]; outputs: string[]; ignore?: string[] },
  ): Job {
    const cfg: JobConfig = { ...this.state.config.jobs };
    const per = cfg.lines + 1;
    const fail = parsed.commands.findIndex((c) => EXIT.test(c) && Number(EXIT.exec(c)![1]) !== 0);
    const job: Job = {
      id: `job_${randomBytes(6).toString('hex')}`,
      ownerUid: user.uid,
      orgId: user.orgId,
      clusterId: input.clusterId,
      tpConfig: input.tpConfig,
      system: input.system,
      teardown: input.teardown,
      commands: parsed.commands,
      outputs: parsed.outputs,
      createdMs: now,
      submittedMs: null,
      uploadFailed: null,
      cancelMs: null,
      torn: false,
      cfg,
      // An `exit n` command prints its `$` line and nothing more.
      failAt: fail < 0 ? -1 : fail * per + 1,
      total: fail < 0 ? parsed.commands.length * per : fail * per + 1,
      ignore: parsed.ignore ?? [],
    };
    this.jobs.set(job.id, job);
    return job;
  }

  /** A job visible to the caller (same organisation). */
  find(user: User, id: string): Job | undefined {
    const j = this.jobs.get(id);
    return j && j.orgId === user.orgId ? j : undefined;
  }

  /** A job by id, whoever owns it (presigned output URLs carry no token). */
  byId(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  list(user: User, includeOrg: boolean, now: number): Job[] {
    const out: Job[] = [];
    for (const j of this.jobs.values()) {
      if (includeOrg ? j.orgId === user.orgId : j.ownerUid === user.uid) out.push(j);
    }
    this.teardown(out, now);
    return out;
  }

  delete(id: string): void {
    this.jobs.delete(id);
  }

  submitted(job: Job, now: number): void {
    job.submittedMs = now;
  }

  uploadFailed(job: Job, why: string): void {
    job.uploadFailed = why;
  }

  /** When the first line may print (end of pending), or null while not submitted. */
  private startMs(job: Job): number | null {
    return job.submittedMs === null ? null : job.submittedMs + job.cfg.pendingMs;
  }

  /** How many log lines the job has printed by `now`. */
  printed(job: Job, now: number): number {
    if (job.real) return job.real.lines.length;
    const start = this.startMs(job);
    if (start === null) return 0;
    const until = job.cancelMs !== null ? Math.min(now, job.cancelMs) : now;
    if (until < start) return 0;
    if (job.cfg.lineMs <= 0) return job.total;
    return Math.min(job.total, Math.floor((until - start) / job.cfg.lineMs) + 1);
  }

  status(job: Job, now: number): JobStatus {
    if (job.uploadFailed !== null) return 'failed';
    if (job.real) return job.real.state === 'uploading' ? 'pending' : job.real.state;
    if (job.cancelMs !== null) return now < job.cancelMs + job.cfg.cancelMs ? 'canceling' : 'canceled';
    const start = this.startMs(job);
    if (start === null || now < start) return 'pending';
    if (this.printed(job, now) < job.total) return 'running';
    return job.failAt >= 0 ? 'failed' : 'completed';
  }

  /** When the job ended (terminal), for info and lists. */
  endedMs(job: Job, now: number): number | null {
    const s = this.status(job, now);
    if (!TERMINAL_JOB.has(s)) return null;
    if (job.real) return job.real.endedMs ?? job.createdMs;
    if (job.cancelMs !== null) return job.cancelMs + job.cfg.cancelMs;
    if (job.uploadFailed !== null) return job.createdMs;
    const start = this.startMs(job) ?? job.createdMs;
    return start + Math.max(0, job.total - 1) * Math.max(0, job.cfg.lineMs);
  }

  exitCode(job: Job, now: number): number | null {
    const s = this.status(job, now);
    if (job.real && TERMINAL_JOB.has(s)) return job.real.exitCode ?? 1;
    if (s === 'completed') return 0;
    if (s === 'failed' && job.failAt >= 0)
      return Number(EXIT.exec(job.commands[Math.floor(job.failAt / (job.cfg.lines + 1))])![1]);
    return s === 'failed' || s === 'canceled' ? 1 : null;
  }

  cancel(job: Job, now: number): { ok: true; already: boolean } | { ok: false; message: string } {
    const s = this.status(job, now);
    if (s === 'canceling') return { ok: true, already: true };
    if (TERMINAL_JOB.has(s)) return { ok: false, message: `Job ${job.id} is already ${s}` };
    job.cancelMs = now;
    if (job.real) {
      // Before it runs there is nothing to stop; while it runs, its process tree is ended.
      job.real.state = job.real.state === 'uploading' ? 'canceled' : 'canceling';
      if (job.real.state === 'canceled') job.real.endedMs = now;
      job.real.stop?.();
    }
    return { ok: true, already: false };
  }

  /** The output files of a finished job: relative path -> bytes. */
  outputs(job: Job): Map<string, Buffer> {
    const files = new Map<string, Buffer>();
    if (job.real) {
      // The real bytes, read when asked (a file removed since is left out).
      for (const rel of job.real.outputs) {
        try {
          files.set(rel, fs.readFileSync(path.join(job.real.kept, rel)));
        } catch {
          // gone
        }
      }
      return files;
    }
    for (const o of job.outputs) {
      const clean = o.replace(/^\.\/+/, '').replace(/\*+/g, 'all');
      const path = clean.endsWith('/') ? `${clean}result.bin` : clean;
      files.set(path, outputBytes(`${job.id}:${path}`, job.cfg.outputBytes));
    }
    for (const [path, text] of Object.entries(job.cfg.extraOutputs)) files.set(path, Buffer.from(text));
    return files;
  }

  /** Destroy the clusters of ended jobs submitted with teardown_cluster (once each). */
  private teardown(jobs: Job[], now: number): void {
    for (const j of jobs) {
      if (!j.teardown || j.torn || !TERMINAL_JOB.has(this.status(j, now))) continue;
      j.torn = true;
      const owner = this.state.users.get(j.ownerUid);
      if (owner) this.state.clusters.destroyCluster(owner, j.clusterId, now);
    }
  }

  sweep(job: Job, now: number): void {
    this.teardown([job], now);
  }
}

/** Deterministic bytes that are not text (every byte value occurs), so a download that re-encodes fails. */
function outputBytes(seed: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  for (let i = 0; i < size; i++) {
    h = Math.imul(h ^ i, 16777619);
    out[i] = (h >>> 24) ^ (i & 0xff);
  }
  return out;
}

/** POST /_engine/config `jobs`: a partial JobConfig merged over the current one. */
export function parseJobConfig(current: JobConfig, value: unknown): JobConfig | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'jobs must be an object';
  const next: JobConfig = { ...current };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'extraOutputs') {
      if (
        typeof v !== 'object' ||
        v === null ||
        Array.isArray(v) ||
        !Object.values(v).every((x) => typeof x === 'string')
      )
        return 'jobs.extraOutputs must map paths to strings';
      next.extraOutputs = { ...(v as Record<string, string>) };
    } else if (key === 'pushCommand' || key === 'pullCommand') {
      if (typeof v !== 'string') return `jobs.${key} must be a string`;
      next[key] = v;
    } else if (key === 'metrics') {
      if (!isMetricStyle(v)) return `jobs.metrics must be one of ${METRIC_STYLES.join(', ')}`;
      next.metrics = v;
    } else if (
      key === 'pendingMs' ||
      key === 'lineMs' ||
      key === 'cancelMs' ||
      key === 'lines' ||
      key === 'outputBytes' ||
      key === 'answerMs'
    ) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 10_000_000)
        return `jobs.${key} must be an integer >= 0`;
      next[key] = v;
    } else return `jobs: unknown field ${key}`;
  }
  return next;
}
