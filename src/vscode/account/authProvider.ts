/**
 * TensorPool in VS Code's Accounts menu: an AuthenticationProvider backed by the same SecretStorage
 * entry as Sign In. Signing out from the Accounts menu signs out here; other extensions can ask for
 * a session (VS Code asks the user before handing it over, even to this extension, which is why
 * the extension itself reads the token from SecretStorage rather than through getSession).
 */
import * as vscode from 'vscode';
import type { AccountController } from './account';
import type { Store } from '../shared/store';

const AUTH_PROVIDER_ID = 'tensorpool';
const SESSION_ID = 'tensorpool-api-token';

export class TensorPoolAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly emitter =
    new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.emitter.event;
  private current: vscode.AuthenticationSession | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly account: AccountController,
    private readonly store: Store,
  ) {
    this.disposables.push(
      vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'TensorPool', this, {
        supportsMultipleAccounts: false,
      }),
      store.onDidChange((topic) => {
        if (topic === 'account') this.sync();
      }),
    );
  }

  private session(): vscode.AuthenticationSession | undefined {
    const state = this.store.account;
    const token = this.account.getToken();
    if (state.kind !== 'signedIn' || !token) return undefined;
    return {
      id: SESSION_ID,
      accessToken: token,
      account: { id: state.id ?? state.label, label: state.label },
      scopes: [],
    };
  }

  /** Tell VS Code when the session appears, changes or goes away. */
  private sync(): void {
    const next = this.session();
    const prev = this.current;
    this.current = next;
    // The Accounts menu lists every provider's getSessions() and follows these events.
    if (!prev && next) {
      this.emitter.fire({ added: [next], removed: [], changed: [] });
    } else if (prev && !next) {
      this.emitter.fire({ added: [], removed: [prev], changed: [] });
    } else if (
      prev &&
      next &&
      (prev.accessToken !== next.accessToken || prev.account.label !== next.account.label)
    ) {
      this.emitter.fire({ added: [], removed: [], changed: [next] });
    }
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    const s = this.session();
    return s ? [s] : [];
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const result = await this.account.signIn();
    const s = this.session();
    if (!result.ok || !s)
      throw new Error(result.message ?? vscode.l10n.t('Sign-in to TensorPool was cancelled.'));
    return s;
  }

  async removeSession(): Promise<void> {
    await this.account.signOut();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.emitter.dispose();
  }
}
