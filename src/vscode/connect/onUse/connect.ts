/**
 * Connect: from a running cluster's node to a VS Code window on it (Remote-SSH) or an SSH terminal,
 * in one click. Host entries go to a file of our own (~/.ssh/tensorpool/config, included from
 * ~/.ssh/config after asking once) or to a marked block in ~/.ssh/config (setting); nothing else in
 * the user's ssh config is touched, and the hosts of destroyed clusters are removed.
 */
import { errorMessage } from '../../../api/errors';
import * as vscode from 'vscode';
import type { SshPaths } from '../../../config/sshConfig';
import type { HostsEdit, SshHost } from '../../../config/sshHosts';
import { clusterLabel, type Cluster } from '../../../model/cluster';
import { isSshHost } from '../../../model/sshAddress';
import { privateKeyPath, remoteHomeFolder, remoteSshHost } from '../../../model/sshCommand';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import { forgetClusters, knownHostsRefFor, nodeLogin, removeClusterHosts, tildeHome } from './connectLogin';
import { copiedMessage, SshCommandChooser } from './connectSsh';
import { SshFailures } from './sshFailures';
import { resolveConnectTarget, type ConnectTarget } from './connectTarget';
import { REMOTE_SSH_ID, type HostSeams } from '../../shared/hostSeams';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import type { ClusterFinder } from '../../clusters/onUse';
import { readSshSettings as settings, useSshConfigBlock } from '../../shared/settings';
import type { StoredState } from '../../shared/storedState';
import { notices } from '../../shared/notices';

export type { ConnectTarget } from './connectTarget';

export class ConnectController {
  constructor(
    private readonly api: ApiService,
    private readonly state: StoredState,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    /** Home folder, window opener and the Remote-SSH check (tests configure them). */
    private readonly host: HostSeams,
    /** Which cluster and node a command is about (pickCluster.ts). */
    private readonly finder: ClusterFinder,
  ) {}

  private home(): string {
    return this.host.home();
  }

  private paths(): SshPaths {
    return configWriters().sshPaths(this.home());
  }

  private target(arg: unknown): Promise<ConnectTarget | undefined> {
    return resolveConnectTarget(arg, this.finder, this.prompts);
  }

  // ---- ssh config --------------------------------------------------------------------------------

  /** The host entries for every node of a cluster that has an address. */
  hostsFor(cluster: Cluster): SshHost[] {
    const identities = this.state.get('tensorpool.identityFiles', {});
    // An address that is not a host name never reaches the config (openRemote says why it does not connect).
    return cluster.instances.flatMap((i) => {
      if (!i.ip || !isSshHost(i.ip)) return [];
      const login = nodeLogin(cluster, i, identities, this.home());
      return [
        {
          alias: login.alias,
          hostName: i.ip,
          user: login.user,
          port: login.port,
          identityFile: login.identity,
          clusterId: cluster.id,
          clusterName: clusterLabel(cluster),
        },
      ];
    });
  }

  /** How the entries are written: `~` only for the real home, our known_hosts by that name. */
  private renderOptions(): { home: string | undefined; knownHosts: string } {
    return { home: tildeHome(this.home()), knownHosts: knownHostsRefFor(this.home()) };
  }

