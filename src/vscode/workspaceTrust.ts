/**
 * What this extension leaves off in an untrusted workspace (Restricted Mode), said in one place:
 * package.json's `capabilities.untrustedWorkspaces.description` names the same two features. Each
 * feature checks Workspace Trust itself (HostSeams.isTrusted) and tells the user why it is off here,
 * with a button that opens the Workspace Trust editor.
 */
import * as vscode from 'vscode';
import type { Prompter } from '../wizards/prompter';
import type { Log } from './log';

export const MANAGE_TRUST = 'Manage Workspace Trust';

/** The features Restricted Mode turns off, as the messages name them. */
export const RESTRICTED_FEATURES = {
  localCommands: 'running the commands the service sends for a job (such as the upload of its files)',
  dotenv: 'reading an API token from a workspace .env file',
} as const;

export type RestrictedFeature = keyof typeof RESTRICTED_FEATURES;

/** The sentence shown (and logged) when a feature is off because the workspace is not trusted. */
export function untrustedMessage(feature: RestrictedFeature, what: string): string {
  return `TensorPool: ${what}, because this workspace is not trusted. In Restricted Mode TensorPool leaves off ${RESTRICTED_FEATURES[feature]}; trust the workspace to use it.`;
}

/** Log the reason and show it as a notification with a button that opens the Workspace Trust editor. */
export function tellUntrusted(prompts: Prompter, log: Log, feature: RestrictedFeature, what: string): void {
  const message = untrustedMessage(feature, what);
  log.warn(message);
  void prompts.confirm({ message, actions: [MANAGE_TRUST], modal: false, severity: 'warning' }).then(
    (pick) => {
      if (pick === MANAGE_TRUST) void vscode.commands.executeCommand('workbench.trust.manage');
    },
    () => undefined,
  );
}
