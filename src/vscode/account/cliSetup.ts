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
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../api/errors';
import { tokenFromEnvironment } from '../../model/envToken';
import { validateApiToken } from '../../model/validate';
import type { Prompter } from '../../wizards/prompter';
import type { ApiService } from '../shared/apiService';
import type { HostSeams } from '../shared/hostSeams';
import { configWriters } from '../shared/lazyConfig';
import type { Log } from '../shared/log';
import { effectiveApiUrl } from '../shared/settings';
import type { StoredState } from '../shared/storedState';
import { tellUntrusted } from '../shared/workspaceTrust';
import { notices } from '../shared/notices';

const EXTENSION_ID = 'tensorpool.tensorpool-vscode';

export interface TokenUser {
  /** Check the token and store it when accepted (the account controller's sign-in path). */
  (token: string, source: string): Promise<void>;
}

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
  ) {}

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
    try {
      const client = await this.api.client('health');
      const verdict = await client.health({
        package_version: this.extensionVersion,
        uname: `${os.type()} ${os.release()} ${os.arch()}`,
      });
      this.api.refusedBecause = verdict.ok ? undefined : verdict.message;
      const refused = verdict.ok ? undefined : this.extensionVersion;
      if (this.state.get('tensorpool.refusedVersion') !== refused)
        void this.state.update('tensorpool.refusedVersion', refused);
      if (verdict.ok) return undefined;
      this.log.warn(`The service refused this client (HTTP ${verdict.status}): ${verdict.message}`);
      this.showRefusal(verdict.message);
      return verdict.message;
    } catch (e) {
      this.log.info(`Health check not answered: ${errorMessage(e)}`);
      return undefined;
    }
  }

  /** Whether the account check may ask for more alongside POST /health: it did not refuse this version last. */
  mayAskAlongside(): boolean {
    return this.state.get('tensorpool.refusedVersion') !== this.extensionVersion;
  }

  private showRefusal(message: string): void {
    if (this.refusalShown === message) return;
    this.refusalShown = message;
    const update = vscode.l10n.t('Update Extension');
    const showLog = vscode.l10n.t('Show Log');
    void this.prompts()
      .confirm({
        message: vscode.l10n.t(
          'TensorPool refused this version of the extension ({0}): {1}',
          this.extensionVersion,
          message,
        ),
        detail: vscode.l10n.t('Update the TensorPool extension, then run "TensorPool: Retry Account Check".'),
        actions: [update, showLog],
        modal: false,
        severity: 'error',
      })
      .then(
        (pick) => {
          if (pick === update) void vscode.commands.executeCommand('extension.open', EXTENSION_ID);
          if (pick === showLog) this.log.channel.show();
        },
        () => undefined,
      );
  }

  /** The official CLI reads TENSORPOOL_KEY (some tools TENSORPOOL_API_KEY); offer it once when nothing
   *  is stored. Without one, a workspace `.env` holding the token is offered. */
  async offerToken(useToken: TokenUser): Promise<void> {
    const found = tokenFromEnvironment(process.env);
    const name = found?.name;
    const env = found?.value;
    if (!name || !env || validateApiToken(env)) {
      await this.offerDotenvToken(useToken);
      return;
    }
    if (this.state.get('tensorpool.envTokenOffered')) return;
    await this.state.update('tensorpool.envTokenOffered', true);
    const use = vscode.l10n.t('Use {0}', name);
    const pick = await notices.showInformationMessage(
      vscode.l10n.t(
        "{0} is set in your environment. Sign in to TensorPool with it? It will be checked and kept in VS Code's secret storage.",
        name,
      ),
      use,
      vscode.l10n.t('Not Now'),
    );
    if (pick === use) await useToken(env, name);
  }

  /**
   * Offer the token of a workspace folder's `.env`, like the official CLI reads `./.env`. Only the file's
   * existence is checked before the user agrees; each file is offered once. Returns whether an offer was
   * made.
   */
  async offerDotenvToken(useToken: TokenUser): Promise<boolean> {
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
    if (!file) return false;
    if (!this.host.isTrusted()) {
      // Only its existence was checked. Said once per window; offered once the workspace is trusted.
      if (this.untrustedToldFor !== file)
        tellUntrusted(
          this.prompts(),
          this.log,
          'dotenv',
          vscode.l10n.t('{0} was not read for an API token', file),
        );
      this.untrustedToldFor = file;
      return false;
    }
    await this.state.update('tensorpool.dotenvTokenOffered', [...offered, file].slice(-50));
    const read = vscode.l10n.t('Read .env');
    const pick = await this.prompts().confirm({
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
    if (pick !== read) return true;
    const found = await configWriters().readDotenvToken(file);
    if (!found) {
      void notices.showWarningMessage(
        vscode.l10n.t('No TENSORPOOL_KEY (or TENSORPOOL_API_KEY) line with a value in {0}.', file),
      );
      return true;
    }
    this.log.info(`Using the ${found.name} line of ${file}.`);
    await useToken(found.value, vscode.l10n.t('{0} from .env', found.name));
    return true;
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await vscode.workspace.fs.stat(vscode.Uri.file(p))).type === vscode.FileType.File;
  } catch {
    return false;
  }
}
