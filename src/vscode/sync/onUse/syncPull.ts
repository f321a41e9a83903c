/**
 * Pull from Node…: what is new or changed in the synced folder on the node (a dry run, with sizes), the
 * files chosen brought back into the folder (rsync writes each to a temporary name, then renames it; names
 * are ours, checked to stay inside the folder). A file that exists here is never overwritten without asking.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { filesFromInput, pullArgv, pullEntry, pullListArgv } from '../../../model/syncPlan';
import { isInsidePath } from '../../../model/syncQueue';
import type { Prompter } from '../../../wizards/prompter';
import type { Log } from '../../shared/log';
import { notices } from '../../shared/notices';
import { runRsync } from './rsyncRun';
import type { SyncSession } from './syncSession';

export type PullOutcome =
  | { readonly kind: 'pulled'; readonly files: readonly string[] }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly why: string };

const ALL = Symbol('all');

export async function pullFromNode(
  s: SyncSession,
  prompts: () => Prompter,
  env: Readonly<Record<string, string | undefined>>,
  log: Log,
): Promise<PullOutcome> {
  const signal = new AbortController().signal;
  const lines: string[] = [];
  const listed = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Listing what changed on {0}…', s.label),
    },
    () => runRsync(pullListArgv(s.d.target, s.d.excludes), s.folder, { signal, env }),
  );
  if (!listed.ok) return fail(listed.why, log);
  for (const n of listed.names) lines.push(n);
  const entries = lines
    .map(pullEntry)
    .filter((e): e is { path: string; size: number } => e !== undefined && isInsidePath(e.path));
  if (entries.length === 0) {
    void notices.showInformationMessage(vscode.l10n.t('Nothing on {0} is new or changed.', s.label));
    return { kind: 'nothing' };
  }
  const total = entries.reduce((a, e) => a + e.size, 0);
  const picked = await prompts().pick<string | typeof ALL>({
    title: vscode.l10n.t('Pull from {0}', s.label),
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: vscode.l10n.t('New or changed on the node: which to bring here?'),
    items: [
      { label: vscode.l10n.t('All {0} files', entries.length), description: size(total), value: ALL },
      ...entries.map((e) => ({
        label: e.path,
        description: `${size(e.size)}${here(s.folder, e.path) ? vscode.l10n.t(' · differs from the file here') : ''}`,
        value: e.path,
      })),
    ],
  });
  if (picked.kind !== 'value') return { kind: 'cancelled' };
  let chosen = picked.value === ALL ? entries.map((e) => e.path) : [picked.value];
  const existing = chosen.filter((p) => here(s.folder, p));
  if (existing.length > 0) {
    const overwrite = vscode.l10n.t('Overwrite');
    const onlyNew = vscode.l10n.t('Only New Files');
    const answer = await prompts().confirm({
      message: vscode.l10n.t(
        '{0} of these files also exist here and differ: overwrite them with the node’s?',
        existing.length,
      ),
      detail: existing.slice(0, 10).join('\n'),
      actions: chosen.length > existing.length ? [overwrite, onlyNew] : [overwrite],
      modal: true,
      severity: 'warning',
    });
    if (answer === undefined) return { kind: 'cancelled' };
    if (answer === onlyNew) chosen = chosen.filter((p) => !existing.includes(p));
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
      return runRsync(pullArgv(s.d.target), s.folder, {
        input: filesFromInput(chosen),
        signal: abort.signal,
        env,
      });
    },
  );
  if (!r.ok) return fail(r.why, log);
  log.info(`Pulled ${r.names.length} file(s) from ${s.label} into ${s.folder}.`);
  void notices.showInformationMessage(vscode.l10n.t('Pulled {0} files from {1}.', r.names.length, s.label));
  return { kind: 'pulled', files: r.names };
}

function here(folder: string, rel: string): boolean {
  return fs.existsSync(path.join(folder, rel));
}

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function fail(why: string, log: Log): PullOutcome {
  log.warn(`Pull from node failed: ${why}`);
  void notices.showErrorMessage(vscode.l10n.t('Pull from node failed: {0}', why));
  return { kind: 'failed', why };
}
