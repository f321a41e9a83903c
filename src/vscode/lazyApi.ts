/**
 * The API layer (undici + zod/mini, ~600 KB) is not part of the activation bundle: esbuild keeps
 * this dynamic import external and it loads dist/api.js the first time a request is made.
 */
import type * as ApiModule from '../api';

export type Api = typeof ApiModule;

let loading: Promise<Api> | undefined;

export function loadApi(): Promise<Api> {
  // A plain require (kept external by esbuild.mjs, so it resolves to dist/api.js next to the
  // activation bundle), deferred to a microtask so callers always get a promise.
  loading ??= Promise.resolve().then(() => require('../api/index.js') as Api);
  return loading;
}
