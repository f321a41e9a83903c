/**
 * The idle guard's bookkeeping as a pure state machine (the VS Code layer samples, shows the
 * notification and stores the "don't ask" set; this decides).
 *
 * Per cluster it keeps the run of idle observations: `idleSince` (the first idle observation of the
 * run) and `lastObserved`. Only observed time counts: two consecutive idle observations further apart
 * than `maxGapMs` (the window was closed, the node did not answer, sampling paused) end the run, and
 * the next idle observation starts a new one, because a busy spell in the gap would have gone
 * unseen. An observation that is not idle ends the run and re-arms the notification. An unknown
 * observation (no sample, utilisation not reported) is no observation: it changes nothing, so its
 * time becomes part of the gap.
 *
 * When a run reaches `periodMs` the guard says `notify` once for that run; Keep (or nothing) leaves it
 * quiet until the cluster has been busy again; "Don't ask" silences the cluster for good; `forget`
 * drops a cluster that is gone.
 */

export interface IdleGuardConfig {
  /** How long every GPU must stay under the threshold (observed) before the guard speaks. */
  readonly periodMs: number;
  /** Longest gap between observations that still counts as watched (a few sampling intervals). */
  readonly maxGapMs: number;
}

export interface ClusterIdleRecord {
  /** First idle observation of the current run; undefined when not idle (or not known to be). */
  readonly idleSince?: number;
  /** The latest observation (idle or busy) that was counted. */
  readonly lastObserved?: number;
  /** The guard already spoke for the current run. */
  readonly notified: boolean;
}

export interface IdleGuardState {
  readonly clusters: Readonly<Record<string, ClusterIdleRecord>>;
  /** Clusters the user said "don't ask" for. */
  readonly dontAsk: readonly string[];
}

export const EMPTY_IDLE_GUARD: IdleGuardState = { clusters: {}, dontAsk: [] };

export interface Observation {
  readonly time: number;
  /** Every GPU under the threshold (aggregate.ts allIdle); undefined = could not tell. */
  readonly idle: boolean | undefined;
}

export interface ObserveResult {
  readonly state: IdleGuardState;
  /** Set when the guard should notify now (once per idle run). */
  readonly notify?: { readonly clusterId: string; readonly idleMs: number };
}

const NOT_IDLE: ClusterIdleRecord = { notified: false };

function withRecord(state: IdleGuardState, id: string, record: ClusterIdleRecord): IdleGuardState {
  return { ...state, clusters: { ...state.clusters, [id]: record } };
}

/** The observed idle time of a cluster's current run (0 when not idle). */
export function idleFor(state: IdleGuardState, clusterId: string): number {
  const r = state.clusters[clusterId];
  return r?.idleSince !== undefined && r.lastObserved !== undefined ? r.lastObserved - r.idleSince : 0;
}

export function observe(
  state: IdleGuardState,
  clusterId: string,
  obs: Observation,
  config: IdleGuardConfig,
): ObserveResult {
  if (obs.idle === undefined) return { state };
  const prev = state.clusters[clusterId] ?? NOT_IDLE;
  // Out-of-order samples are ignored: time only moves forward.
  if (prev.lastObserved !== undefined && obs.time < prev.lastObserved) return { state };
  if (!obs.idle) return { state: withRecord(state, clusterId, { lastObserved: obs.time, notified: false }) };

  const gap = prev.lastObserved === undefined ? Infinity : obs.time - prev.lastObserved;
  const continues = prev.idleSince !== undefined && gap <= config.maxGapMs;
  const record: ClusterIdleRecord = continues
    ? { idleSince: prev.idleSince, lastObserved: obs.time, notified: prev.notified }
    : { idleSince: obs.time, lastObserved: obs.time, notified: prev.notified };
  const next = withRecord(state, clusterId, record);
  const idleMs = obs.time - record.idleSince!;
  if (idleMs >= config.periodMs && !record.notified && !state.dontAsk.includes(clusterId)) {
    return {
      state: withRecord(next, clusterId, { ...record, notified: true }),
      notify: { clusterId, idleMs },
    };
  }
  return { state: next };
}

/** "Keep": nothing more for this run (the guard already marked it notified; this makes it explicit,
 *  e.g. when the user keeps a cluster from somewhere else). */
export function keep(state: IdleGuardState, clusterId: string): IdleGuardState {
  const r = state.clusters[clusterId] ?? NOT_IDLE;
  return withRecord(state, clusterId, { ...r, notified: true });
}

/** "Don't Ask for This Cluster". */
export function dontAsk(state: IdleGuardState, clusterId: string): IdleGuardState {
  return state.dontAsk.includes(clusterId) ? state : { ...state, dontAsk: [...state.dontAsk, clusterId] };
}

/** The cluster is gone (destroyed, out of scope): drop its run and its "don't ask". */
export function forget(state: IdleGuardState, clusterId: string): IdleGuardState {
  const clusters = { ...state.clusters };
  delete clusters[clusterId];
  return { clusters, dontAsk: state.dontAsk.filter((id) => id !== clusterId) };
}
