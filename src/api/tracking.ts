/**
 * Follow an asynchronous request (create, destroy, edit) to its end: poll GET /request/info until
 * COMPLETED or FAILED, waiting what Retry-After says (2 s when absent or unreadable, as the
 * official client does), capped in total time, cancellable, reporting every status change.
 * Stopping the wait never cancels the request on the server.
 */
import { isTerminalRequestStatus } from '../model/cluster';
import { abortableSleep } from './retry';
import type { TensorPoolClient } from './client';
import type { RequestInfo } from './schemas';

export interface TrackOptions {
  readonly signal?: AbortSignal;
  /** Called with the first answer and whenever the status changes. */
  readonly onStatus?: (info: RequestInfo) => void;
  /** Give up after this long (default 30 min); the request goes on on the server. */
  readonly maxTotalMs?: number;
  /** Wait when the answer has no usable Retry-After (default 2 s). */
  readonly defaultDelayMs?: number;
  /** Never poll faster than this, whatever Retry-After says (default 250 ms). */
  readonly minDelayMs?: number;
  /** Never wait longer than this between polls (default 60 s). */
  readonly maxDelayMs?: number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
}

export type TrackOutcome =
  | { readonly kind: 'completed'; readonly info: RequestInfo }
  | { readonly kind: 'failed'; readonly info: RequestInfo }
  | { readonly kind: 'gave-up'; readonly info: RequestInfo | undefined; readonly afterMs: number }
  | { readonly kind: 'stopped'; readonly info: RequestInfo | undefined };

export async function trackRequest(
  client: Pick<TensorPoolClient, 'requestInfo'>,
  requestId: string,
  options: TrackOptions = {},
): Promise<TrackOutcome> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const maxTotalMs = options.maxTotalMs ?? 30 * 60_000;
  const defaultDelayMs = options.defaultDelayMs ?? 2000;
  const minDelayMs = options.minDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const started = now();
  let last: RequestInfo | undefined;

  for (;;) {
    if (options.signal?.aborted) return { kind: 'stopped', info: last };
    let answer;
    try {
      answer = await client.requestInfo(requestId, { signal: options.signal });
    } catch (e) {
      if (options.signal?.aborted) return { kind: 'stopped', info: last };
      throw e;
    }
    const { info } = answer;
    if (!last || last.status !== info.status) options.onStatus?.(info);
    last = info;
    if (isTerminalRequestStatus(info.status)) {
      return { kind: info.status.toUpperCase() === 'COMPLETED' ? 'completed' : 'failed', info };
    }
    const elapsed = now() - started;
    if (elapsed >= maxTotalMs) return { kind: 'gave-up', info, afterMs: elapsed };
    const wanted = answer.retryAfterMs ?? defaultDelayMs;
    const delay = Math.min(Math.max(wanted, minDelayMs), maxDelayMs, maxTotalMs - elapsed);
    try {
      await sleep(delay, options.signal);
    } catch {
      return { kind: 'stopped', info: last };
    }
  }
}
