// `@vscode/l10n` as the extension's bundles see it. Code without a `vscode` import writes
// `import * as l10n from '@vscode/l10n'` and `l10n.t('Cluster {0} is ready', name)` (or the tagged form), so
// that `npm run l10n` (@vscode/l10n-dev) finds its strings; esbuild resolves that import to this module
// (esbuild.mjs, plugin l10n-shared). @vscode/l10n keeps its translations in a module variable and every
// dist/*.js has its own copy of it, so each copy is fed the one bundle activation shared (l10nSlot.ts)
// before it translates. Without a bundle (English, unit tests) the message is only formatted.
import * as l10n from '@vscode/l10n';
import { l10nContents, type L10nContents } from './l10nSlot';

let applied: L10nContents | undefined | null = null;

function sync(): void {
  const contents = l10nContents();
  if (contents === applied) return;
  applied = contents;
  l10n.config({ contents: contents ?? {} });
}

export const t: typeof l10n.t = ((...args: Parameters<typeof l10n.t>) => {
  sync();
  return (l10n.t as (...a: unknown[]) => string)(...args);
}) as typeof l10n.t;
