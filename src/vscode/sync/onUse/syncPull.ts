/**
 * Pull from Node…: what is new or changed on the node in the synced folder (a dry run, with sizes), the
 * files ticked brought back into the folder (every one ticked at first: Enter brings all; rsync writes each
 * to a temporary name, then renames it; names are ours, checked to stay inside the folder). A file changed
 * only on the node comes back without a question; one changed here too since the last sync (or never
 * synced and different here) is never overwritten without asking; one changed only here is not listed.
 */
import * as vscode from 'vscode';
import { pullListArgv } from '../../../model/syncPlan';
import { isInsidePath } from '../../../model/syncQueue';
import { isFile, pullKind, type PullKind } from '../../../model/syncState';
import type { Prompter } from '../../../wizards/prompter';
import type { Log } from '../../shared/log';
import { notices } from '../../shared/notices';
import { runRsync } from './rsyncRun';
import { pullPaths, stateHere } from './syncSend';
import type { SyncSession } from './syncSession';

export type PullOutcome =
  | { readonly kind: 'pulled'; readonly files: readonly string[] }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly why: string };

interface Entry {
  readonly path: string;
  readonly size: number;
  readonly kind: PullKind;
}

export async function pullFromNode(
  s: SyncSession,
  prompts: () => Prompter,
  env: Readonly<Record<string, string | undefined>>,
  log: Log,
): Promise<PullOutcome> {
  const signal = new AbortController().signal;
  const listed = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Listing what changed on {0}…', s.label),
    },
    () => runRsync(pullListArgv(s.d.target, s.d.excludes), s.folder, { signal, env }),
  );
  if (!listed.ok) return fail(listed.why, log);
  const entries: Entry[] = listed.items
    .filter((i) => isFile(i) && isInsidePath(i.path))
    .map((i) => ({
      path: i.path,
      size: i.state.size,
      kind: pullKind(i.state, s.d.sent.state(i.path), stateHere(s.folder, i.path)),
    }))
    .filter((e) => e.kind !== 'changedHere');
  if (entries.length === 0) {
    void notices.showInformationMessage(vscode.l10n.t('Nothing on {0} is new or changed.', s.label));
    return { kind: 'nothing' };
  }
  const total = entries.reduce((a, e) => a + e.size, 0);
  const picked = await prompts().pickMany<string>({
    title: vscode.l10n.t('Pull from {0}: {1} files, {2}', s.label, entries.length, size(total)),
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: vscode.l10n.t('New or changed on the node: Enter brings the ticked files here'),
    items: entries.map((e) => ({
      label: e.path,
      description: `${size(e.size)} · ${describe(e.kind)}`,
      value: e.path,
      picked: true,
    })),
  });
  if (picked.kind !== 'value' || picked.value.length === 0) return { kind: 'cancelled' };
  let chosen = picked.value;
  const both = entries.filter((e) => e.kind === 'changedBoth' && chosen.includes(e.path)).map((e) => e.path);
  if (both.length > 0) {
    const overwrite = vscode.l10n.t('Overwrite');
    const keepMine = vscode.l10n.t('Keep Mine');
    const answer = await prompts().confirm({
      message: vscode.l10n.t(
        '{0} of these files changed here too since the last sync: overwrite the version here with the node’s?',
        both.length,
      ),
      detail: both.slice(0, 10).join('\n'),
      actions: chosen.length > both.length ? [overwrite, keepMine] : [overwrite],
      modal: true,
      severity: 'warning',
    });
    if (answer === undefined) return { kind: 'cancelled' };
    if (answer === keepMine) chosen = chosen.filter((p) => !both.includes(p));
  }
  const r = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Pulling {0} files from {1}…', chosen.length, s.label),
      cancellable: true,
    },
    (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const c = { ...s.d, folder: s.folder, sent: s.d.sent, env, signal: abort.signal };
      return pullPaths(c, chosen);
    },
  );
  if (!r.ok) return fail(r.why, log);
  const files = r.items.filter(isFile).map((i) => i.path);
  log.info(`Pulled ${files.length} file(s) from ${s.label} into ${s.folder}.`);
  void notices.showInformationMessage(vscode.l10n.t('Pulled {0} files from {1}.', files.length, s.label));
  return { kind: 'pulled', files };
}

function describe(kind: PullKind): string {
  switch (kind) {
    case 'new':
      return vscode.l10n.t('new');
    case 'changedThere':
      return vscode.l10n.t('changed on the node');
    default:
      return vscode.l10n.t('changed here too: asks before overwriting');
  }
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function fail(why: string, log: Log): PullOutcome {
  log.warn(`Pull from node failed: ${why}`);
  void notices.showErrorMessage(vscode.l10n.t('Pull from node failed: {0}', why));
  return { kind: 'failed', why };
}
