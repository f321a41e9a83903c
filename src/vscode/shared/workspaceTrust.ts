/**
 * What this extension leaves off in an untrusted workspace (Restricted Mode), said in one place:
 * package.json's `capabilities.untrustedWorkspaces.description` names the same two features. Each
 * feature checks Workspace Trust itself (HostSeams.isTrusted) and tells the user why it is off here,
 * with a button that opens the Workspace Trust editor.
 */
import * as vscode from 'vscode';
import type { Prompter } from '../../wizards/prompter';
import type { Log } from './log';

export type RestrictedFeature = 'localCommands' | 'dotenv';

/** The sentence shown (and logged) when a feature is off because the workspace is not trusted (one whole
 * sentence per feature, since word order differs between languages). */
function untrustedMessage(feature: RestrictedFeature, what: string): string {
  return feature === 'localCommands'
    ? vscode.l10n.t(
        'TensorPool: {0}, because this workspace is not trusted. In Restricted Mode TensorPool leaves off running the commands the service sends for a job (such as the upload of its files); trust the workspace to use it.',
        what,
      )
    : vscode.l10n.t(
        'TensorPool: {0}, because this workspace is not trusted. In Restricted Mode TensorPool leaves off reading an API token from a workspace .env file; trust the workspace to use it.',
        what,
      );
}

/** Log the reason and show it as a notification with a button that opens the Workspace Trust editor. */
export function tellUntrusted(prompts: Prompter, log: Log, feature: RestrictedFeature, what: string): void {
  const message = untrustedMessage(feature, what);
  log.warn(message);
  const manageTrust = vscode.l10n.t('Manage Workspace Trust');
  void prompts.confirm({ message, actions: [manageTrust], modal: false, severity: 'warning' }).then(
    (pick) => {
      if (pick === manageTrust) void vscode.commands.executeCommand('workbench.trust.manage');
    },
    () => undefined,
  );
}
