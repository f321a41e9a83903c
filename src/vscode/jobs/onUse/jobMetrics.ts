/**
 * Jobs' metrics, as their logs stream: one MetricStore per job (bounded: src/model/metrics), fed with the
 * records the log reader's worker thread parsed (src/api/listenWorker.ts). A job followed in its terminal
 * feeds its store as it goes (JobFollowers), from the first line (a listen replays the log from its
 * start). Show Metrics on a job nobody follows reads its log for the metrics alone: to its end for a
 * finished job (once: the store is kept), live while a job runs, until its last panel closes. Kept: the
 * stores of jobs being read or shown, and the last KEEP_ENDED complete ones. Part of the lazily loaded actions.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import type { FollowOutcome } from '../../../api/jobFollow';
import { addColumns, type MetricColumns } from '../../../model/metrics/batch';
import { MetricStore } from '../../../model/metrics/store';
import type { ApiService } from '../../shared/apiService';
import type { Log } from '../../shared/log';

const KEEP_ENDED = 8;

export type MetricsState = 'reading' | 'live' | 'ended' | 'stopped';

export interface JobMetricsEntry {
  readonly jobId: string;
  store: MetricStore;
  state: MetricsState;
  /** Why reading stopped (state 'stopped'). */
  reason?: string;
  /** The job's final state, when it ended. */
  final?: string;
  /** Being fed (by a follower or a metrics-only read). */
  feeding: boolean;
  users: number;
  readonly changed: vscode.EventEmitter<void>;
  ac?: AbortController;
}

/** What a follower feeds (JobFollowers): the records as they come, then how the log ended. */
export interface MetricsFeed {
  readonly records: (records: MetricColumns) => void;
  readonly end: (out: FollowOutcome | undefined) => void;
}

function finalOf(out: FollowOutcome): string | undefined {
  if (out.kind === 'success') return 'completed';
  if (out.kind === 'error') return 'failed';
  if (out.kind === 'ended') return out.status ?? 'ended';
  return undefined;
}

export class JobMetrics implements vscode.Disposable {
  private readonly entries = new Map<string, JobMetricsEntry>();

  constructor(
    private readonly api: ApiService,
    private readonly log: Log,
  ) {}

  get(jobId: string): JobMetricsEntry | undefined {
    return this.entries.get(jobId);
  }

  /** A follower starts reading `jobId`'s log from its first line: the feed, unless the store is complete
   *  or fed already (then undefined). */
  feed(jobId: string): MetricsFeed | undefined {
    const known = this.entries.get(jobId);
    if (known && (known.feeding || known.state === 'ended')) return undefined;
    const e = this.start(jobId, known);
    return { records: (r) => this.add(e, r), end: (out) => this.finish(e, out) };
  }

  /** A panel shows `jobId`: its entry, reading the log for the metrics when nobody does. */
  open(jobId: string): JobMetricsEntry {
    const known = this.entries.get(jobId);
    const e = known && (known.feeding || known.state === 'ended') ? known : this.read(jobId, known);
    e.users++;
    return e;
  }

  /** A panel closed: a read for the metrics alone stops with its last panel. */
  close(e: JobMetricsEntry): void {
    e.users = Math.max(0, e.users - 1);
    if (e.users === 0 && e.ac) e.ac.abort();
    this.prune();
  }

  private start(jobId: string, known: JobMetricsEntry | undefined): JobMetricsEntry {
    const e: JobMetricsEntry = known ?? {
      jobId,
      store: new MetricStore(),
      state: 'reading',
      feeding: true,
      users: 0,
      changed: new vscode.EventEmitter<void>(),
    };
    e.store = new MetricStore();
    e.state = 'reading';
    e.feeding = true;
    e.reason = undefined;
    this.entries.delete(jobId);
    this.entries.set(jobId, e);
    e.changed.fire();
    return e;
  }

  private read(jobId: string, known: JobMetricsEntry | undefined): JobMetricsEntry {
    const e = this.start(jobId, known);
    const ac = new AbortController();
    e.ac = ac;
    void (async () => {
      let out: FollowOutcome | undefined;
      try {
        const client = await this.api.client();
        out = await client.jobs.follow(jobId, {
          signal: ac.signal,
          worker: true,
          onMessage: (m) => {
            if (m.status === undefined && e.state === 'reading') e.state = 'live';
          },
          onLines: () => {
            if (e.state === 'reading') e.state = 'live';
          },
          onMetrics: (r) => this.add(e, r),
        });
      } catch (err) {
        e.reason = errorMessage(err);
        this.log.warn(`Reading the metrics of job ${jobId} failed: ${e.reason}`);
      } finally {
        if (e.ac === ac) e.ac = undefined;
        this.finish(e, out);
      }
    })();
    return e;
  }

  private add(e: JobMetricsEntry, records: MetricColumns): void {
    addColumns(e.store, records);
    if (e.state === 'reading') e.state = 'live';
    e.changed.fire();
  }

  private finish(e: JobMetricsEntry, out: FollowOutcome | undefined): void {
    e.feeding = false;
    const final = out ? finalOf(out) : undefined;
    if (final) {
      e.state = 'ended';
      e.final = final;
    } else {
      e.state = 'stopped';
      if (out?.kind === 'refused' || out?.kind === 'gave-up') e.reason = out.reason;
    }
    e.changed.fire();
    this.prune();
  }

  /** Drops what nobody needs: stopped entries without panels, complete ones beyond KEEP_ENDED. */
  private prune(): void {
    let ended = 0;
    for (const e of [...this.entries.values()].reverse()) {
      if (e.users > 0 || e.feeding) continue;
      if (e.state === 'ended' && ++ended <= KEEP_ENDED) continue;
      e.changed.dispose();
      this.entries.delete(e.jobId);
    }
  }

  dispose(): void {
    for (const e of this.entries.values()) {
      e.ac?.abort();
      e.changed.dispose();
    }
    this.entries.clear();
  }
}
