/**
 * What a user of the official `tp` command line already has, picked up by the extension:
 *  - the base URL from TENSORPOOL_ENGINE (settings.ts effectiveApiUrl; logged here at each check),
 *  - a token in TENSORPOOL_KEY (or TENSORPOOL_API_KEY) in the environment, offered once,
 *  - else a token in a workspace folder's `.env` (TENSORPOOL_KEY= or TENSORPOOL_API_KEY=), offered once per
 *    file, read only after the user agrees, only in a trusted workspace (otherwise the user is told why),
 *    never written back,
 *  - POST /health with the background account check: a refusal is shown once, the status bar says
 *    so, and nothing else is requested until the check is run again (nor alongside that check, while the
 *    refused version is still this one).
 * What is there to offer is found here; the dialogs load only when there is (onUse/cliOffers.ts).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../api/errors';
import type { HealthVerdict } from '../../api/sshKeys';
import { tokenFromEnvironment } from '../../model/envToken';
import { validateApiToken } from '../../model/validate';
import type { Prompter } from '../../wizards/prompter';
import type { ApiService } from '../shared/apiService';
import type { HostSeams } from '../shared/hostSeams';
import type { Log } from '../shared/log';
import { effectiveApiUrl } from '../shared/settings';
import type { StoredState } from '../shared/storedState';
import type * as OnUse from './onUse';

/** The account's first-use part (dist/actions.js), handed in by the composition root. */
export type AccountOnUse = typeof OnUse;

export class CliSetup {
  /** The last refusal shown (one notification per message per window). */
  private refusalShown: string | undefined;
  /** The `.env` file last said to be unread because the workspace is not trusted. */
  private untrustedToldFor: string | undefined;

  constructor(
    private readonly api: ApiService,
    private readonly state: StoredState,
    private readonly log: Log,
    private readonly extensionVersion: string,
    /** Notifications go through the prompter, so tests can script and count them. */
    private readonly prompts: () => Prompter,
    /** Workspace Trust and the workspace folders (tests configure them). */
    private readonly host: HostSeams,
    private readonly onUse: () => AccountOnUse,
  ) {}

  private deps(): OnUse.OfferDeps {
    return { state: this.state, log: this.log, prompts: this.prompts };
  }

  /**
   * POST /health with this extension's version. Returns the refusal message when the service refuses
   * this client, otherwise undefined (also when the check itself could not be made: the account check
   * that follows reports network trouble as usual).
   */
  async health(): Promise<string | undefined> {
    const { url, source } = effectiveApiUrl();
    this.log.info(
      `Service: ${url} (${source === 'setting' ? 'from the tensorpool.apiUrl setting' : source === 'TENSORPOOL_ENGINE' ? 'from TENSORPOOL_ENGINE in the environment; the tensorpool.apiUrl setting is not set' : 'default'}).`,
    );
    this.api.refusedBecause = undefined;
    let verdict: HealthVerdict;
    try {
      const client = await this.api.client('health');
      verdict = await client.health({
        package_version: this.extensionVersion,
        uname: `${os.type()} ${os.release()} ${os.arch()}`,
      });
    } catch (e) {
      this.log.info(`Health check not answered: ${errorMessage(e)}`);
      return undefined;
    }
    this.api.refusedBecause = verdict.ok ? undefined : verdict.message;
    const refused = verdict.ok ? undefined : this.extensionVersion;
    if (this.state.get('tensorpool.refusedVersion') !== refused)
      void this.state.update('tensorpool.refusedVersion', refused);
    if (verdict.ok) return undefined;
    this.log.warn(`The service refused this client (HTTP ${verdict.status}): ${verdict.message}`);
    if (this.refusalShown !== verdict.message)
      this.onUse().showRefusal(this.deps(), this.extensionVersion, verdict.message);
    this.refusalShown = verdict.message;
    return verdict.message;
  }

  /** Whether the account check may ask for more alongside POST /health: it did not refuse this version last. */
  mayAskAlongside(): boolean {
    return this.state.get('tensorpool.refusedVersion') !== this.extensionVersion;
  }

  /** The official CLI reads TENSORPOOL_KEY (some tools TENSORPOOL_API_KEY); offer it once when nothing
   *  is stored. Without one, a workspace `.env` holding the token is offered. */
  async offerToken(useToken: OnUse.TokenUser): Promise<void> {
    const found = tokenFromEnvironment(process.env);
    if (!found?.name || !found.value || validateApiToken(found.value)) {
      await this.offerDotenvToken(useToken);
      return;
    }
    if (this.state.get('tensorpool.envTokenOffered')) return;
    await this.state.update('tensorpool.envTokenOffered', true);
    await this.onUse().offerEnvToken(found.name, found.value, useToken);
  }

  /**
   * Offer the token of a workspace folder's `.env`, like the official CLI reads `./.env`. Only the file's
   * existence is checked before the user agrees; each file is offered once.
   */
  private async offerDotenvToken(useToken: OnUse.TokenUser): Promise<void> {
    const offered = this.state.get('tensorpool.dotenvTokenOffered', []);
    let file: string | undefined;
    for (const folder of this.host.folders()) {
      const candidate = path.join(folder, '.env');
      if (offered.includes(candidate)) continue;
      if (await isFile(candidate)) {
        file = candidate;
        break;
      }
    }
    if (!file) return;
    if (!this.host.isTrusted()) {
      // Only its existence was checked. Said once per window; offered once the workspace is trusted.
      if (this.untrustedToldFor !== file) this.onUse().tellDotenvUntrusted(this.deps(), file);
      this.untrustedToldFor = file;
      return;
    }
    await this.onUse().offerDotenvFile(this.deps(), file, useToken);
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await vscode.workspace.fs.stat(vscode.Uri.file(p))).type === vscode.FileType.File;
  } catch {
    return false;
  }
}
