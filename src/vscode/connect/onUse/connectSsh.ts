/**
 * Which ssh Open SSH Terminal runs and Copy SSH Command copies. Where the node's address is known, the
 * extension's own (connectLogin.ts): the node's port and user (from the cluster's records, else from the
 * service's command once sshCommandPolicy.ts accepted it, else the settings), the key it knows and its own
 * known_hosts, the same login as the ssh config entry. The service's command (GET /ssh) is code execution
 * on this machine, so it runs as sent only when nothing else gives an address and the policy accepts it
 * (plain ssh, allow-listed options, the node as destination); a refused one is never run, and the user is
 * told why the built one is used instead. With no address to build from, a refused text is shown in full
 * and asked about as a job's local commands are (localCommands.ts): a modal dialog, never run in an
 * untrusted workspace, never when it spans lines or cannot be shown faithfully; if the user agrees it runs
 * as one program with those arguments, without a shell, so it does no more than the text shows. An
 * accepted command with no address to check its host against is asked about too, naming the host, and
 * runs with the extension's own host key checking placed first (sshOptions.ts enforcedSshOptions).
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { clusterLabel } from '../../../model/cluster';
import { isSshHost, isSshPort, isSshUser } from '../../../model/sshAddress';
import { formatCommand, splitCommand, sshLoginOf } from '../../../model/sshCommand';
import { checkSshCommand, type SshRefusal } from '../../../model/sshCommandPolicy';
import { enforcedSshOptions } from '../../../model/sshOptions';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import type { ConnectTarget } from './connectTarget';
import type { HostSeams } from '../../shared/hostSeams';
import type { Log } from '../../shared/log';
import { loginArgv, nodeLogin } from './connectLogin';
import { configWriters } from '../../shared/lazyConfig';
import type { StoredState } from '../../shared/storedState';
import { notices } from '../../shared/notices';

export type SshChoice =
  /** Run (or copy) this argv. `built`: the extension made it; `checked`: false only when the user agreed
   *  to run a command the policy refused. */
  | {
      readonly kind: 'run';
      readonly argv: readonly string[];
      readonly text: string;
      readonly built: boolean;
      readonly checked: boolean;
    }
  /** The user chose to copy the service's refused text (shown in full first). */
  | { readonly kind: 'copy'; readonly text: string }
  /** Nothing to run: no address (`noAddress`, the caller says so), or refused and already told/asked. */
  | { readonly kind: 'none'; readonly noAddress: boolean };

export type SshPurpose = 'terminal' | 'copy';

/** Up to 300 characters of the service's text for the log, on one line. */
function preview(text: string): string {
  const head = JSON.stringify(text.slice(0, 300));
  return text.length > 300 ? `${head}… (${text.length} characters)` : head;
}

export class SshCommandChooser {
  constructor(
    private readonly api: ApiService,
    private readonly state: StoredState,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    private readonly host: HostSeams,
  ) {}

  async choose(t: ConnectTarget, purpose: SshPurpose): Promise<SshChoice> {
    // The cluster id reaches ssh's arguments (HostKeyAlias): one that is not a plain word stops here.
    let enforced: string[];
    try {
      const login = nodeLogin(t.cluster, t.instance, {}, this.host.home());
      enforced = enforcedSshOptions(login.knownHosts, login.keyAlias);
    } catch (e) {
      this.log.warn(`No ssh command for ${t.instance.id}: ${errorMessage(e)}`);
      void notices.showWarningMessage(
        vscode.l10n.t(
          'TensorPool cannot connect to node {0} of {1}: {2}',
          t.node,
          clusterLabel(t.cluster),
          errorMessage(e),
        ),
      );
      return { kind: 'none', noAddress: false };
    }
    let serviceText: string | undefined;
    try {
      const system =
        process.platform === 'darwin' ? 'darwin' : process.platform === 'win32' ? 'windows' : 'linux';
      serviceText = (await (await this.api.client()).sshCommand(t.instance.id, system)).command;
    } catch (e) {
      this.log.info(`GET /ssh/${t.instance.id} unavailable (${errorMessage(e)}); building the command.`);
    }
    if (serviceText === undefined)
      return (await this.ready(this.built(t))) ?? { kind: 'none', noAddress: true };
    const verdict = checkSshCommand(serviceText, { expectedHost: t.instance.ip, enforced });
    if (verdict.ok) {
      // Checked; still, where the node's address is known the extension's own ssh logs in: the same
      // node, port and user, with the key it knows and its own known_hosts (connectLogin.ts).
      const own = await this.ready(this.built(t, sshLoginOf(verdict.argv)));
      if (own) {
        this.log.info(
          `The service's ssh command for ${t.instance.id} was checked; TensorPool uses its own to the same node: ${own.text}.`,
        );
        return own;
      }
      const checked = {
        kind: 'run',
        argv: verdict.argv,
        text: formatCommand(verdict.argv),
        built: false,
        checked: true,
      } as const;
      // No address to hold the destination to: whatever host it names, the user decides.
      return purpose === 'copy' ? checked : this.askHost(t, checked, verdict.host);
    }
    const { refusal } = verdict;
    this.log.warn(
      `The ssh command the service sent for ${t.instance.id} was not used: ${refusal.reason}. It was ${preview(serviceText)}.`,
    );
    const built = await this.ready(this.built(t));
    if (built) {
      void notices.showWarningMessage(
        vscode.l10n.t(
          "TensorPool did not use the service's SSH command for node {0} of {1}: {2}. It uses {3}, built from the node's address, instead.",
          t.node,
          clusterLabel(t.cluster),
          refusal.reason,
          built.text,
        ),
      );
      return built;
    }
    return this.ask(t, serviceText, refusal, purpose);
  }

