// Small shared helpers for the test harness: paths, logging with timings, tokens (ports and waiting:
// test/shared).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root. This file runs as out/test/harness/util.js (transpiled by `npm run build`). */
export const REPO = path.resolve(__dirname, '..', '..', '..');
/** Everything the harness installs lives here (git-ignored): code-server, Node 24, playwright-core. */
export const CACHE = path.join(REPO, '.cache');
/** Screenshots and other artefacts a human may want to look at (git-ignored). */
export const RESULTS = path.join(REPO, 'test-results');

const t0 = Date.now();
/** Seconds since the harness process started, for log prefixes. */
export function elapsed(): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)}s`;
}

export function log(message: string): void {
  process.stdout.write(`[harness ${elapsed()}] ${message}\n`);
}

/** Run `fn`, then log how long it took. */
export async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await fn();
  } finally {
    log(`${label}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
}

export function randomToken(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(18).toString('base64url')}`;
}

/** The last `chars` characters of a file, or '' if it does not exist. */
export function tail(file: string, chars = 3000): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

/** `N passed, N failed`: the line every suite ends with. */
export function summaryLine(passed: number, failed: number): string {
  return `${passed} passed, ${failed} failed`;
}
