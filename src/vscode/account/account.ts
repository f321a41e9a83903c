/**
 * The account: the API token in SecretStorage, its check against GET /me, sign-in and sign-out,
 * and the state every view shows. The token is held in memory only while signed in and is never
 * written to settings, state, logs or messages.
 */
import * as vscode from 'vscode';
import { isTensorPoolError, errorMessage } from '../../api/errors';
import type { SecretRegistry } from '../../api/redact';
import { accountLabel } from '../../model/account';
import type { ApiService } from '../shared/apiService';
import { Commands } from '../shared/commands';
import type { Log } from '../shared/log';
import type { AccountOnUse, CliSetup } from './cliSetup';
import type { AccountState, OrgSummary, Store } from '../shared/store';
import { SECRET_KEYS } from '../shared/storedState';
import { markSpan } from '../testing';
import { notices } from '../shared/notices';

const TOKEN_KEY = SECRET_KEYS.apiToken;

function accountId(me: Record<string, unknown>): string | undefined {
  return ['uid', 'user_id', 'id', 'email'].map((k) => me[k]).find((v) => typeof v === 'string' && v) as
    string | undefined;
}

/** What a failed token check means for the account state. */
function stateForError(e: unknown): NonNullable<TokenRefusal> {
  if (isTensorPoolError(e)) {
    switch (e.kind) {
      case 'unauthorized':
        return { kind: 'rejected', message: e.message };
      case 'forbidden':
        return { kind: 'forbidden', message: e.message };
      default:
        return { kind: 'unreachable', message: e.message };
    }
  }
  return { kind: 'unreachable', message: errorMessage(e) };
}

export interface SignInResult {
  readonly ok: boolean;
  readonly message?: string;
}

/** Why a candidate token was not taken (the account state its check would have meant), or undefined: taken. */
export type TokenRefusal = Exclude<AccountState, { kind: 'signedIn' | 'signedOut' | 'checking' }> | undefined;

