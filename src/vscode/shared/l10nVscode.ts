// `@vscode/l10n` as the activation bundle sees it (esbuild.mjs resolves the import here for
// dist/extension.js only): the model code in that bundle (labels, times, validators) translates through
// vscode.l10n.t, which already holds this extension's bundle, so activation does not carry a second
// l10n runtime. The other bundles use src/model/l10n.ts (the worker thread has no `vscode`).
import * as vscode from 'vscode';
import type * as L10n from '@vscode/l10n';

export const t = ((first: string | readonly string[] | { message: string }, ...rest: unknown[]): string => {
  // A tagged template: the parts around each ${...} make the message, with {0}, {1}, ... in their place.
  if (typeof first !== 'string' && 'length' in first) {
    const message = first.reduce((m, part, i) => (i === 0 ? part : `${m}{${i - 1}}${part}`), '');
    return vscode.l10n.t(message, ...(rest as Array<string | number | boolean>));
  }
  return (vscode.l10n.t as (...a: unknown[]) => string)(first, ...rest);
}) as typeof L10n.t;

/** Nothing to configure: vscode.l10n reads the bundle VS Code loaded for the extension. */
export function config(): void {}
