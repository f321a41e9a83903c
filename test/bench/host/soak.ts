// The soak, in the real extension host (called by ./index.ts at the end of the last launch, on the first VS
// Code version only): every TensorPool section visible against the engine for 30 minutes of accelerated time
// while jobs and volumes change state, then: heap growth after a full GC, timers and open sockets, error
// notifications.
//
// Accelerated time: the test API divides every automatic refresh delay by SCALE (60), so the default
// interval (tensorpool.refreshInterval 60 s) becomes 1 s and the fast one while something is in transition
// (5 s) 83 ms; SOAK_MS (30 s) of wall time is then 30 minutes of the extension's refresh schedule at the
// default setting (30 cluster, job and volume list refreshes in the quiet parts, more while something moves).
// The engine's own timings are shortened to match: a job runs ~2.5 s (5 lines, 300 ms apart), a volume is
// created or destroyed in ~1.3 s.
// Every CYCLE_MS (6 s wall) a job is pushed through the extension's Run on Cluster… command (followed into its
// terminal, which is closed once the job ended), a volume is created and the previous one destroyed (REST, as
// another client of the same account would), so the Jobs and Volumes sections see PENDING / RUNNING /
// COMPLETED and CREATING / READY / DESTROYING.
// Measured with every section hidden, the same way before and after (after a warm-up cycle that loaded the
// lazy code; nothing in transition; 6 s for idle keep-alive sockets to close; a full GC; at the end up to
// four more such windows while the counts are above the start, for what was only passing through):
//   heap growth   heapUsed after GC, end minus start (<= 5 MB)
//   timers        the timers made during the soak and alive at its end that the extension's or the bench's code
//                 made (the innermost frame outside Node; ./timerOrigins.ts; 0); the host's 'Timeout' and 'Immediate'
//                 entries of process.getActiveResourcesInfo() before and after are in the note
//   sockets       'TCPSocketWrap' entries: the TCP connections of the host (the extension's HTTP and WebSocket
//                 connections to the engine, plus the host's own); no growth. Pipes and child processes
//                 ('PipeWrap', 'ProcessWrap') are listed in the notes only: the built-in Git extension runs in
//                 the same host and starts and ends git processes on its own schedule.
// and over the whole soak: error notifications (0; the reliability suite's notification spy), and warnings
// and unhandled rejections from the extension, listed in the notes.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { realCluster } from '../../integration/realCluster';
import * as spy from '../../reliability/host/spy';
import { sleep, until } from '../../shared/wait';
import { collector } from './gc';
import { bySection, hideAllSections, inTransition, showAllSections } from './sections';
import { trackTimers, type TrackedTimer } from './timerOrigins';

const SCALE = 60;
const SOAK_MS = Number(process.env.TENSORPOOL_BENCH_SOAK_MS ?? 30_000);
/** A job and a volume every CYCLE_MS: 5 in the window, plus the warm-up's. */
const CYCLE_MS = 6000;
const SETTLE_MS = 6000;
/** A real job (a node of the engine's, the user's key): it prints a few lines and ends. */
const JOB_FILE = 'commands = ["echo soak job on $TP_NODE; sleep 1; echo done"]\n';

type Control = (method: string, path: string, body?: unknown) => Promise<any>;

export interface ResourceCounts {
  timers: number;
  sockets: number;
  all: Record<string, number>;
}

export interface SoakSample {
  wallMs: number;
  scale: number;
  acceleratedMin: number;
  heapMB: { before: number; after: number; gcAvailable: boolean };
  before: ResourceCounts;
  after: ResourceCounts;
  /** The timers made during the soak and alive at its end, where each was made and whether it is ours
   *  (./timerOrigins.ts). */
  newTimers: TrackedTimer[];
  /** Highest counts sampled while the sections were visible (every 5 s). */
  peak: { timers: number; sockets: number };
  jobs: { pushed: number; submitted: number; outcomes: string[] };
  volumes: { created: number; destroyed: number };
  requests: Record<string, number>;
  errors: string[];
  warnings: string[];
  problems: string[];
}

function resources(): ResourceCounts {
  const all: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) all[r] = (all[r] ?? 0) + 1;
  return {
    timers: (all.Timeout ?? 0) + (all.Immediate ?? 0),
    sockets: all.TCPSocketWrap ?? 0,
    all,
  };
}

