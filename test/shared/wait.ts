// Waiting in tests: the one sleep / until / waitFor / eventually every suite uses (unit, harness,
// reliability, benchmarks, and the extension-host suites: this plain module runs there too).
import * as assert from 'node:assert/strict';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Poll `get` every `everyMs` until `ok` accepts its value and return that value; fail with an
 * AssertionError naming `what` and the last value after `timeoutMs`. An error thrown by `get` ends the
 * wait at once (use `eventually` to retry assertions).
 */
export async function waitFor<T>(
  what: string,
  get: () => T | Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      assert.fail(
        `timed out after ${timeoutMs / 1000} s waiting for ${what}; last: ${String(JSON.stringify(value)).slice(0, 300)}`,
      );
    await sleep(everyMs);
  }
}

/** Poll `check` until it returns true; fail with an AssertionError naming `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<void> {
  await waitFor(what, check, (done) => done, timeoutMs, everyMs);
}

/** Retry `check` (an assertion) until it passes or `timeoutMs` runs out; then rethrow its last error. */
export async function eventually(
  timeoutMs: number,
  check: () => Promise<void>,
  everyMs = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(everyMs);
    }
  }
}
