/**
 * A file changed both here and on the node since the last sync: which version wins, asked through the
 * Prompter (a notification with Keep Mine / Keep the Node's, and, for several files, Choose per File…: the
 * files ticked keep the version here, the others take the node's). Nothing is decided without an answer.
 */
import * as vscode from 'vscode';
import type { Prompter } from '../../../wizards/prompter';
import type { Log } from '../../shared/log';
import { notices } from '../../shared/notices';
import type { SendOutcome } from './syncSend';

/** The files a sync holds back as conflicts, and what the user decided for them (until it is done). */
export class Conflicts {
  private readonly held = new Set<string>();
  /** Send unchecked at the next transfer (the version here won). */
  readonly keepMine = new Set<string>();
  /** Pull at the next transfer (the node's version won). */
  readonly keepTheirs = new Set<string>();
  private asking = false;

  get size(): number {
    return this.held.size;
  }

  has(p: string): boolean {
    return this.held.has(p);
  }

  hold(paths: readonly string[]): void {
    for (const p of paths) this.held.add(p);
  }

  /** Ask which versions win (once at a time); the paths decided, or undefined when nothing was. */
  async ask(prompter: Prompter, label: string): Promise<Verdicts | undefined> {
    if (this.asking || this.held.size === 0) return undefined;
    this.asking = true;
    try {
      const v = await whichWins(prompter, [...this.held].sort(), label).catch(() => undefined);
      for (const p of v?.mine ?? []) this.decide(p, this.keepMine);
      for (const p of v?.theirs ?? []) this.decide(p, this.keepTheirs);
      return v;
    } finally {
      this.asking = false;
    }
  }

  private decide(p: string, how: Set<string>): void {
    this.held.delete(p);
    how.add(p);
  }
}

/** What a transfer held back or could not send, said in the log (and vanished files in a notification). */
export function tellOutcome(out: SendOutcome, label: string, log: Log): void {
  for (const p of out.nodeOnly) log.info(`Sync: ${p} changed only on ${label}: not sent.`);
  for (const p of out.keptThere)
    log.info(`Sync: ${p} was deleted here but changed on ${label} since the last sync: kept there.`);
  if (out.conflicts.length > 0)
    log.warn(
      `Sync: ${out.conflicts.length} file(s) changed both here and on ${label} since the last sync, not sent: ${out.conflicts.join(', ')}`,
    );
  const vanished = out.result.ok ? (out.result.vanished ?? []) : [];
  if (vanished.length === 0) return;
  log.warn(`Sync: ${vanished.length} file(s) vanished while being sent: ${vanished.join(', ')}`);
  void notices.showWarningMessage(
    vscode.l10n.t(
      'The sync to {0} finished, but {1} files vanished while they were sent (deleted or renamed here meanwhile): {2}',
      label,
      vanished.length,
      vanished.slice(0, 5).join(', ') + (vanished.length > 5 ? ', …' : ''),
    ),
  );
}

export interface Verdicts {
  /** Send these (the version here wins). */
  readonly mine: readonly string[];
  /** Pull these (the node's version wins). */
  readonly theirs: readonly string[];
}

async function whichWins(
  prompter: Prompter,
  paths: readonly string[],
  label: string,
): Promise<Verdicts | undefined> {
  const mine = vscode.l10n.t('Keep Mine');
  const theirs = vscode.l10n.t('Keep the Node’s');
  const each = vscode.l10n.t('Choose per File…');
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ', …' : '');
  const answer = await prompter.confirm({
    message:
      paths.length === 1
        ? vscode.l10n.t(
            '{0} changed both here and on {1} since the last sync: which version wins?',
            paths[0],
            label,
          )
        : vscode.l10n.t(
            '{0} files changed both here and on {1} since the last sync: which versions win?',
            paths.length,
            label,
          ),
    detail: paths.length === 1 ? undefined : shown,
    actions: paths.length === 1 ? [mine, theirs] : [mine, theirs, each],
    modal: false,
    severity: 'warning',
  });
  if (answer === mine) return { mine: paths, theirs: [] };
  if (answer === theirs) return { mine: [], theirs: paths };
  if (answer !== each) return undefined;
  const picked = await prompter.pickMany({
    title: vscode.l10n.t('Changed on both sides: {0}', label),
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: vscode.l10n.t('Tick the files whose version here wins; the others take the node’s'),
    items: paths.map((p) => ({ label: p, value: p, picked: true })),
  });
  if (picked.kind !== 'value') return undefined;
  return { mine: picked.value, theirs: paths.filter((p) => !picked.value.includes(p)) };
}
