/**
 * Follow a job's log to its end: listenJob again (with backoff) whenever the stream drops while the job
 * is not terminal (asked with GET /job/info); once it has ended, one more listen at once collects the
 * lines the drop cut off and the final status (a second drop then ends it). Never a push. When a new
 * connection replays the log from the start (its first message equals the first one seen), the lines
 * already delivered are skipped, so the caller sees each line once; only the first message's text and
 * a count are kept (bounded memory). With onLines (and the worker), runs of log lines arrive as one string
 * each (see listenThread.ts), skipped and counted the same way; with onMetrics, the records of the metric
 * lines (parsed in the worker) are skipped with their lines.
 */
import * as l10n from '@vscode/l10n';
import { isTerminalJobState } from '../model/job';
import { CancelledError } from './errors';
import { listenJob, type ListenMessage, type SocketOptions } from './jobSocket';
import type { JobApi } from './jobs';
import type { Transport } from './http';
import { listenJobInThread, withMetrics, type ThreadHandlers } from './listenThread';
import { columnsAfter, type MetricColumns } from '../model/metrics/batch';
import { abortableSleep } from './retry';

/** The default first backoff step: no job socket is opened again sooner after one dropped. */
export const FIRST_RECONNECT_MS = 1000;

export type FollowOutcome =
  | { readonly kind: 'success' | 'error'; readonly message: string | undefined }
  /** The stream ended without a final status but the job is terminal (read from info). */
  | { readonly kind: 'ended'; readonly status: string | undefined }
  /** Could not follow: refused (unknown job, bad token: code and reason) or out of attempts. */
  | { readonly kind: 'refused'; readonly code: number; readonly reason: string }
  | { readonly kind: 'gave-up'; readonly attempts: number; readonly reason: string }
  | { readonly kind: 'cancelled' };

export interface FollowOptions extends SocketOptions {
  readonly onMessage: (m: ListenMessage) => void;
  /** Runs of log lines (texts joined with \n, none holding a newline) as one string each; without it (or
   * without the worker) each line goes to onMessage. */
  readonly onLines?: (lines: string, count: number) => void;
  /** The records of the metric lines among the lines delivered (parsed in the worker), after them; a
   *  record's `line` is its message's index on its connection (the lines a reconnect skips have none). */
  readonly onMetrics?: (records: MetricColumns) => void;
  /** Called before each reconnect (attempt 1, 2, ...) with the delay waited. */
  readonly onReconnect?: (attempt: number, delayMs: number) => void;
  readonly signal?: AbortSignal;
  /** First backoff step (default FIRST_RECONNECT_MS), doubled up to maxDelayMs (default 30 s). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Reconnects in a row without a single message before giving up (default 8). */
  readonly maxAttempts?: number;
  /** Read the log in a worker thread (listenThread.ts), so a burst of lines never blocks this thread. */
  readonly worker?: boolean;
}

/** Close codes that mean "this will not work by trying again" (auth, not found, bad request). */
function refusal(code: number): boolean {
  return code === 1008 || code === 1003 || (code >= 4400 && code < 4500);
}

/** Where the line after the first `n` lines of `lines` (joined with \n) starts. */
function afterLines(lines: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = lines.indexOf('\n', at + 1);
  return at + 1;
}

function firstLine(lines: string): string {
  const end = lines.indexOf('\n');
  return end < 0 ? lines : lines.slice(0, end);
}

export async function followJob(
  transport: Transport,
  jobs: JobApi,
  jobId: string,
  opts: FollowOptions,
): Promise<FollowOutcome> {
  let firstText: string | undefined;
  let delivered = 0;
  let failures = 0;
  /** The job had ended when the stream dropped: the last listen (its replay carries the rest). */
  let ended: { status: string | undefined } | undefined;
  for (let attempt = 0; ; attempt++) {
    let index = 0;
    let skip = 0;
    let gotAny = false;
    const before = delivered;
    const onMetrics = opts.onMetrics;
    const handlers: ThreadHandlers = {
      signal: opts.signal,
      onMessage: (m) => {
        gotAny = true;
        index++;
        if (index === 1 && before > 0 && (m.message ?? '') === firstText) skip = before;
        if (index <= skip && m.status === undefined) return;
        if (delivered === 0) firstText = m.message ?? '';
        delivered++;
        opts.onMessage(m);
      },
      onLines: opts.onLines
        ? (lines, count) => {
            gotAny = true;
            if (index === 0 && before > 0 && firstLine(lines) === firstText) skip = before;
            const skipped = Math.min(count, Math.max(0, skip - index));
            index += count;
            if (skipped === count) return;
            const rest = skipped === 0 ? lines : lines.slice(afterLines(lines, skipped));
            if (delivered === 0) firstText = firstLine(rest);
            delivered += count - skipped;
            opts.onLines?.(rest, count - skipped);
          }
        : undefined,
      onMetrics: onMetrics
        ? (records: MetricColumns) => {
            const kept = skip > 0 ? columnsAfter(records, skip) : records;
            if (kept.count > 0) onMetrics(kept);
          }
        : undefined,
    };
    const out = opts.worker
      ? await listenJobInThread(transport, jobId, handlers, opts)
      : await listenJob(transport, jobId, withMetrics(handlers), opts);
    if (out.kind !== 'ended') return out;
    if (out.opened && refusal(out.code)) return { kind: 'refused', code: out.code, reason: out.reason };
    if (ended) return { kind: 'ended', status: ended.status };
    failures = gotAny ? 0 : failures + 1;
    try {
      const info = await jobs.info(jobId, { signal: opts.signal });
      if (isTerminalJobState(info.job?.status)) {
        ended = { status: info.job?.status };
        opts.onReconnect?.(attempt + 1, 0);
        continue;
      }
    } catch (err) {
      if (err instanceof CancelledError || opts.signal?.aborted) return { kind: 'cancelled' };
      // The service may be unreachable for a moment: keep following with backoff.
    }
    if (failures >= (opts.maxAttempts ?? 8))
      return { kind: 'gave-up', attempts: failures, reason: out.reason || l10n.t('code {0}', out.code) };
    const base = opts.baseDelayMs ?? FIRST_RECONNECT_MS;
    const delay = Math.min(opts.maxDelayMs ?? 30_000, base * 2 ** Math.min(failures, 10));
    opts.onReconnect?.(attempt + 1, delay);
    try {
      await abortableSleep(delay, opts.signal);
    } catch {
      return { kind: 'cancelled' };
    }
  }
}
