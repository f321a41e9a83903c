// The extension host's rows of one VS Code version, from what test/bench/host measured in it (HostBench): the
// activation and first use as VS Code times them, the trees, the job log, the real jobs, the folder sync, the
// notebooks, GPU telemetry, the idle
// and visible windows and the soak.
import type { Target } from '../harness/targets';
import { BUDGET } from './budgets';
import { firstTreeRows } from './firstTreeRows';
import { gpuMonitorRows, gpuTelemetryRows } from './gpuRows';
import type { LaunchSample } from './host/index';
import type { GpuMonitorUpdateSample } from './host/gpuMonitorUpdate';
import type { GpuTelemetrySample } from './host/gpuTelemetry';
import type { JobLogSample } from './host/jobLog';
import type { NotebookSample } from './host/notebookBench';
import type { RealJobSample } from './host/realJobs';
import type { SoakSample } from './host/soak';
import type { SyncSample } from './host/syncBench';
import { jobLogRows } from './jobLogRows';
import { notebookRows } from './notebookRows';
import { realJobRows } from './realJobRows';
import type { References } from './reference';
import { soakRows } from './soakRows';
import { syncRows } from './syncRows';
import { ONLY_FIRST_TREE, ONLY_GPU, ONLY_JOB_LOG, ONLY_NOTEBOOK, ONLY_SYNC } from './only';
import { median } from './stats';
import type { Table } from './table';

const ACTIVATION_RATIO_ROW = "Activation / a reference extension's (same launches)";

export interface HostBench {
  launches: LaunchSample[];
  tree?: {
    rows: number;
    instances: number;
    rounds: number[];
    refreshes: number;
    refreshMs: { median: number };
    listRequests: number;
    otherRequests: string[];
  };
  jobLog?: JobLogSample;
  realJobs?: RealJobSample;
  sync?: SyncSample;
  notebook?: NotebookSample;
  gpuMonitor?: GpuMonitorUpdateSample;
  gpuTelemetry?: GpuTelemetrySample;
  idle?: {
    windowMs: number;
    /** The refresh delays were divided by this (the window covers windowMs x scale of the schedule). */
    scale: number;
    requests: number;
    paths: string[];
    bySection: Record<string, number>;
    sectionsLoaded: string[];
    armedAfter: string[];
    inTransition: string[];
  };
  soak?: SoakSample;
  visible?: {
    windowMs: number;
    wallMs?: number;
    scale?: number;
    intervalS: number;
    listRequests: number;
    requests: number;
    allowed: number;
  };
}

