// Jobs that really run (the default whenever the nodes are real, engine/nodes.ts; `--simulated-jobs`: not).
// The push asks the client to upload with a real rsync over ssh to the job's folder on the cluster's first
// node, `<node home>/jobs/<job id>/` (the service's own model: one job, one cluster, the commands run once;
// node 0 is the one a single-node job has, and the spec names no other). The job's commands then run there,
// one after the other, with the node's login environment (TP_NODE, HOME, PATH with the node's bin/ first)
// and nothing of the engine's (no token); stdout and stderr go to the job's log line by line as printed.
// The first non-zero exit (or signal) fails the job and skips the rest; cancel ends the process tree
// (TERM, then KILL after a grace period). When the job ends, `outputs` is matched in its folder
// (engine/jobGlob.ts). Each running command is `<node>/gpu/procs/<pid>.json` ({name}) for the nvidia-smi
// stand-in. Processes end with their node, on reset and at engine stop.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { matchOutputs, rsyncFilters, shellQuote } from './jobGlob';
import type { Job, JobStore } from './jobs';
import type { NodeManager, RunningNode } from './nodes';
import { killTreeNow, processTree } from './processTree';
import type { Cluster } from './types';

const CANCEL_GRACE_MS = 2000;

/** A real job's progress, written by the runner below as its processes print and end. */
export interface RealRun {
  /** The job's folder on node 0. */
  dir: string;
  /** Where its outputs are kept once it ended (`<data dir>/outputs/<job id>/`): they outlive the cluster. */
  kept: string;
  state: 'uploading' | 'running' | 'completed' | 'failed' | 'canceling' | 'canceled';
  lines: string[];
  exitCode: number | null;
  endedMs: number | null;
  /** The files `outputs` matched in `dir` when the job ended. */
  outputs: string[];
  /** Stop the running command's process tree (cancel). */
  stop?: () => void;
  /** The rsync command that syncs the outputs of the running job from the node (GET /job/pull). */
  pullCommand: (identity?: string) => string;
  /** Node 0's login (a hostile pull command's template names it). */
  login: { user: string; host: string; port: number };
}

const CYAN = '\u001b[36m';
const RESET = '\u001b[0m';

interface Running {
  job: Job;
  instanceId: string;
  child: ChildProcess;
}

export class JobRunner {
  private readonly running = new Map<string, Running>();
  private readonly onExit = (): void => this.killAll();

  constructor(private readonly nodes: NodeManager) {
    nodes.onStop((instanceId) => {
      for (const r of this.running.values()) if (r.instanceId === instanceId) this.kill(r, 'SIGKILL');
    });
    process.on('exit', this.onExit);
  }

  /** The cluster's first node, when it is up. */
  node(cluster: Cluster): { instanceId: string; node: RunningNode } | undefined {
    const instanceId = cluster.instances[0]?.id;
    const node = instanceId ? this.nodes.node(instanceId) : undefined;
    return instanceId && node ? { instanceId, node } : undefined;
  }

  /**
   * The ssh of the commands the client runs, as a real service would send it: BatchMode, and the host key
   * checked (accept-new) against a known_hosts of this engine's own, under the node's instance id (so the
   * official CLI's uploads work on first contact, a re-created node on the same port is not taken for a
   * changed key, and the user's own known_hosts is left alone). The extension replaces it with its own ssh.
   */
  private ssh(node: RunningNode, identity?: string): string {
    const knownHosts = path.join(this.nodes.dataDir ?? node.layout.dir, 'known_hosts');
    const opts = ['-p', String(node.port), '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=accept-new'];
    opts.push('-o', `UserKnownHostsFile=${shellQuote(knownHosts)}`);
    opts.push('-o', `HostKeyAlias=${shellQuote(`tp-node-${node.env.TP_NODE ?? node.port}`)}`);
    opts.push('-o', 'LogLevel=ERROR');
    if (identity) opts.push('-i', shellQuote(identity));
    return `ssh ${opts.join(' ')}`;
  }

  /** Make the job's folder and give the upload command the client runs in the job file's folder. */
  prepare(job: Job, node: RunningNode): string {
    const dir = path.join(node.layout.home, 'jobs', job.id);
    fs.mkdirSync(dir, { recursive: true });
    job.real = {
      dir,
      kept: path.join(this.nodes.dataDir ?? dir, 'outputs', job.id),
      state: 'uploading',
      lines: [],
      exitCode: null,
      endedMs: null,
      outputs: [],
      pullCommand: (identity) => this.pullCommand(job, node, identity),
      login: { user: node.user, host: node.host, port: node.port },
    };
    const excludes = job.ignore.map((p) => `--exclude=${shellQuote(p)}`);
    const rsh = shellQuote(this.ssh(node));
    return ['rsync', '-az', ...excludes, '-e', rsh, './', `${node.user}@${node.host}:jobs/${job.id}/`].join(
      ' ',
    );
  }

