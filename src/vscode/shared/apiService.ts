/**
 * Builds the API client from the settings on first use (loading dist/api.js lazily) and rebuilds it
 * when the settings change. Everything network-bound in the VS Code layer goes through here.
 */
import * as vscode from 'vscode';
import type { TensorPoolClient } from '../../api/client';
import type { SecretRegistry } from '../../api/redact';
import { loadApi } from './lazyApi';
import type { Log } from './log';
import { readProxySettings, readSettings } from './settings';

export interface ApiServiceOptions {
  readonly extensionVersion: string;
  readonly secrets: SecretRegistry;
  readonly log: Log;
}

/** The signed-in account as the client sees it: its token, and what a 401 does (account.ts). */
export interface ApiAuth {
  readonly getToken: () => string | undefined;
  readonly handleUnauthorized: () => void;
}

export class ApiService {
  private cached: { key: string; client: TensorPoolClient } | undefined;
  /** Set while POST /health refuses this client (cliSetup.ts): every other request is refused here. */
  refusedBecause: string | undefined;

  private auth: ApiAuth | undefined;
  /** How long one attempt waits for an answer; undefined = the client's 30 s (tests shorten it). */
  private requestTimeoutMs: number | undefined;

  constructor(private readonly options: ApiServiceOptions) {}

  /** The test API's seam (testing.setRequestTimeout): the next client waits `ms` per attempt. */
  setRequestTimeout(ms: number | undefined): void {
    this.requestTimeoutMs = ms;
    this.reset();
  }

  /** The account whose token the client sends (set once, by the account feature's setup). */
  useAccount(auth: ApiAuth): void {
    this.auth = auth;
  }

  get userAgent(): string {
    return `tensorpool-vscode/${this.options.extensionVersion} (VS Code ${vscode.version}; ${process.platform})`;
  }

  /** The client for the signed-in token. Throws a ValidationError when tensorpool.apiUrl is unusable. */
  async client(purpose?: 'health'): Promise<TensorPoolClient> {
    this.throwIfRefused(purpose);
    const settings = readSettings();
    const key = `${settings.apiUrl}\n${settings.imageField}\n${JSON.stringify(readProxySettings())}`;
    if (this.cached?.key !== key) {
      this.cached = {
        key,
        client: await this.build(
          () => this.auth?.getToken(),
          () => this.auth?.handleUnauthorized(),
        ),
      };
    }
    return this.cached.client;
  }

  /** A one-off client for a token that is not stored yet (the sign-in check). No 401 hook. */
  async clientFor(token: string): Promise<TensorPoolClient> {
    this.throwIfRefused();
    return this.build(() => token, undefined);
  }

  /**
   * `client` for following a request's progress (GET /request/info polls): each poll first checks the
   * refusal, so a follower started before the service refused this version stops at its next poll
   * instead of polling a service that refused it.
   */
  follower(client: TensorPoolClient): Pick<TensorPoolClient, 'requestInfo'> {
    return {
      requestInfo: (requestId, opts) => {
        this.throwIfRefused();
        return client.requestInfo(requestId, opts);
      },
    };
  }

  private throwIfRefused(purpose?: 'health'): void {
    if (this.refusedBecause !== undefined && purpose !== 'health')
      throw new Error(
        vscode.l10n.t(
          'The TensorPool service refused this version of the extension: {0}',
          this.refusedBecause,
        ),
      );
  }

  /** Load the API layer on the next turn (after what is being sent now went out), without waiting. */
  preload(): void {
    setTimeout(() => void loadApi().catch(() => undefined)); // the first request reports any trouble
  }

  /** Forget the cached client (settings changed). */
  reset(): void {
    this.cached = undefined;
  }

  private async build(
    getToken: () => string | undefined,
    onUnauthorized: (() => void) | undefined,
  ): Promise<TensorPoolClient> {
    const api = await loadApi();
    const settings = readSettings();
    return new api.TensorPoolClient({
      baseUrl: settings.apiUrl,
      getToken,
      userAgent: this.userAgent,
      imageField: settings.imageField,
      secrets: this.options.secrets,
      log: this.options.log.write,
      logLevel: this.options.log.level,
      onUnauthorized,
      proxy: readProxySettings(),
      timeoutMs: this.requestTimeoutMs,
    });
  }
}
