// Where the translations of the display language live for every bundle of the extension: activation puts
// vscode.l10n.bundle there (src/extension.ts), src/model/l10n.ts reads it. A global, because each lazy
// bundle (dist/api.js, dist/actions.js, ...) and the job log's worker thread has a module scope of its own.
const L10N_SLOT = Symbol.for('tensorpool.l10n.bundle');

/** The translations: message (or message/comment key) -> translated message. */
export type L10nContents = Record<string, string | { message: string; comment: string[] }>;

type Slotted = { [L10N_SLOT]?: L10nContents };

export function setL10nContents(contents: L10nContents | undefined): void {
  (globalThis as Slotted)[L10N_SLOT] = contents;
}

export function l10nContents(): L10nContents | undefined {
  return (globalThis as Slotted)[L10N_SLOT];
}
