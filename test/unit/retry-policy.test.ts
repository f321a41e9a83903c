/**
 * When the transport tries a request again: only GETs, only after transient failures, with
 * exponential backoff and jitter, Retry-After honoured up to a cap; and how Retry-After is read.
 */
import * as assert from 'node:assert/strict';
import {
  ConflictError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
  type TensorPoolError,
} from '../../src/api/errors';
import { abortableSleep, isIdempotent, parseRetryAfter, retryDelay } from '../../src/api/retry';

const ctx = { method: 'GET', path: '/cluster/list' };
const policy = { maxRetries: 3, retryBaseMs: 100, maxRetryDelayMs: 1000 };

describe('retry policy', () => {
  it('only GET is retried; create, edit and destroy methods never are', () => {
    assert.equal(isIdempotent('GET'), true);
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) assert.equal(isIdempotent(m), false, m);
  });

  it('network failures and timeouts back off exponentially, within 25% jitter', () => {
    const failures: TensorPoolError[] = [
      new NetworkError('refused', ctx, 'ECONNREFUSED', false),
      new TimeoutError('slow', ctx, 30_000, true),
    ];
    for (const err of failures) {
      for (const [attempt, base] of [
        [0, 100],
        [1, 200],
        [2, 400],
      ]) {
        for (let i = 0; i < 20; i++) {
          const d = retryDelay(err, attempt, policy);
          assert.ok(d !== undefined && d >= base * 0.75 && d <= base * 1.25, `${err.kind} #${attempt}: ${d}`);
        }
      }
    }
  });

  it('backoff never exceeds the cap, and stops after the last retry', () => {
    const err = new NetworkError('reset', ctx, 'ECONNRESET', true);
    const capped = { ...policy, maxRetries: 10 };
    for (let i = 0; i < 20; i++) assert.ok((retryDelay(err, 8, capped) ?? Infinity) <= 1250);
    assert.equal(retryDelay(err, 3, policy), undefined);
  });

  it('429 waits exactly what Retry-After says, unless that is longer than the cap', () => {
    assert.equal(retryDelay(new RateLimitedError('slow down', ctx, 700), 0, policy), 700);
    assert.equal(retryDelay(new RateLimitedError('slow down', ctx, 1001), 0, policy), undefined);
    const d = retryDelay(new RateLimitedError('slow down', ctx, undefined), 0, policy);
    assert.ok(d !== undefined && d >= 75 && d <= 125, String(d));
  });

  it('transient 5xx statuses are retried, 501 and client errors are not', () => {
    for (const status of [500, 502, 503, 504])
      assert.notEqual(
        retryDelay(new ServerError('down', { ...ctx, status }), 0, policy),
        undefined,
        String(status),
      );
    assert.equal(retryDelay(new ServerError('no', { ...ctx, status: 501 }), 0, policy), undefined);
    for (const err of [
      new UnauthorizedError('who', { ...ctx, status: 401 }),
      new ConflictError('busy', { ...ctx, status: 409 }),
      new ValidationError('bad', { ...ctx, status: 422 }, [], false),
    ])
      assert.equal(retryDelay(err, 0, policy), undefined, err.kind);
  });
});

describe('Retry-After', () => {
  it('reads delta seconds and HTTP dates; a date in the past means now', () => {
    assert.equal(parseRetryAfter('5'), 5000);
    assert.equal(parseRetryAfter(' 0 '), 0);
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now), 0);
  });

  it('ignores what it cannot read', () => {
    for (const v of [undefined, '', '-1', '1.5', 'soon', 'in 5 minutes'])
      assert.equal(parseRetryAfter(v), undefined, String(v));
  });
});

describe('abortable sleep', () => {
  it('resolves after the time, and rejects at once when aborted before or during', async () => {
    const started = Date.now();
    await abortableSleep(30);
    assert.ok(Date.now() - started >= 25);
    await assert.rejects(abortableSleep(10, AbortSignal.abort()));
    const ac = new AbortController();
    const sleeping = abortableSleep(10_000, ac.signal);
    setTimeout(() => ac.abort(), 10);
    const t = Date.now();
    await assert.rejects(sleeping);
    assert.ok(Date.now() - t < 1000);
  });
});
