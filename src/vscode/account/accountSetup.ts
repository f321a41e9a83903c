/**
 * Wiring of the account (called once by the composition root): the token in SecretStorage and its check
 * against /me (account.ts, again when a setting the API depends on changes), the command-line setup, VS
 * Code's authentication provider, the sign-in commands and the account's context key. The token check
 * starts here, in the background: a SecretStorage read the window answers while the rest of activate()
 * runs, then /health and /me once activation returned.
 */
import * as vscode from 'vscode';
import { AccountController } from './account';
import { TensorPoolAuthProvider } from './authProvider';
import { CliSetup, type AccountOnUse } from './cliSetup';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { affectsApi } from '../shared/settings';

export interface AccountFeature {
  readonly account: AccountController;
  readonly cliSetup: CliSetup;
  readonly authProvider: TensorPoolAuthProvider;
}

/** `onUse` loads the account's dialogs (sign-in box, the token offers, a refusal: dist/actions.js). */
export function setupAccount(core: Core, onUse: () => AccountOnUse): AccountFeature {
  const cliSetup = new CliSetup(
    core.api,
    core.state,
    core.log,
    core.extensionVersion,
    core.prompts,
    core.host,
    onUse,
  );
  const account = new AccountController(
    core.context.secrets,
    core.store,
    core.api,
    core.secrets,
    core.log,
    onUse,
    cliSetup,
  );
  core.api.useAccount(account);
  void account.initialize();
  const authProvider = new TensorPoolAuthProvider(account, core.store);
  const setAccountKey = () => core.contextKeys.set('tensorpool.account', core.store.account.kind);
  setAccountKey();
  core.own(
    account,
    authProvider,
    core.store.onDidChange((topic) => {
      if (topic === 'account') setAccountKey();
    }),
    // Another service URL, proxy or certificate: a new API client, and the token checked against it.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsApi(e)) return;
      core.api.reset();
      void account.check();
    }),
    vscode.commands.registerCommand(Commands.signIn, (arg?: { token?: string }) => account.signIn(arg)),
    vscode.commands.registerCommand(Commands.signOut, () => account.signOut()),
    vscode.commands.registerCommand(Commands.retryAccountCheck, () => account.check()),
  );
  return { account, cliSetup, authProvider };
}
