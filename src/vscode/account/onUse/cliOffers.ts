/**
 * The command-line setup's dialogs, loaded only when one has something to say (cliSetup.ts decides that
 * at activation without them): the token found in the environment offered once, a workspace `.env` offered
 * once per file (read only after the user agrees, only in a trusted workspace, never written back), and the
 * service's refusal of this version.
 */
import * as vscode from 'vscode';
import type { Prompter } from '../../../wizards/prompter';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import { notices } from '../../shared/notices';
import type { StoredState } from '../../shared/storedState';
import { tellUntrusted } from '../../shared/workspaceTrust';

const EXTENSION_ID = 'tensorpool.tensorpool-vscode';

/** Check a token and store it when accepted (the account controller's sign-in path). */
export type TokenUser = (token: string, source: string) => Promise<void>;

export interface OfferDeps {
  readonly state: StoredState;
  readonly log: Log;
  /** Notifications go through the prompter, so tests can script and count them. */
  readonly prompts: () => Prompter;
}

/** The service refused this version: say so, with Update Extension and Show Log. */
export function showRefusal(d: OfferDeps, version: string, message: string): void {
  const update = vscode.l10n.t('Update Extension');
  const showLog = vscode.l10n.t('Show Log');
  void d
    .prompts()
    .confirm({
      message: vscode.l10n.t('TensorPool refused this version of the extension ({0}): {1}', version, message),
      detail: vscode.l10n.t('Update the TensorPool extension, then run "TensorPool: Retry Account Check".'),
      actions: [update, showLog],
      modal: false,
      severity: 'error',
    })
    .then(
      (pick) => {
        if (pick === update) void vscode.commands.executeCommand('extension.open', EXTENSION_ID);
        if (pick === showLog) d.log.channel.show();
      },
      () => undefined,
    );
}

/** Offer the token of the environment variable `name` (the official CLI reads TENSORPOOL_KEY). */
export async function offerEnvToken(name: string, token: string, useToken: TokenUser): Promise<void> {
  const use = vscode.l10n.t('Use {0}', name);
  const pick = await notices.showInformationMessage(
    vscode.l10n.t(
      "{0} is set in your environment. Sign in to TensorPool with it? It will be checked and kept in VS Code's secret storage.",
      name,
    ),
    use,
    vscode.l10n.t('Not Now'),
  );
  if (pick === use) await useToken(token, name);
}

/** In an untrusted workspace: say once that `file` was not read (it is offered once the workspace is trusted). */
export function tellDotenvUntrusted(d: OfferDeps, file: string): void {
  tellUntrusted(d.prompts(), d.log, 'dotenv', vscode.l10n.t('{0} was not read for an API token', file));
}

/** Offer the `.env` file `file` of a trusted workspace (noted as offered first); read it only if the user
 *  agrees, and sign in with its token. */
export async function offerDotenvFile(d: OfferDeps, file: string, useToken: TokenUser): Promise<void> {
  const offered = d.state.get('tensorpool.dotenvTokenOffered', []);
  await d.state.update('tensorpool.dotenvTokenOffered', [...offered, file].slice(-50));
  const read = vscode.l10n.t('Read .env');
  const pick = await d.prompts().confirm({
    message: vscode.l10n.t(
      'This workspace has a .env file ({0}). The TensorPool command line reads its API token from a TENSORPOOL_KEY line there. Look for one and sign in with it?',
      file,
    ),
    detail: vscode.l10n.t(
      'The file is only read, never changed; the token is checked and kept in secret storage.',
    ),
    actions: [read, vscode.l10n.t('Not Now')],
    modal: false,
    severity: 'info',
  });
  if (pick !== read) return;
  const found = await configWriters().readDotenvToken(file);
  if (!found) {
    void notices.showWarningMessage(
      vscode.l10n.t('No TENSORPOOL_KEY (or TENSORPOOL_API_KEY) line with a value in {0}.', file),
    );
    return;
  }
  d.log.info(`Using the ${found.name} line of ${file}.`);
  await useToken(found.value, vscode.l10n.t('{0} from .env', found.name));
}