  /** ssh to the node's address with its port and user (connectLogin.ts), the key we know and our
   *  known_hosts; undefined without a usable address. */
  private built(
    t: ConnectTarget,
    fallback: { port?: number; user?: string } = {},
  ): (SshChoice & { kind: 'run' }) | undefined {
    const ip = t.instance.ip;
    if (!ip) return undefined;
    if (!isSshHost(ip)) {
      this.log.warn(`The address the service gave for ${t.instance.id}, ${preview(ip)}, is not a host name.`);
      return undefined;
    }
    const identities = this.state.get('tensorpool.identityFiles', {});
    const login = nodeLogin(t.cluster, t.instance, identities, this.host.home(), fallback);
    if (!isSshUser(login.user) || !isSshPort(login.port)) {
      this.log.warn(
        `The tensorpool.sshUser or tensorpool.sshPort setting is not valid; no ssh command built.`,
      );
      return undefined;
    }
    const argv = loginArgv(login, ip);
    return { kind: 'run', argv, text: formatCommand(argv), built: true, checked: true };
  }

  /** Our known_hosts exists before a built command runs (ssh records the node's key there). */
  private async ready<T>(choice: T | undefined): Promise<T | undefined> {
    if (choice === undefined) return undefined;
    try {
      await configWriters().ensureKnownHostsFile(configWriters().sshPaths(this.host.home()));
    } catch (e) {
      this.log.warn(`Could not create the TensorPool known_hosts file: ${errorMessage(e)}`);
    }
    return choice;
  }

  /** A checked command with no known address: show the host and the whole command, run it only if asked. */
  private async askHost(
    t: ConnectTarget,
    checked: SshChoice & { kind: 'run' },
    host: string,
  ): Promise<SshChoice> {
    const trusted = this.host.isTrusted();
    const run = vscode.l10n.t('Run in Terminal');
    const copy = vscode.l10n.t('Copy Command');
    const answer = await this.prompts().confirm({
      message: vscode.l10n.t(
        'The service did not give the address of node {0} of {1}; its SSH command connects to {2}',
        t.node,
        clusterLabel(t.cluster),
        host,
      ),
      detail: vscode.l10n.t(
        "TensorPool cannot check that {0} is the node. The whole command, with TensorPool's host key checking first:\n\n{1}\n\n{2}",
        host,
        checked.text,
        trusted
          ? vscode.l10n.t('Run in Terminal starts it as one program with these arguments, without a shell.')
          : vscode.l10n.t('Running it is off because this workspace is not trusted.'),
      ),
      actions: trusted ? [run, copy] : [copy],
      modal: true,
      severity: 'warning',
    });
    if (answer === run) {
      this.log.info(`Running the service's ssh command for ${t.instance.id} to ${host}: the user agreed.`);
      return checked;
    }
    if (answer === copy) return { kind: 'copy', text: checked.text };
    this.log.info(`The user chose not to run the service's ssh command for ${t.instance.id} to ${host}.`);
    return { kind: 'none', noAddress: false };
  }

  /** No address to build from: show the refused text in full and ask (see the module comment). */
  private async ask(
    t: ConnectTarget,
    text: string,
    refusal: SshRefusal,
    purpose: SshPurpose,
  ): Promise<SshChoice> {
    const node = clusterLabel(t.cluster);
    if (!refusal.showable) {
      void notices.showWarningMessage(
        vscode.l10n.t(
          "TensorPool did not use the service's SSH command for node {0} of {1}: {2}. The node has no address to connect to instead.",
          t.node,
          node,
          refusal.reason,
        ),
      );
      return { kind: 'none', noAddress: false };
    }
    const trusted = this.host.isTrusted();
    const oneLine = !/[\r\n]/.test(text.trim());
    const run = vscode.l10n.t('Run in Terminal');
    const copy = vscode.l10n.t('Copy Command');
    const canRun = purpose === 'terminal' && trusted && oneLine;
    const note =
      purpose === 'copy'
        ? ''
        : canRun
          ? vscode.l10n.t('Run in Terminal starts it as one program with these arguments, without a shell.')
          : !trusted
            ? vscode.l10n.t('Running it is off because this workspace is not trusted.')
            : vscode.l10n.t('A command of several lines is not run.');
    const answer = await this.prompts().confirm({
      message: vscode.l10n.t(
        "The service's SSH command for node {0} of {1} is not one TensorPool can check",
        t.node,
        node,
      ),
      detail: vscode.l10n.t(
        'It was not used because {0}, and the node has no address to build a plain ssh command from. The whole command:\n\n{1}\n\n{2}',
        refusal.reason,
        text.trim(),
        note,
      ),
      actions: canRun ? [run, copy] : [copy],
      modal: true,
      severity: 'warning',
    });
    if (answer === run) {
      this.log.info(
        `Running the unchecked ssh command the service sent for ${t.instance.id}: the user agreed.`,
      );
      const argv = splitCommand(text);
      return { kind: 'run', argv, text: text.trim(), built: false, checked: false };
    }
    if (answer === copy) return { kind: 'copy', text: text.trim() };
    this.log.info(`The user chose not to use the ssh command the service sent for ${t.instance.id}.`);
    return { kind: 'none', noAddress: false };
  }
}

/** The status bar line after a copy: it says when the extension built the command, or did not check it. */
export function copiedMessage(choice: Exclude<SshChoice, { kind: 'none' }>): string {
  if (choice.kind === 'copy')
    return vscode.l10n.t(
      "$(warning) Copied the service's SSH command, which TensorPool did not check: {0}",
      choice.text,
    );
  return choice.built
    ? vscode.l10n.t(
        "$(check) Copied the SSH command TensorPool built from the node's address: {0}",
        choice.text,
      )
    : vscode.l10n.t('$(check) Copied: {0}', choice.text);
}
