/**
 * The API layer (undici + zod/mini, ~600 KB) is not part of the activation bundle: esbuild keeps
 * this dynamic import external and it loads dist/api.js the first time a request is made.
 */
import type * as ApiModule from '../../api';

export type Api = typeof ApiModule;

/** How long loading the API layer took (ms, performance.now()) and when it finished (Date.now()). */
export interface ApiLoadTiming {
  readonly ms: number;
  readonly at: number;
}

let loading: Promise<Api> | undefined;
let timing: ApiLoadTiming | undefined;

export function loadApi(): Promise<Api> {
  // A plain require (kept external by esbuild.mjs, so it resolves to dist/api.js next to the
  // activation bundle), deferred to a microtask so callers always get a promise.
  loading ??= Promise.resolve().then(() => {
    const started = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-api)
    const api = require('../../api/index.js') as Api;
    timing = { ms: performance.now() - started, at: Date.now() };
    return api;
  });
  return loading;
}

/** Undefined until the API layer has been loaded (for the benchmarks: it must not load at activation). */
export function apiLoadTiming(): ApiLoadTiming | undefined {
  return timing;
}