export class AccountController implements vscode.Disposable {
  private token: string | undefined;
  private checkSeq = 0;
  private rejectionPrompted = false;
  /** Set while this window signs in or out: SecretStorage events from its own writes are not news. */
  private ownWrites = 0;
  private startupRead = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly secretStorage: vscode.SecretStorage,
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly registry: SecretRegistry,
    private readonly log: Log,
    /** Signing in and what the user is told (onUse/signIn.ts), loaded on the first sign-in. */
    private readonly onUse: () => AccountOnUse,
    /** The command-line setup: health check and the environment/`.env` token offer (cliSetup.ts). */
    private readonly cli?: CliSetup,
  ) {
    // Another window signed in or out: follow it.
    this.disposables.push(
      secretStorage.onDidChange((e) => {
        if (e.key === TOKEN_KEY) void this.reload();
      }),
    );
  }

  readonly getToken = (): string | undefined => this.token;

  private readonly checkListeners = new Set<(isCurrent: () => boolean) => void>();

  /** `listener` runs as the stored token's GET /me goes out, with whether that check still decides the
   *  account (the Clusters view shows the last session's list meanwhile). */
  onCheckStarting(listener: (isCurrent: () => boolean) => void): vscode.Disposable {
    this.checkListeners.add(listener);
    return { dispose: () => this.checkListeners.delete(listener) };
  }

  get signedIn(): boolean {
    return this.store.account.kind === 'signedIn';
  }

  /** The stored token was read: "signed out" before that is only the state the window starts in. */
  get tokenRead(): boolean {
    return this.startupRead;
  }

  /** Read the stored token and check it in the background. Called once, at the top of activate(): the read
   *  is asked for then, the check runs once activation returned. Without a stored token, a token found in
   *  the environment or a workspace `.env` is offered; the promise settles once that offer was answered
   *  (activate() does not wait for it). */
  async initialize(): Promise<void> {
    const token = await markSpan('token.read', () => this.secretStorage.get(TOKEN_KEY));
    this.startupRead = true;
    if (token) {
      this.setToken(token);
      await this.check();
    } else {
      this.store.setAccount({ kind: 'signedOut' });
      await this.cli?.offerToken((token, source) => this.useOfferedToken(token, source));
    }
  }

  private setToken(token: string | undefined): void {
    if (this.token && this.token !== token) this.registry.delete(this.token);
    this.token = token;
    if (token) this.registry.add(token);
    this.rejectionPrompted = false;
  }

  /** SecretStorage changed (maybe in another window): follow it, unless this window is writing. */
  private async reload(): Promise<void> {
    if (this.ownWrites > 0) return;
    const token = await this.secretStorage.get(TOKEN_KEY);
    if (this.ownWrites > 0 || token === this.token) return;
    this.setToken(token);
    if (token) await this.check();
    else this.store.setAccount({ kind: 'signedOut' });
  }

  /** Check the stored token against GET /me; never throws. Settles once every answer of the check (the
   *  /me sent alongside a refused /health included) has been taken or dropped. */
  async check(): Promise<void> {
    if (!this.token) {
      this.store.setAccount({ kind: 'signedOut' });
      return;
    }
    const seq = ++this.checkSeq;
    this.store.setAccount({ kind: 'checking' });
    // POST /health first, as the official CLI does; a refusal stops here (cliSetup.ts). Unless it refused
    // this version last time, GET /me (and the cluster list) go out alongside it, one round trip sooner;
    // their answers count only if it does not refuse now.
    const health = this.cli?.health();
    const alongside = this.cli?.mayAskAlongside() !== false ? this.askMe(seq) : undefined;
    alongside?.catch(() => undefined); // read below, or not wanted after a refusal
    const refused = await health;
    if (seq !== this.checkSeq) return;
    if (refused !== undefined) {
      this.store.setAccount({ kind: 'outdated', message: refused });
      await alongside?.catch(() => undefined); // its answer signs nobody in
      return;
    }
    try {
      const me = await (alongside ?? this.askMe(seq));
      if (seq !== this.checkSeq) return;
      this.store.setAccount({ kind: 'signedIn', label: accountLabel(me), id: accountId(me) });
      this.log.info('Token accepted by GET /me.');
      void this.loadOrganization(seq);
    } catch (e) {
      if (seq !== this.checkSeq) return;
      const state = stateForError(e);
      this.log.warn(`Account check failed: ${state.kind}: ${'message' in state ? state.message : ''}`);
      this.store.setAccount(state);
    }
  }

  /** GET /me for check number `seq` (the cluster list goes out alongside when the view shows). */
  private async askMe(seq: number): Promise<Record<string, unknown>> {
    const client = await this.api.client();
    for (const l of [...this.checkListeners]) l(() => seq === this.checkSeq);
    return client.me();
  }

  /** Organisation name and balance for the status-bar tooltip; optional, failures are only logged. */
  private async loadOrganization(seq: number): Promise<void> {
    try {
      const org = await (await this.api.client()).organizationInfo();
      const current = this.store.account;
      if (seq !== this.checkSeq || current.kind !== 'signedIn') return;
      const balance =
        typeof org.balance === 'number'
          ? org.balance
          : org.balance != null && !Number.isNaN(Number(org.balance))
            ? Number(org.balance)
            : undefined;
      const summary: OrgSummary = { name: org.org_name ?? undefined, balance, members: org.members?.length };
      this.store.setAccount({ ...current, org: summary });
    } catch (e) {
      this.log.info(`Organisation info unavailable: ${errorMessage(e)}`);
    }
  }

  /**
   * Sign in. With `{ token }` (automation, tests) no UI is shown; otherwise a password input box that
   * keeps what was typed when the check fails (onUse/signIn.ts, loaded on the first sign-in).
   */
  async signIn(arg?: { token?: string }): Promise<SignInResult> {
    return this.onUse().signIn(this, this.store, arg);
  }

  /** Check a candidate token with GET /me; store it only when the server accepts it. */
  async tryToken(token: string): Promise<TokenRefusal> {
    this.ownWrites++;
    try {
      return await this.tryTokenInner(token);
    } finally {
      this.ownWrites--;
    }
  }

  private async tryTokenInner(token: string): Promise<TokenRefusal> {
    let me: Record<string, unknown>;
    try {
      const client = await this.api.clientFor(token);
      this.registry.add(token);
      me = await client.me();
    } catch (e) {
      if (token !== this.token) this.registry.delete(token);
      return stateForError(e);
    }
    this.checkSeq++;
    this.setToken(token);
    await this.secretStorage.store(TOKEN_KEY, token);
    this.store.setAccount({ kind: 'signedIn', label: accountLabel(me), id: accountId(me) });
    this.log.info('Signed in; token stored in SecretStorage.');
    void this.loadOrganization(this.checkSeq);
    return undefined;
  }

  async signOut(): Promise<void> {
    this.checkSeq++;
    this.ownWrites++;
    try {
      await this.secretStorage.delete(TOKEN_KEY);
    } finally {
      this.ownWrites--;
    }
    this.setToken(undefined);
    this.store.setAccount({ kind: 'signedOut' });
    this.log.info('Signed out; token removed from SecretStorage.');
  }

  /**
   * Any 401 from a call made with the stored token: the token was revoked or expired. Flip the state
   * and prompt once (not once per failed request).
   */
  handleUnauthorized = (): void => {
    if (!this.token) return;
    const current = this.store.account;
    if (current.kind !== 'rejected') {
      this.checkSeq++;
      this.store.setAccount({
        kind: 'rejected',
        message: vscode.l10n.t('The TensorPool API no longer accepts the stored token.'),
      });
    }
    if (this.rejectionPrompted) return;
    this.rejectionPrompted = true;
    withSignIn(
      notices.showWarningMessage,
      vscode.l10n.t(
        'TensorPool rejected your API token (it may have been revoked). Sign in again to continue.',
      ),
    );
  };

  private async useOfferedToken(token: string, source: string): Promise<void> {
    return this.onUse().useOfferedToken(this, this.store, token, source);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** A notification with a Sign In button that starts signing in. */
export function withSignIn(show: typeof notices.showErrorMessage, message: string): void {
  void show(message, vscode.l10n.t('Sign In')).then((pick) => {
    if (pick) void vscode.commands.executeCommand(Commands.signIn);
  });
}
