/**
 * When a failed request is tried again: idempotent GETs only, after network failures, timeouts,
 * 429 (waiting what Retry-After says, unless that is too long) and the transient 5xx statuses;
 * exponential backoff with jitter otherwise. Mutating requests are never retried here.
 */
import type { RateLimitedError, TensorPoolError } from './errors';

export interface RetryPolicy {
  /** How many times a request is retried (not counting the first try). */
  readonly maxRetries: number;
  /** First backoff step, doubled each retry, with jitter. */
  readonly retryBaseMs: number;
  /** A Retry-After longer than this is not waited for (and backoff never exceeds it). */
  readonly maxRetryDelayMs: number;
}

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET']);
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method);
}

/** Whether (and after how long, in ms) a failed idempotent request is worth another try. */
export function retryDelay(err: TensorPoolError, attempt: number, policy: RetryPolicy): number | undefined {
  if (attempt >= policy.maxRetries) return undefined;
  const backoff = Math.min(policy.retryBaseMs * 2 ** attempt, policy.maxRetryDelayMs);
  const jittered = Math.round(backoff * (0.75 + Math.random() * 0.5));
  switch (err.kind) {
    case 'network':
    case 'timeout':
      return jittered;
    case 'rate-limited': {
      const after = (err as RateLimitedError).retryAfterMs;
      if (after === undefined) return jittered;
      return after <= policy.maxRetryDelayMs ? after : undefined;
    }
    case 'server':
      return err.status !== undefined && RETRYABLE_STATUS.has(err.status) ? jittered : undefined;
    default:
      return undefined;
  }
}

/** Retry-After: delta seconds or an HTTP date. Anything else is ignored (callers use their default). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  if (!Number.isNaN(date) && /[a-z]/i.test(v)) return Math.max(0, date - now);
  return undefined;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
