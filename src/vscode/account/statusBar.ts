/**
 * The account indicator in the status bar (left: it is about the whole window, not a file).
 * Stable id and name so users can hide it from the status bar's context menu.
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import { effectiveApiUrl, readSettings } from '../shared/settings';
import type { AccountState, Store } from '../shared/store';
import type { ClusterPrices } from '../cost';
import { burnLines } from '../cost';

export interface StatusView {
  readonly text: string;
  readonly tooltip: string | vscode.MarkdownString;
  readonly command: string;
  readonly background?: 'warning' | 'error';
}

function formatUsd(n: number): string {
  return `$${n.toFixed(2)}`;
}

/** The status bar as a function of the account state (tested directly). */
function statusView(
  state: AccountState,
  lowBalance: number,
  burn: { lines: string[]; low: boolean } = { lines: [], low: false },
): StatusView {
  switch (state.kind) {
    case 'signedOut':
      return {
        text: vscode.l10n.t('$(account) TensorPool: Sign In'),
        tooltip: vscode.l10n.t('Not signed in to TensorPool. Click to sign in with an API token.'),
        command: Commands.signIn,
      };
    case 'checking':
      return {
        text: vscode.l10n.t('$(sync~spin) TensorPool'),
        tooltip: vscode.l10n.t('Checking your TensorPool API token…'),
        command: Commands.showLog,
      };
    case 'signedIn': {
      const lowBalanceNow = state.org?.balance !== undefined && state.org.balance < lowBalance;
      const low = lowBalanceNow || burn.low;
      const md = new vscode.MarkdownString(undefined, true);
      md.appendMarkdown('**TensorPool**\n\n');
      md.appendText(vscode.l10n.t('Account: {0}', state.label) + '\n\n');
      if (state.org?.name) md.appendText(vscode.l10n.t('Organisation: {0}', state.org.name) + '\n\n');
      if (state.org?.balance !== undefined) {
        md.appendMarkdown(lowBalanceNow ? `$(warning) ` : '');
        const balance = formatUsd(state.org.balance);
        md.appendText(
          (lowBalanceNow
            ? vscode.l10n.t('Balance: {0} (below your warning level of {1})', balance, formatUsd(lowBalance))
            : vscode.l10n.t('Balance: {0}', balance)) + '\n\n',
        );
      }
      burn.lines.forEach((line, i) => {
        md.appendMarkdown(burn.low && i === burn.lines.length - 1 ? `$(warning) ` : '');
        md.appendText(line + '\n\n');
      });
      md.appendMarkdown(
        `[${vscode.l10n.t('Open TensorPool')}](command:workbench.view.extension.tensorpool) · [${vscode.l10n.t('Sign Out')}](command:${Commands.signOut})`,
      );
      md.isTrusted = { enabledCommands: ['workbench.view.extension.tensorpool', Commands.signOut] };
      return {
        text: `${low ? '$(warning)' : '$(server-environment)'} ${state.label}`,
        tooltip: md,
        command: 'workbench.view.extension.tensorpool',
        background: low ? 'warning' : undefined,
      };
    }
    case 'rejected':
      return {
        text: vscode.l10n.t('$(warning) TensorPool: Token Rejected'),
        tooltip: vscode.l10n.t('{0}\n\nClick to sign in again.', state.message),
        command: Commands.signIn,
        background: 'warning',
      };
    case 'forbidden':
      return {
        text: vscode.l10n.t('$(circle-slash) TensorPool: No Permission'),
        tooltip: vscode.l10n.t(
          '{0}\n\nThe token is valid but lacks permission. Click to sign in with another token.',
          state.message,
        ),
        command: Commands.signIn,
        background: 'warning',
      };
    case 'unreachable':
      return {
        text: vscode.l10n.t('$(cloud-offline) TensorPool: Offline'),
        tooltip: vscode.l10n.t('{0}\n\nClick to retry.', state.message),
        command: Commands.retryAccountCheck,
        background: 'error',
      };
    case 'outdated':
      return {
        text: vscode.l10n.t('$(circle-slash) TensorPool: Update Needed'),
        tooltip: vscode.l10n.t(
          'The TensorPool service refused this version of the extension:\n{0}\n\nUpdate the extension, then click to check again.',
          state.message,
        ),
        command: Commands.retryAccountCheck,
        background: 'error',
      };
  }
}

/** Say which service the window talks to when it is not the default one (and why). */
function withEndpoint(tooltip: string | vscode.MarkdownString): string | vscode.MarkdownString {
  const { url, source } = effectiveApiUrl();
  if (source === 'default') return tooltip;
  const line =
    source === 'setting'
      ? vscode.l10n.t('Service: {0} (tensorpool.apiUrl setting)', url)
      : vscode.l10n.t('Service: {0} (TENSORPOOL_ENGINE environment variable)', url);
  if (typeof tooltip === 'string') return `${tooltip}\n\n${line}`;
  return tooltip.appendMarkdown('\n\n').appendText(line);
}

export class AccountStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;
  private readonly settingsSubscription: vscode.Disposable;

  private readonly pricesSubscription: vscode.Disposable | undefined;

  constructor(
    private readonly store: Store,
    /** The burn rate and runway (prices from the service), when known. */
    private readonly prices?: ClusterPrices,
  ) {
    this.pricesSubscription = prices?.onDidChange(() => this.render());
    this.item = vscode.window.createStatusBarItem('tensorpool.account', vscode.StatusBarAlignment.Left, -100);
    this.item.name = vscode.l10n.t('TensorPool Account');
    this.subscription = store.onDidChange((topic) => {
      if (topic === 'account') this.render();
    });
    // The tooltip names the service in use: a new URL shows at once, even when the account stays the same.
    this.settingsSubscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (
        e.affectsConfiguration('tensorpool.apiUrl') ||
        e.affectsConfiguration('tensorpool.lowRunwayWarning')
      )
        this.render();
    });
    // Drawn right after activation returns (reading the settings is not needed before the first command).
    setImmediate(() => {
      this.render();
      this.item.show();
    });
  }

  render(): void {
    const settings = readSettings();
    const burn = burnLines(this.prices?.burn(), settings.lowRunwayWarning);
    const view = statusView(this.store.account, settings.lowBalanceWarning, burn);
    this.item.text = view.text;
    this.item.tooltip = withEndpoint(view.tooltip);
    this.item.command = view.command;
    this.item.backgroundColor = view.background
      ? new vscode.ThemeColor(`statusBarItem.${view.background}Background`)
      : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.settingsSubscription.dispose();
    this.pricesSubscription?.dispose();
    this.item.dispose();
  }
}
