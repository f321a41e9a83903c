/**
 * The command actions (the wizards and what runs only when a command is invoked, see actions.ts) are
 * not part of the activation bundle: esbuild keeps this require external (esbuild.mjs, lazy-layers) and
 * it loads dist/actions.js the first time such a command runs. The actions are made once, from the
 * services activation built, and every later command gets the same ones.
 */
import type * as ActionsModule from './actions';
import type { Prompter } from '../wizards/prompter';

export type { Actions } from './actions';

/** A function giving the actions, loading dist/actions.js and making them on the first call. */
export function lazyActions(deps: ActionsModule.ActionDeps): () => Promise<ActionsModule.Actions> {
  let loading: Promise<ActionsModule.Actions> | undefined;
  return () =>
    // Deferred to a microtask so a failed load rejects the command's promise instead of throwing.
    (loading ??= Promise.resolve().then(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
      const m = require('./actions.js') as typeof ActionsModule;
      return m.createActions(deps);
    }));
}

/** The real quick-input prompter, from dist/actions.js too: only commands prompt, and they load it anyway. */
export function quickInputPrompter(): Prompter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
  const m = require('./actions.js') as typeof ActionsModule;
  return new m.QuickInputPrompter();
}

/** The GPU telemetry's session side (ssh argv, spawn, the nvidia-smi loop and its reader) and the idle
 *  guard, from dist/actions.js: loaded when someone first watches a node or a running cluster first shows,
 *  not at activation. */
export function gpuSessions(): Pick<
  typeof ActionsModule,
  'nodeTargets' | 'spawnSsh' | 'loopCommand' | 'SmiLoopReader' | 'IdleWatch'
> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
  return require('./actions.js') as typeof ActionsModule;
}