/** A request to the engine as the signed-in user (volumes, as another client of the account). */
async function asUser(
  engine: string,
  token: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<any> {
  const res = await fetch(`${engine}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

export async function soak(
  api: TensorPoolExtensionApi,
  control: Control,
  engine: string,
  token: string,
  /** The bench's injected cost (../inject.ts): a timer left running between the two measurements. */
  leakTimer = false,
): Promise<SoakSample> {
  let leaked: NodeJS.Timeout | undefined;
  // The idle guard off for the soak: it arms a timer until each running cluster has been seen for its
  // 5-minute sampling period, so a timer present at the start could be gone by the end and hide a leaked one
  // (the guard's own timers and sampling are tested in test/integration/gpuIdle.test.ts).
  const settings = vscode.workspace.getConfiguration('tensorpool');
  const guard = settings.inspect<boolean>('idleGuard.enabled')?.globalValue;
  await settings.update('idleGuard.enabled', false, vscode.ConfigurationTarget.Global);
  spy.install();
  const notesFrom = spy.notifications.length;
  const problemsFrom = spy.problems.length;
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) throw new Error('the harness opened no workspace folder');
  const folder = path.join(root, 'soak-job');
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'soak.tp.toml');
  writeFileSync(file, JOB_FILE);
  // A real node that accepts the user's key (the seeded clusters accept only the saved keys).
  const cluster = await realCluster(`soak-${Date.now()}`);
  await api.refresh();
  const gc = collector();
  const jobs = { pushed: 0, submitted: 0, outcomes: [] as string[] };
  const volumes = { created: 0, destroyed: 0 };
  const live: string[] = [];
  const closeTerminals = () => {
    for (const t of vscode.window.terminals) if (t.name.includes('soak.tp.toml')) t.dispose();
  };
  const pushJob = async () => {
    jobs.pushed++;
    api.setPrompter(new ScriptedPrompter([cluster.name, 'Keep the cluster', 'Run job', 'Run']));
    try {
      const outcome = await vscode.commands.executeCommand<{ kind: string; jobId?: string }>(
        'tensorpool.runJobFile',
        vscode.Uri.file(file),
      );
      jobs.outcomes.push(outcome?.kind ?? 'none');
      if (outcome?.kind === 'submitted') jobs.submitted++;
    } finally {
      api.setPrompter(undefined);
    }
  };
  const volumeStep = async () => {
    const made = await asUser(engine, token, 'POST', '/storage/create', {
      size: 100,
      deletion_protection: false,
      name: `soak-${volumes.created}`,
    });
    volumes.created++;
    live.push(made.storage_id as string);
    if (live.length > 1) {
      await asUser(engine, token, 'DELETE', `/storage/${live.shift()}`);
      volumes.destroyed++;
    }
  };
  const settled = async () => {
    await until('nothing in transition', () => inTransition(api).length === 0, 30_000, 100).catch(
      (e: Error) => {
        throw new Error(`${e.message}: ${inTransition(api).slice(0, 5).join(', ')}`);
      },
    );
  };
  /** Hidden, settled, idle sockets closed, GC: the state both ends are measured in. */
  const measure = async () => {
    await hideAllSections();
    await sleep(SETTLE_MS);
    gc?.();
    await sleep(100);
    gc?.();
    return { heap: process.memoryUsage().heapUsed, res: resources() };
  };

  await control('POST', 'config', {
    pendingMs: 300,
    processingMs: 1000,
    jobs: { pendingMs: 500, lineMs: 300, lines: 5 },
  });
  api.testing.setRefreshTimeScale(SCALE);
  try {
    // Warm-up: one cycle, so the lazy code (actions, the job terminal, the WebSocket) is loaded before.
    await showAllSections(api);
    await pushJob();
    await volumeStep();
    await sleep(4000);
    await settled();
    closeTerminals();
    // Two windows at the start, the lower counts kept: an injected-leak run read 8 timers at the start and 7
    // (the leak included) at the end, a timer of the host's passing through the first window.
    let before = await measure();
    const second = await measure();
    if (second.res.timers + second.res.sockets < before.res.timers + before.res.sockets) before = second;
    const origins = trackTimers();
    if (leakTimer) leaked = setInterval(() => undefined, 60_000);

    await clearAndShow(api, control);
    const started = Date.now();
    const peak = { timers: 0, sockets: 0 };
    let nextCycle = started;
    while (Date.now() - started < SOAK_MS) {
      if (Date.now() >= nextCycle) {
        nextCycle += CYCLE_MS;
        closeTerminals();
        await pushJob();
        await volumeStep();
      }
      const r = resources();
      peak.timers = Math.max(peak.timers, r.timers);
      peak.sockets = Math.max(peak.sockets, r.sockets);
      await sleep(Math.min(5000, Math.max(0, started + SOAK_MS - Date.now())));
    }
    const wallMs = Date.now() - started;
    const log = ((await control('GET', 'log')).entries as Array<{ path: string }>).map((e) => e.path);
    // The last volume goes too, then everything settles before the end is measured.
    while (live.length) {
      await asUser(engine, token, 'DELETE', `/storage/${live.shift()}`);
      volumes.destroyed++;
    }
    await sleep(3000);
    await settled();
    closeTerminals();
    let after = await measure();
    // A timer or socket of the host's own (or of the Git extension beside us) may be passing through: up to
    // four more windows; what the extension leaked stays.
    for (
      let i = 0;
      i < 4 && (after.res.timers > before.res.timers || after.res.sockets > before.res.sockets);
      i++
    )
      after = await measure();
    const newTimers = await origins.live();
    origins.stop();
    const notes = spy.notifications.slice(notesFrom);
    return {
      wallMs,
      scale: SCALE,
      acceleratedMin: (wallMs * SCALE) / 60_000,
      heapMB: { before: before.heap / 2 ** 20, after: after.heap / 2 ** 20, gcAvailable: gc !== undefined },
      before: before.res,
      after: after.res,
      newTimers,
      peak,
      jobs,
      volumes,
      requests: bySection(log),
      errors: notes.filter((n) => n.severity === 'error').map((n) => n.message),
      warnings: notes.filter((n) => n.severity === 'warning').map((n) => n.message),
      problems: spy.problems
        .slice(problemsFrom)
        .filter((p) => p.ours)
        .map((p) => `${p.kind}: ${p.text.split('\n')[0]}`),
    };
  } finally {
    clearInterval(leaked);
    await settings.update('idleGuard.enabled', guard, vscode.ConfigurationTarget.Global);
    api.testing.setRefreshTimeScale(1);
    api.setPrompter(undefined);
    closeTerminals();
    rmSync(folder, { recursive: true, force: true });
    await control('POST', 'config', {
      pendingMs: 1500,
      processingMs: 6000,
      jobs: { pendingMs: 1000, lineMs: 150, lines: 3 },
    });
  }
}

async function clearAndShow(api: TensorPoolExtensionApi, control: Control): Promise<void> {
  await control('DELETE', 'log');
  await showAllSections(api);
}