  /**
   * Write the cluster's host entries; returns the alias for the node, or undefined when the user
   * keeps ~/.ssh/config free of our Include line (then we connect by user@ip).
   */
  async ensureHosts(t: ConnectTarget): Promise<string | undefined> {
    const hosts = this.hostsFor(t.cluster);
    // By node, not by address: nodes may share one (the local engine's are all 127.0.0.1, ports differ).
    const index = t.cluster.instances.findIndex((i) => i.id === t.instance.id);
    const alias = configWriters().hostAlias(t.cluster.name ?? t.cluster.id, index + 1);
    const mine = index < 0 ? undefined : hosts.find((h) => h.alias === alias && h.hostName === t.instance.ip);
    if (!mine) return undefined;
    const paths = this.paths();
    const edit: HostsEdit = { kind: 'set', clusterId: t.cluster.id, hosts };
    const mode = settings().mode;
    if (mode === 'block') {
      await configWriters().editBlockFile(paths, edit, this.renderOptions());
      this.log.info(
        `Wrote ${hosts.length} host(s) for ${t.cluster.id} to the TensorPool block in ${paths.userConfig}.`,
      );
      return mine.alias;
    }
    await configWriters().editOwnHostsFile(paths, edit, this.renderOptions());
    this.log.info(`Wrote ${hosts.length} host(s) for ${t.cluster.id} to ${paths.hostsFile}.`);
    const state = await configWriters().readIncludeState(paths, this.home());
    if (state === 'global') return mine.alias;
    const decision = this.state.get('tensorpool.sshIncludeDecision');
    if (decision === 'declined') return undefined;
    const add = vscode.l10n.t('Add Include Line');
    const block = vscode.l10n.t('Use a Block in ~/.ssh/config');
    const notNow = vscode.l10n.t('Not Now');
    const pick = await this.prompts().confirm({
      message: vscode.l10n.t('Add "{0}" at the top of ~/.ssh/config?', configWriters().INCLUDE_LINE),
      detail:
        vscode.l10n.t(
          'TensorPool keeps its SSH hosts in {0}. One Include line at the top of ~/.ssh/config lets ssh and Remote-SSH find them; nothing else in ~/.ssh/config is changed. You are asked once.',
          paths.hostsFile,
        ) +
        (state === 'scoped'
          ? vscode.l10n.t(
              ' (There is an Include of our file below a Host or Match line, where it only applies to some hosts.)',
            )
          : ''),
      actions: [add, block, notNow],
      modal: true,
    });
    if (pick === add) {
      await configWriters().addIncludeLine(paths, this.home());
      this.log.info(`Added the Include line for ${paths.hostsFile} to ${paths.userConfig}.`);
      await this.state.update('tensorpool.sshIncludeDecision', 'added');
      return mine.alias;
    }
    if (pick === block) {
      await useSshConfigBlock();
      await configWriters().editOwnHostsFile(
        paths,
        { kind: 'remove', clusterId: t.cluster.id },
        this.renderOptions(),
      );
      await configWriters().editBlockFile(paths, edit, this.renderOptions());
      this.log.info(`Moved the hosts of ${t.cluster.id} to the TensorPool block in ${paths.userConfig}.`);
      return mine.alias;
    }
    if (pick === notNow) await this.state.update('tensorpool.sshIncludeDecision', 'declined');
    return undefined;
  }

  /** Remove a destroyed cluster's hosts and drop its nodes' host keys (connectLogin.ts). */
  removeHosts(clusterId: string): Promise<void> {
    return removeClusterHosts(this.paths(), clusterId, this.renderOptions(), this.log);
  }

  /** Clusters a complete list no longer has (destroyed elsewhere): see connectLogin.ts forgetClusters. */
  forgetClusters(clusterIds: readonly string[]): Promise<void> {
    return forgetClusters(this.paths(), clusterIds, this.renderOptions(), this.log, this.state);
  }

  rememberIdentity(clusterId: string, publicKeyPath: string): Thenable<void> {
    const all = { ...this.state.get('tensorpool.identityFiles', {}) };
    all[clusterId] = privateKeyPath(publicKeyPath);
    return this.state.update('tensorpool.identityFiles', all);
  }

  // ---- commands ----------------------------------------------------------------------------------

