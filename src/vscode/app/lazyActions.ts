/**
 * The command actions (the wizards and what runs only when a command is invoked, see actions.ts) are
 * not part of the activation bundle: esbuild keeps this require external (esbuild.mjs, lazy-layers) and
 * it loads dist/actions.js the first time such a command runs. The actions are made once, from the
 * services activation built, and every later command gets the same ones.
 */
import type { SyncStatus } from '../sync';
import * as path from 'node:path';
import type * as ActionsModule from './onUse/actions';
import type { Prompter } from '../../wizards/prompter';
import type { ClustersFeature } from '../clusters';
import type { Core } from '../shared/extensionCore';
import type { JobFilesFeature } from '../jobFiles';
import { configWriters } from '../shared/lazyConfig';
import type { ObjectStorageFeature } from '../objectStorage';
import type { TerminalTapRecord } from '../testing';
import type { GpuSessions } from '../gpu';
import type { AccountOnUse } from '../account';
import type { Sections } from './features';

export type { Actions } from './onUse/actions';

/** A function giving the actions, loading dist/actions.js and making them on the first call. */
function lazyActions(deps: ActionsModule.ActionDeps): () => Promise<ActionsModule.Actions> {
  let loading: Promise<ActionsModule.Actions> | undefined;
  return () =>
    // Deferred to a microtask so a failed load rejects the command's promise instead of throwing.
    (loading ??= Promise.resolve().then(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
      const m = require('./onUse/actions.js') as typeof ActionsModule;
      return m.createActions(deps);
    }));
}

/** The actions, made from the core and the features activation set up. */
export function featureActions(
  core: Core,
  f: {
    clusters: ClustersFeature;
    sections: Sections;
    storage: ObjectStorageFeature;
    jobFiles: JobFilesFeature;
    terminalTap: TerminalTapRecord | undefined;
    sync: SyncStatus;
  },
): () => Promise<ActionsModule.Actions> {
  // The seam's home (a test's scratch folder), as for the ssh config.
  const sshDir = () => path.join(core.host.home(), '.ssh');
  return lazyActions({
    ...core,
    clusters: f.clusters.controller,
    subscriptions: core.context.subscriptions,
    sections: f.sections,
    localKeys: {
      list: () => configWriters().readPublicKeys(sshDir()),
      generate: () => configWriters().generateEd25519Key(sshDir()),
    },
    storage: f.storage.controller,
    jobStarted: () => f.jobFiles.refreshLenses(),
    terminalTap: f.terminalTap?.record,
    forwards: f.clusters.forwards,
    gpu: { sampler: f.clusters.gpuSampler, targets: f.clusters.gpu.targets },
    sync: f.sync,
  });
}

/** The real quick-input prompter, from dist/actions.js too: only commands prompt, and they load it anyway. */
export function quickInputPrompter(): Prompter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
  const m = require('./onUse/actions.js') as typeof ActionsModule;
  return new m.QuickInputPrompter();
}

/** The account's dialogs (the sign-in box, the token offers, a refusal), from dist/actions.js: loaded when one
 *  is first shown, not at activation (handed to the account, accountSetup.ts). */
export function accountOnUse(): AccountOnUse {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
  return require('./onUse/actions.js') as typeof ActionsModule;
}

/** The GPU telemetry's session side (ssh argv, spawn, the nvidia-smi loop and its reader) and the idle
 *  guard, from dist/actions.js: loaded when someone first watches a node or a running cluster first shows,
 *  not at activation (handed to the GPU feature, gpuSetup.ts). */
export function gpuSessions(): GpuSessions {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
  return require('./onUse/actions.js') as typeof ActionsModule;
}