export function hostRows(
  table: Table,
  target: Target,
  bench: HostBench | undefined,
  idle: boolean,
  failure: string | undefined,
  refs: References | undefined,
): void {
  const referenceInstalled = refs !== undefined;
  const referenceKB = refs?.extensionKB ?? 0;
  const where = `VS Code ${target.name}`;
  if (ONLY_GPU) {
    gpuMonitorRows(table, where, bench?.gpuMonitor);
    gpuTelemetryRows(table, where, bench?.gpuTelemetry, failure);
    return;
  }
  if (ONLY_SYNC) return syncRows(table, where, bench?.sync, failure);
  if (ONLY_NOTEBOOK) return notebookRows(table, where, bench?.notebook, failure);
  // The activation rows: the launches that open on the Explorer (the others open with the view showing).
  const launches = (bench?.launches ?? []).filter((l) => !l.viewOpen);
  if (launches.length === 0) {
    table.missing('Activation: load + activate()', where, failure ?? 'no launch was measured');
  } else {
    const startup = launches.every((l) => l.activatedBy === 'startup');
    table.add(
      'Activation: load + activate()',
      where,
      'ms',
      launches.map((l) => l.hostLoadMs + l.hostActivateMs),
      BUDGET.activationMs,
      {
        note: `VS Code's own marks over ${launches.length} launches (1 fresh, ${launches.length - 1} with a stored token): load ${launches.map((l) => l.hostLoadMs).join('/')} ms, activate ${launches.map((l) => l.hostActivateMs).join('/')} ms${startup ? '' : '; some launches were activated by the bench, not at startup'}`,
      },
    );
    const withReference = launches.filter((l) => l.reference);
    if (!referenceInstalled)
      table.missing(ACTIVATION_RATIO_ROW, where, 'the reference extension was not built');
    else if (withReference.length < launches.length)
      table.missing(ACTIVATION_RATIO_ROW, where, 'the reference extension did not activate in every launch');
    else {
      const ours = median(launches.map((l) => l.hostLoadMs + l.hostActivateMs));
      const ref = median(withReference.map((l) => l.reference!.loadMs + l.reference!.activateMs));
      table.add(ACTIVATION_RATIO_ROW, where, 'x', [ours / Math.max(ref, 1)], BUDGET.activationRatio, {
        note: `medians of the same ${launches.length} launches, VS Code's marks (1 ms steps): ours ${ours} ms, the reference ${ref} ms (load/activate per launch ${withReference.map((l) => `${l.reference!.loadMs}/${l.reference!.activateMs}`).join(', ')} ms; its bundle ${referenceKB.toFixed(0)} KB)`,
      });
    }
    const evals = launches.map((l) => l.moduleEvalMs).filter((v): v is number => v !== undefined);
    table.add('  bundle evaluation (first to last statement)', where, 'ms', evals, undefined);
    table.add(
      '  activate() call',
      where,
      'ms',
      launches.map((l) => l.activateMs),
      undefined,
    );
    const stored = launches.filter((l) => l.storedToken);
    const meGaps = stored.map((l) => l.meAfterActivatedMs);
    const orderOk = stored.length > 0 && meGaps.every((g) => g !== undefined && g >= 0);
    const lazy = launches.every((l) => l.apiLazy);
    table.add(
      'activate(): requests to the engine before it returned',
      where,
      'requests',
      launches.map((l) => l.requestsBeforeActivated),
      0,
      {
        limitText: '0',
        ok: orderOk && lazy,
        note: `with a stored token the startup GET /me reached the engine ${meGaps.map((g) => (g === undefined ? 'never' : `${g}`)).join('/')} ms after activate() returned; dist/api.js ${lazy ? 'was not loaded' : 'WAS loaded'} during activation`,
      },
    );
    const apiLoads = stored.map((l) => l.apiLoadMs).filter((v): v is number => v !== undefined);
    table.add('API layer first use: require(dist/api.js)', where, 'ms', apiLoads, BUDGET.apiFirstUseMs, {
      note: 'timed by the extension when the startup /me check first needed it',
    });
  }
  firstTreeRows(table, where, bench?.launches ?? [], failure);
  if (ONLY_FIRST_TREE) return;
  const tree = bench?.tree;
  if (!tree) {
    table.missing('Tree, 1,000 clusters: all items', where, failure ?? 'the tree step failed');
    table.missing('Tree: list requests per refresh', where, failure ?? 'the tree step failed');
  } else {
    table.add('Tree, 1,000 clusters: all items', where, 'ms', tree.rounds, BUDGET.treeItemsMs, {
      note: `getChildren + getTreeItem for ${tree.rows} rows and ${tree.instances} node rows, ${tree.rounds.length} rounds (max = the first, cold one: ${tree.rounds[0].toFixed(1)} ms); a refresh (GET + parse + store) took ${tree.refreshMs.median.toFixed(1)} ms`,
    });
    table.add(
      'Tree: list requests per refresh',
      where,
      'requests',
      [tree.listRequests / tree.refreshes],
      undefined,
      {
        ok: tree.listRequests === tree.refreshes && tree.otherRequests.length === 0,
        limitText: '= 1',
        note: `${tree.listRequests} GET /cluster/list for ${tree.refreshes} refreshes${tree.otherRequests.length ? `; other requests: ${tree.otherRequests.slice(0, 5).join(', ')}` : ', no other request'}`,
      },
    );
  }
  jobLogRows(table, where, bench?.jobLog, failure);
  if (!ONLY_JOB_LOG) {
    // The real jobs and the GPU telemetry on a real node: on the first version only (with the idle window).
    if (idle) realJobRows(table, where, bench?.realJobs, failure);
    if (idle) syncRows(table, where, bench?.sync, failure);
    if (idle) notebookRows(table, where, bench?.notebook, failure);
    gpuMonitorRows(table, where, bench?.gpuMonitor);
    if (idle) gpuTelemetryRows(table, where, bench?.gpuTelemetry, failure);
  }
  if (idle) {
    const i = bench?.idle;
    if (!i) table.missing('Idle, views hidden: requests', where, failure ?? 'the idle step failed');
    else {
      const problems = [
        i.windowMs * i.scale < BUDGET.idleMs
          ? `the window was shorter than ${BUDGET.idleMs / 1000} s of the refresh schedule`
          : '',
        i.sectionsLoaded.length < 5 ? `only ${i.sectionsLoaded.join(', ')} had loaded before hiding` : '',
        i.armedAfter.length ? `refreshes armed: ${i.armedAfter.join(', ')}` : '',
        i.inTransition.length ? `in transition: ${i.inTransition.slice(0, 3).join(', ')}` : '',
      ].filter(Boolean);
      const counted = Object.entries(i.bySection)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      table.add(
        `Idle ${Math.round((i.windowMs * i.scale) / 1000)} s, all 5 sections hidden: requests`,
        where,
        'requests',
        [i.requests],
        0,
        {
          limitText: '0',
          ok: problems.length === 0,
          note: `every section (${i.sectionsLoaded.join(', ')}) shown and loaded, then hidden, nothing in transition; ${Math.round(i.windowMs / 1000)} s of wall time with the refresh delays divided by ${i.scale}; by section: ${counted}${i.requests ? `; ${i.paths.slice(0, 5).join(', ')}` : ''}${problems.length ? `; ${problems.join('; ')}` : ''}`,
        },
      );
    }
    soakRows(table, where, bench?.soak, failure);
  }
  const v = bench?.visible;
  if (!v) table.missing('View visible: list requests', where, failure ?? 'the visible step failed');
  else {
    table.add(
      `View visible ${Math.round(v.windowMs / 1000)} s, interval ${v.intervalS} s: list requests`,
      where,
      'requests',
      [v.listRequests],
      v.allowed,
      {
        limitText: `<= ${v.allowed}`,
        note: `${v.requests} requests in all; allowed: one when the view opens + one per ${v.intervalS} s${v.scale && v.scale > 1 ? `; accelerated x${v.scale} (the refresh delays divided by ${v.scale}): ${((v.wallMs ?? 0) / 1000).toFixed(1)} s of wall time` : ''}`,
      },
    );
  }
}