  async openRemote(arg?: unknown): Promise<vscode.Uri | undefined> {
    const t = await this.target(arg);
    if (!t) return undefined;
    if (!t.instance.ip) {
      void notices.showInformationMessage(
        vscode.l10n.t(
          'Node {0} of {1} has no address yet; wait until it is running.',
          t.node,
          clusterLabel(t.cluster),
        ),
      );
      return undefined;
    }
    if (!isSshHost(t.instance.ip)) {
      // The address becomes an ssh config entry and the Remote-SSH authority: nothing but a host name.
      this.log.warn(`The address the service gave for ${t.instance.id} is not a host name; not connecting.`);
      void notices.showErrorMessage(
        vscode.l10n.t(
          'The address the service gave for node {0} of {1}, {2}, is not an IP address or host name; TensorPool does not connect to it.',
          t.node,
          clusterLabel(t.cluster),
          JSON.stringify(t.instance.ip.slice(0, 100)),
        ),
      );
      return undefined;
    }
    if (!this.host.hasRemoteSsh()) {
      const install = vscode.l10n.t('Install Remote-SSH');
      const terminal = vscode.l10n.t('Open SSH Terminal Instead');
      const pick = await this.prompts().confirm({
        message: vscode.l10n.t('Opening a VS Code window on the node needs the Remote - SSH extension.'),
        detail: vscode.l10n.t(
          'Install it from the Marketplace, or open an SSH terminal to the node instead.',
        ),
        actions: [install, terminal],
        modal: true,
      });
      if (pick === terminal) {
        await this.terminalFor(t);
        return undefined;
      }
      if (pick !== install) return undefined;
      await vscode.commands.executeCommand('workbench.extensions.installExtension', REMOTE_SSH_ID);
      if (!this.host.hasRemoteSsh()) return undefined;
    }
    let alias: string | undefined;
    try {
      alias = await this.ensureHosts(t);
    } catch (e) {
      const why = errorMessage(e);
      void notices.showErrorMessage(vscode.l10n.t('Did not change your SSH config: {0}', why));
      return undefined;
    }
    const login = nodeLogin(
      t.cluster,
      t.instance,
      this.state.get('tensorpool.identityFiles', {}),
      this.home(),
    );
    const host = alias ?? remoteSshHost(login.user, t.instance.ip, login.port);
    const folder = this.state.get('tensorpool.remoteFolders', {})[host] ?? remoteHomeFolder(login.user);
    const uri = vscode.Uri.from({ scheme: 'vscode-remote', authority: `ssh-remote+${host}`, path: folder });
    this.log.info(`Opening ${uri.toString()} in a new window.`);
    await this.host.opener(uri);
    return uri;
  }

  private chooser(): SshCommandChooser {
    return new SshCommandChooser(this.api, this.state, this.log, this.prompts, this.host);
  }

  async copySshCommand(arg?: unknown): Promise<string | undefined> {
    const t = await this.target(arg);
    if (!t) return undefined;
    const choice = await this.chooser().choose(t, 'copy');
    if (choice.kind === 'none') {
      if (choice.noAddress)
        void notices.showInformationMessage(
          vscode.l10n.t(
            'Node {0} of {1} has no address yet; try again when it is running.',
            t.node,
            clusterLabel(t.cluster),
          ),
        );
      return undefined;
    }
    await vscode.env.clipboard.writeText(choice.text);
    vscode.window.setStatusBarMessage(copiedMessage(choice), 4000);
    return choice.text;
  }

  async openTerminal(arg?: unknown): Promise<vscode.Terminal | undefined> {
    const t = await this.target(arg);
    return t ? this.terminalFor(t) : undefined;
  }

  private async terminalFor(t: ConnectTarget): Promise<vscode.Terminal | undefined> {
    const choice = await this.chooser().choose(t, 'terminal');
    if (choice.kind === 'none') {
      if (choice.noAddress)
        void notices.showInformationMessage(
          vscode.l10n.t('Node {0} of {1} has no address yet.', t.node, clusterLabel(t.cluster)),
        );
      return undefined;
    }
    if (choice.kind === 'copy') {
      await vscode.env.clipboard.writeText(choice.text);
      vscode.window.setStatusBarMessage(copiedMessage(choice), 4000);
      return undefined;
    }
    const [shellPath, ...shellArgs] = choice.argv;
    const failures = new SshFailures(this.api, this.state, this.log, this.host);
    if (!failures.installed(shellPath)) return undefined;
    const name =
      t.cluster.instances.length > 1
        ? vscode.l10n.t('TensorPool: {0} (node {1})', clusterLabel(t.cluster), t.node)
        : vscode.l10n.t('TensorPool: {0}', clusterLabel(t.cluster));
    this.log.info(
      `Opening an SSH terminal to ${t.instance.id}: ${choice.text} (${choice.built ? 'built by the extension' : "the service's command"}).`,
    );
    // Started in the home folder, not the workspace: a bare `ssh` is never looked up in a folder the
    // workspace brought.
    const terminal = vscode.window.createTerminal({
      name,
      shellPath,
      shellArgs,
      cwd: this.home(),
      iconPath: new vscode.ThemeIcon('server-environment'),
    });
    if (choice.checked) failures.watch(terminal, t, choice.argv);
    terminal.show();
    return terminal;
  }
}