  /** A running job's outputs, synced from the node into the client's folder. */
  pullCommand(job: Job, node: RunningNode, identity?: string): string {
    const rsh = shellQuote(this.ssh(node, identity));
    const filters = rsyncFilters(job.outputs);
    return ['rsync', '-az', ...filters, '-e', rsh, `${node.user}@${node.host}:jobs/${job.id}/`, './'].join(
      ' ',
    );
  }

  /** The upload succeeded: run the commands (unless the job was canceled meanwhile). */
  start(job: Job, instanceId: string, node: RunningNode, store: JobStore): void {
    const real = job.real;
    if (!real || real.state !== 'uploading') return;
    real.state = 'running';
    const env = { ...node.env, USER: node.user, LOGNAME: node.user, SHELL: '/bin/sh', LANG: 'C.UTF-8' };
    const procs = path.join(node.layout.dir, 'gpu', 'procs');
    const end = (state: 'completed' | 'failed' | 'canceled', code: number | null): void => {
      real.state = state;
      real.exitCode = code;
      real.outputs = keep(real.dir, real.kept, matchOutputs(real.dir, job.outputs));
      real.endedMs = Date.now();
      real.stop = undefined;
      store.sweep(job, Date.now()); // teardown_cluster
    };
    const next = (i: number): void => {
      if (real.state === 'canceling') return end('canceled', null);
      if (i >= job.commands.length) return end('completed', 0);
      const command = job.commands[i];
      real.lines.push(`${CYAN}$ ${command}${RESET}`);
      const child = spawn('/bin/sh', ['-c', command], {
        cwd: real.dir,
        env: { ...env, TP_JOB_ID: job.id },
        detached: true, // its own process group: cancel ends all of it
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const r: Running = { job, instanceId, child };
      this.running.set(job.id, r);
      const procFile = child.pid ? path.join(procs, `${child.pid}.json`) : undefined;
      if (procFile) {
        fs.mkdirSync(procs, { recursive: true });
        fs.writeFileSync(procFile, JSON.stringify({ name: command.trim().split(/\s+/)[0] }));
      }
      real.stop = () => this.cancel(r);
      const flushers = [child.stdout, child.stderr].map((stream) => this.lines(stream, real.lines));
      child.once('error', (err) => real.lines.push(`${command}: ${err.message}`));
      child.once('close', (code, signal) => {
        flushers.forEach((f) => f());
        if (procFile) fs.rmSync(procFile, { force: true });
        this.running.delete(job.id);
        if (real.state === 'canceling') return end('canceled', null);
        if (signal) {
          real.lines.push(`${command}: killed by signal ${signal}`);
          return end('failed', 128 + (signalNumber(signal) ?? 0));
        }
        if (code !== 0) {
          real.lines.push(`${command}: exit code ${code ?? 1}`);
          return end('failed', code ?? 1);
        }
        next(i + 1);
      });
    };
    next(0);
  }

  /** Split a stream into log lines as they come; the returned function flushes a last partial line. */
  private lines(stream: NodeJS.ReadableStream, into: string[]): () => void {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) into.push(p.replace(/\r$/, ''));
    });
    return () => {
      if (rest) into.push(rest);
      rest = '';
    };
  }

  private cancel(r: Running): void {
    this.kill(r, 'SIGTERM');
    const t = setTimeout(() => this.kill(r, 'SIGKILL'), CANCEL_GRACE_MS);
    t.unref();
    r.child.once('close', () => clearTimeout(t));
  }

  /** Signal the command's process group and everything below it. */
  private kill(r: Running, signal: NodeJS.Signals): void {
    const pid = r.child.pid;
    if (!pid || r.child.exitCode !== null || r.child.signalCode !== null) return;
    const tree = processTree(pid);
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone
    }
    for (const p of tree) {
      try {
        process.kill(p, signal);
      } catch {
        // gone
      }
    }
  }

  /** Jobs of the state being replaced (reset) or of a stopping engine: KILL them now. */
  killAll(): void {
    for (const r of this.running.values()) {
      if (r.child.pid) killTreeNow(r.child.pid);
      this.kill(r, 'SIGKILL');
    }
  }

  close(): void {
    this.killAll();
    process.off('exit', this.onExit);
  }
}

/** Copy the matched files (links resolved: they point inside the job folder) where they outlive the node. */
function keep(from: string, to: string, files: string[]): string[] {
  return files.filter((rel) => {
    try {
      fs.mkdirSync(path.dirname(path.join(to, rel)), { recursive: true });
      fs.copyFileSync(fs.realpathSync(path.join(from, rel)), path.join(to, rel));
      return true;
    } catch {
      return false; // removed meanwhile
    }
  });
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return os.constants.signals[signal];
}
