/**
 * The config writers (src/config: the INI and SSH config editors, atomic writes) are not part of
 * the activation bundle either: esbuild keeps this require external (esbuild.mjs, lazy-layers) and
 * it loads dist/config.js the first time a command previews or writes one of the user's files.
 * Synchronous, so the few sync call sites (a host alias, a path) need no change of shape.
 */
import type * as ConfigModule from '../../config';

export type ConfigWriters = typeof ConfigModule;

let loaded: ConfigWriters | undefined;

export function configWriters(): ConfigWriters {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
  return (loaded ??= require('../../config/index.js') as ConfigWriters);
}
