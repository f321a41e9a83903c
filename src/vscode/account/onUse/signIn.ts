/**
 * Signing in, loaded on the first sign-in or token offer: a token handed in (automation, tests) or typed
 * into the input box (tokenInput.ts), checked by the account (account.ts tryToken), and what the user is
 * told either way.
 */
import * as vscode from 'vscode';
import { validateApiToken } from '../../../model/validate';
import { notices } from '../../shared/notices';
import type { Store } from '../../shared/store';
import { withSignIn, type SignInResult, type TokenRefusal } from '../account';
import { promptForToken } from './tokenInput';

/** What signing in needs of the account controller. */
interface TokenTaker {
  tryToken(token: string): Promise<TokenRefusal>;
}

/** A token check's outcome in the user's words. */
async function tryToken(a: TokenTaker, token: string): Promise<SignInResult> {
  const refusal = await a.tryToken(token);
  if (!refusal) return { ok: true };
  const reason = 'message' in refusal ? refusal.message : vscode.l10n.t('The token could not be checked.');
  const message =
    refusal.kind === 'rejected'
      ? vscode.l10n.t('TensorPool rejected this token: {0}', reason)
      : refusal.kind === 'forbidden'
        ? vscode.l10n.t('This token may not read the account: {0}', reason)
        : vscode.l10n.t('Could not check the token: {0}', reason);
  return { ok: false, message };
}

function showSignedIn(store: Store): void {
  const a = store.account;
  const who = a.kind === 'signedIn' ? a.label : vscode.l10n.t('TensorPool account');
  void notices.showInformationMessage(vscode.l10n.t('Signed in to TensorPool as {0}.', who));
}

/** Sign in with `arg.token` without UI, or through the input box that keeps what was typed. */
export async function signIn(a: TokenTaker, store: Store, arg?: { token?: string }): Promise<SignInResult> {
  if (arg && typeof arg.token === 'string') {
    const problem = validateApiToken(arg.token);
    if (problem) return { ok: false, message: problem };
    const result = await tryToken(a, arg.token.trim());
    if (result.ok) showSignedIn(store);
    return result;
  }
  return promptForToken(
    (token) => tryToken(a, token),
    () => showSignedIn(store),
  );
}

/** Sign in with a token the user agreed to use (from the environment or a `.env`, named by `source`). */
export async function useOfferedToken(
  a: TokenTaker,
  store: Store,
  token: string,
  source: string,
): Promise<void> {
  const problem = validateApiToken(token);
  const result = problem ? { ok: false, message: problem } : await tryToken(a, token.trim());
  if (result.ok) return showSignedIn(store);
  withSignIn(notices.showErrorMessage, result.message ?? vscode.l10n.t('{0} could not be used.', source));
}
