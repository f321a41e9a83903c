/**
 * A running folder sync's status bar item: `⇅ node 1 · synced 2 s ago`, `syncing 3 files…`, `sync failed:
 * <why>` (a click offers the log, Retry, Watch, Stop). Made when the sync begins (../syncStatus.ts keeps it
 * while the sync runs); "synced N s ago" is redrawn every 5 s while it shows, and never otherwise.
 */
import * as vscode from 'vscode';
import { Commands } from '../../shared/commands';
import type { RunningSync, SyncDisplay, SyncState } from '../index';

export class SyncStatusBar implements SyncDisplay {
  private readonly item: vscode.StatusBarItem;
  private timer: NodeJS.Timeout | undefined;
  state: SyncState | undefined;

  constructor(private readonly sync: RunningSync) {
    this.item = vscode.window.createStatusBarItem('tensorpool.sync', vscode.StatusBarAlignment.Left, 40);
    this.item.name = vscode.l10n.t('TensorPool folder sync');
    this.item.command = Commands.syncMenu;
  }

  get text(): string | undefined {
    return this.state ? this.item.text : undefined;
  }

  update(state: SyncState): void {
    this.state = state;
    this.clearTimer();
    // "synced N s ago" is redrawn while it shows (a timer of this window only: nothing is asked of anyone).
    if (state.kind === 'synced') this.timer = setInterval(() => this.draw(), 5000);
    this.draw();
    this.item.show();
  }

  private draw(): void {
    const { sync, state } = this;
    if (!state) return;
    const eye = sync.watching ? '' : vscode.l10n.t(' (not watching)');
    switch (state.kind) {
      case 'syncing':
        // A still icon: a spinning one is redrawn by the window all the while the sync runs.
        this.item.text = vscode.l10n.t('$(sync) {0} · syncing {1} files…', sync.label, state.files);
        this.item.backgroundColor = undefined;
        break;
      case 'synced': {
        const s = Math.max(0, Math.round((Date.now() - state.at) / 1000));
        const ago = s < 60 ? vscode.l10n.t('{0} s ago', s) : vscode.l10n.t('{0} min ago', Math.floor(s / 60));
        this.item.text = vscode.l10n.t('⇅ {0} · synced {1}{2}', sync.label, ago, eye);
        this.item.backgroundColor = undefined;
        break;
      }
      case 'failed':
        this.item.text = vscode.l10n.t('$(error) {0} · sync failed: {1}', sync.label, state.why);
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'cancelled':
        this.item.text = vscode.l10n.t('$(circle-slash) {0} · sync cancelled', sync.label);
        this.item.backgroundColor = undefined;
        break;
    }
    if (sync.conflicts > 0) {
      this.item.text += vscode.l10n.t(' · {0} changed on both sides', sync.conflicts);
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    }
    this.item.tooltip =
      sync.conflicts > 0
        ? vscode.l10n.t(
            '{0} ⇄ {1}: click to choose which versions win, or for the log, Retry, Stop',
            sync.folder,
            sync.label,
          )
        : vscode.l10n.t('{0} ⇄ {1}: click for the log, Retry, Stop', sync.folder, sync.label);
  }

  private clearTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.clearTimer();
    this.item.dispose();
  }
}
