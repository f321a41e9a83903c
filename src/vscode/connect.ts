/**
 * Connect: from a running cluster's node to a VS Code window on it (Remote-SSH) or an SSH terminal,
 * in one click. Host entries go to a file of our own (~/.ssh/tensorpool/config, included from
 * ~/.ssh/config after asking once) or to a marked block in ~/.ssh/config (setting); nothing else in
 * the user's ssh config is touched, and the hosts of destroyed clusters are removed.
 */
import { errorMessage } from '../api/errors';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  addIncludeLine,
  editBlockFile,
  editOwnHostsFile,
  readIncludeState,
  sshPaths,
  INCLUDE_LINE,
  type SshPaths,
} from '../config/sshConfig';
import { hostAlias, type HostsEdit, type SshHost } from '../config/sshHosts';
import { clusterLabel, clusterPhase, type Cluster, type Instance } from '../model/cluster';
import type { LocalKey } from '../wizards/createCluster';
import type { Prompter } from '../wizards/prompter';
import type { ApiService } from './apiService';
import type { Log } from './log';
import { Commands } from './commands';
import { ClusterFinder } from './pickCluster';
import type { Store } from './store';
import type { ClusterNode } from './views/clustersTree';

export const REMOTE_SSH_ID = 'ms-vscode-remote.remote-ssh';
const IDENTITY_KEY = 'tensorpool.identityFiles';
const FOLDER_KEY = 'tensorpool.remoteFolders';
const INCLUDE_DECISION_KEY = 'tensorpool.sshIncludeDecision';

type IncludeDecision = 'added' | 'declined';

export interface ConnectTarget {
  readonly cluster: Cluster;
  readonly instance: Instance;
  /** 1-based node number. */
  readonly node: number;
}

/** Split a command line into argv (no shell is involved, so nothing in it is interpreted). */
export function splitCommand(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  let has = false;
  for (const ch of command.trim()) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) {
        out.push(cur);
        cur = '';
        has = false;
      }
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

function settings() {
  const c = vscode.workspace.getConfiguration('tensorpool');
  return {
    user: c.get<string>('sshUser', 'ubuntu') || 'ubuntu',
    port: c.get<number>('sshPort', 22) || 22,
    mode: c.get<string>('sshConfigMode', 'include') === 'block' ? ('block' as const) : ('include' as const),
  };
}

function homeFolder(user: string): string {
  return user === 'root' ? '/root' : `/home/${user}`;
}

export class ConnectController {
  /** Opens a URI in a new window; replaceable because a test cannot open a second window. */
  opener: (uri: vscode.Uri) => Thenable<unknown> = (uri) =>
    vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
  /** Whether Remote-SSH is installed; replaceable for tests (it cannot be installed offline). */
  hasRemoteSsh: () => boolean = () => vscode.extensions.getExtension(REMOTE_SSH_ID) !== undefined;
  /** Whose ~/.ssh is written; replaceable so tests work in a scratch folder. */
  home: () => string = () => os.homedir();

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly memento: vscode.Memento,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
  ) {}

  private paths(): SshPaths {
    return sshPaths(this.home());
  }

  // ---- which node -------------------------------------------------------------------------------

  private async target(arg: unknown): Promise<ConnectTarget | undefined> {
    const node = arg as ClusterNode | undefined;
    if (node && typeof node === 'object' && node.kind === 'instance')
      return { cluster: node.cluster, instance: node.instance, node: node.index + 1 };
    const finder = new ClusterFinder(this.store, this.api, this.log, this.prompts, () =>
      vscode.commands.executeCommand(Commands.refresh),
    );
    let chosen: Cluster | undefined;
    if (node && typeof node === 'object' && node.kind === 'cluster') chosen = node.cluster;
    else if (typeof arg === 'string' && arg.trim()) chosen = await finder.byId(arg.trim());
    else
      chosen = await finder.pick({
        title: 'Connect to a Cluster',
        filter: (c) => clusterPhase(c.status) === 'running',
        filterWhy: 'No cluster is running.',
      });
    if (!chosen) return undefined;
    const cluster = await finder.withInstances(chosen);
    if (!cluster) {
      finder.noNodes(chosen);
      return undefined;
    }
    if (cluster.instances.length <= 1) {
      const instance = cluster.instances[0];
      if (!instance) {
        void vscode.window.showInformationMessage(`${clusterLabel(cluster)} has no nodes yet.`);
        return undefined;
      }
      return { cluster, instance, node: 1 };
    }
    const picked = await this.prompts().pick<number>({
      title: `Connect to ${clusterLabel(cluster)}`,
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: 'Which node?',
      items: cluster.instances.map((i, n) => ({
        label: `Node ${n + 1}`,
        description: [i.ip, i.status].filter(Boolean).join(' · '),
        detail: i.id,
        value: n,
      })),
    });
    if (picked.kind !== 'value') return undefined;
    return { cluster, instance: cluster.instances[picked.value], node: picked.value + 1 };
  }

  // ---- ssh config --------------------------------------------------------------------------------

  /** The host entries for every node of a cluster that has an address. */
  hostsFor(cluster: Cluster): SshHost[] {
    const s = settings();
    const identity = this.memento.get<Record<string, string>>(IDENTITY_KEY, {})[cluster.id];
    return cluster.instances.flatMap((i, n) =>
      i.ip
        ? [
            {
              alias: hostAlias(cluster.name ?? cluster.id, n + 1),
              hostName: i.ip,
              user: s.user,
              port: s.port,
              identityFile: identity,
              clusterId: cluster.id,
              clusterName: clusterLabel(cluster),
            },
          ]
        : [],
    );
  }

  /**
   * Write the cluster's host entries; returns the alias for the node, or undefined when the user
   * keeps ~/.ssh/config free of our Include line (then we connect by user@ip).
   */
  async ensureHosts(t: ConnectTarget): Promise<string | undefined> {
    const hosts = this.hostsFor(t.cluster);
    const mine = hosts.find((h) => h.hostName === t.instance.ip);
    if (!mine) return undefined;
    const paths = this.paths();
    const edit: HostsEdit = { kind: 'set', clusterId: t.cluster.id, hosts };
    const mode = settings().mode;
    if (mode === 'block') {
      await editBlockFile(paths, edit, { home: this.home() });
      this.log.info(
        `Wrote ${hosts.length} host(s) for ${t.cluster.id} to the TensorPool block in ${paths.userConfig}.`,
      );
      return mine.alias;
    }
    await editOwnHostsFile(paths, edit, { home: this.home() });
    this.log.info(`Wrote ${hosts.length} host(s) for ${t.cluster.id} to ${paths.hostsFile}.`);
    const state = await readIncludeState(paths, this.home());
    if (state === 'global') return mine.alias;
    const decision = this.memento.get<IncludeDecision>(INCLUDE_DECISION_KEY);
    if (decision === 'declined') return undefined;
    const add = 'Add Include Line';
    const block = 'Use a Block in ~/.ssh/config';
    const pick = await this.prompts().confirm({
      message: `Add "${INCLUDE_LINE}" at the top of ~/.ssh/config?`,
      detail:
        `TensorPool keeps its SSH hosts in ${paths.hostsFile}. One Include line at the top of ~/.ssh/config lets ssh and Remote-SSH find them; nothing else in ~/.ssh/config is changed. You are asked once.` +
        (state === 'scoped'
          ? ' (There is an Include of our file below a Host or Match line, where it only applies to some hosts.)'
          : ''),
      actions: [add, block, 'Not Now'],
      modal: true,
    });
    if (pick === add) {
      await addIncludeLine(paths, this.home());
      await this.memento.update(INCLUDE_DECISION_KEY, 'added');
      return mine.alias;
    }
    if (pick === block) {
      await vscode.workspace
        .getConfiguration('tensorpool')
        .update('sshConfigMode', 'block', vscode.ConfigurationTarget.Global);
      await editOwnHostsFile(paths, { kind: 'remove', clusterId: t.cluster.id }, { home: this.home() });
      await editBlockFile(paths, edit, { home: this.home() });
      return mine.alias;
    }
    if (pick === 'Not Now') await this.memento.update(INCLUDE_DECISION_KEY, 'declined');
    return undefined;
  }

  /** Remove a destroyed cluster's hosts (own file and block, whichever holds them). */
  async removeHosts(clusterId: string): Promise<void> {
    const paths = this.paths();
    for (const edit of [editOwnHostsFile, editBlockFile]) {
      try {
        await edit(paths, { kind: 'remove', clusterId }, { home: this.home() });
      } catch (e) {
        this.log.warn(`Could not remove the SSH hosts of ${clusterId}: ${errorMessage(e)}`);
      }
    }
  }

  /**
   * In a Remote-SSH window on one of our hosts, remember its folder so the next "Open in New Window"
   * for that node opens it again. The extension runs on the UI side (extensionKind), so this is the
   * user's own machine and global state.
   */
  recordRemoteFolder(): void {
    if (vscode.env.remoteName !== 'ssh-remote') return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const host = folder?.authority.startsWith('ssh-remote+tp-')
      ? folder.authority.slice('ssh-remote+'.length)
      : undefined;
    if (!folder || !host) return;
    const all = this.memento.get<Record<string, string>>(FOLDER_KEY, {});
    if (all[host] !== folder.path) void this.memento.update(FOLDER_KEY, { ...all, [host]: folder.path });
  }

  rememberIdentity(clusterId: string, publicKeyPath: string): Thenable<void> {
    const all = { ...this.memento.get<Record<string, string>>(IDENTITY_KEY, {}) };
    all[clusterId] = publicKeyPath.replace(/\.pub$/, '');
    return this.memento.update(IDENTITY_KEY, all);
  }

  // ---- commands ----------------------------------------------------------------------------------

  async openRemote(arg?: unknown): Promise<vscode.Uri | undefined> {
    const t = await this.target(arg);
    if (!t) return undefined;
    if (!t.instance.ip) {
      void vscode.window.showInformationMessage(
        `Node ${t.node} of ${clusterLabel(t.cluster)} has no address yet; wait until it is running.`,
      );
      return undefined;
    }
    if (!this.hasRemoteSsh()) {
      const install = 'Install Remote-SSH';
      const terminal = 'Open SSH Terminal Instead';
      const pick = await this.prompts().confirm({
        message: 'Opening a VS Code window on the node needs the Remote - SSH extension.',
        detail: 'Install it from the Marketplace, or open an SSH terminal to the node instead.',
        actions: [install, terminal],
        modal: true,
      });
      if (pick === terminal) {
        await this.terminalFor(t);
        return undefined;
      }
      if (pick !== install) return undefined;
      await vscode.commands.executeCommand('workbench.extensions.installExtension', REMOTE_SSH_ID);
      if (!this.hasRemoteSsh()) return undefined;
    }
    let alias: string | undefined;
    try {
      alias = await this.ensureHosts(t);
    } catch (e) {
      const why = errorMessage(e);
      void vscode.window.showErrorMessage(`Did not change your SSH config: ${why}`);
      return undefined;
    }
    const s = settings();
    const host = alias ?? `${s.user}@${t.instance.ip}${s.port !== 22 ? `:${s.port}` : ''}`;
    const folder = this.memento.get<Record<string, string>>(FOLDER_KEY, {})[host] ?? homeFolder(s.user);
    const uri = vscode.Uri.from({ scheme: 'vscode-remote', authority: `ssh-remote+${host}`, path: folder });
    this.log.info(`Opening ${uri.toString()} in a new window.`);
    await this.opener(uri);
    return uri;
  }

  /** The ssh command for a node: the service's (GET /ssh/{instance}) when it answers, else built from the settings. */
  async sshCommand(t: ConnectTarget): Promise<string | undefined> {
    try {
      const system =
        process.platform === 'darwin' ? 'darwin' : process.platform === 'win32' ? 'windows' : 'linux';
      return (await (await this.api.client()).sshCommand(t.instance.id, system)).command;
    } catch (e) {
      this.log.info(`GET /ssh/${t.instance.id} unavailable (${errorMessage(e)}); building the command.`);
      if (!t.instance.ip) return undefined;
      const s = settings();
      const identity = this.memento.get<Record<string, string>>(IDENTITY_KEY, {})[t.cluster.id];
      return [
        'ssh',
        ...(s.port !== 22 ? ['-p', String(s.port)] : []),
        ...(identity ? ['-i', identity] : []),
        `${s.user}@${t.instance.ip}`,
      ].join(' ');
    }
  }

  async copySshCommand(arg?: unknown): Promise<string | undefined> {
    const t = await this.target(arg);
    if (!t) return undefined;
    const command = await this.sshCommand(t);
    if (!command) {
      void vscode.window.showInformationMessage(
        `Node ${t.node} of ${clusterLabel(t.cluster)} has no address yet; try again when it is running.`,
      );
      return undefined;
    }
    await vscode.env.clipboard.writeText(command);
    vscode.window.setStatusBarMessage(`$(check) Copied: ${command}`, 4000);
    return command;
  }

  async openTerminal(arg?: unknown): Promise<vscode.Terminal | undefined> {
    const t = await this.target(arg);
    return t ? this.terminalFor(t) : undefined;
  }

  private async terminalFor(t: ConnectTarget): Promise<vscode.Terminal | undefined> {
    const command = await this.sshCommand(t);
    if (!command) {
      void vscode.window.showInformationMessage(
        `Node ${t.node} of ${clusterLabel(t.cluster)} has no address yet.`,
      );
      return undefined;
    }
    const [shellPath, ...shellArgs] = splitCommand(command);
    const name = `TensorPool: ${clusterLabel(t.cluster)}${t.cluster.instances.length > 1 ? ` (node ${t.node})` : ''}`;
    const terminal = vscode.window.createTerminal({
      name,
      shellPath,
      shellArgs,
      iconPath: new vscode.ThemeIcon('server-environment'),
    });
    terminal.show();
    return terminal;
  }
}

/** ~/.ssh/*.pub, for the create wizard's key step. */
export async function readLocalKeys(dir = path.join(os.homedir(), '.ssh')): Promise<LocalKey[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const keys: LocalKey[] = [];
  for (const n of names.filter((x) => x.endsWith('.pub')).sort()) {
    try {
      const text = (await fs.readFile(path.join(dir, n), 'utf8')).trim();
      const [, , ...comment] = text.split(/\s+/);
      keys.push({ path: path.join(dir, n), key: text, comment: comment.join(' ') || undefined });
    } catch {
      /* unreadable: skip */
    }
  }
  return keys;
}

/** Generate ~/.ssh/tensorpool_ed25519 (or a free variant) with ssh-keygen; the private key never leaves the machine. */
export async function generateEd25519Key(dir = path.join(os.homedir(), '.ssh')): Promise<LocalKey> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  let file = path.join(dir, 'tensorpool_ed25519');
  for (
    let i = 2;
    await fs.stat(file).then(
      () => true,
      () => false,
    );
    i++
  )
    file = path.join(dir, `tensorpool_ed25519_${i}`);
  await new Promise<void>((resolve, reject) => {
    execFile(
      'ssh-keygen',
      ['-q', '-t', 'ed25519', '-N', '', '-C', `tensorpool-vscode@${os.hostname()}`, '-f', file],
      (err) => (err ? reject(new Error(err.message)) : resolve()),
    );
  });
  const key = (await fs.readFile(`${file}.pub`, 'utf8')).trim();
  return { path: `${file}.pub`, key, comment: key.split(/\s+/).slice(2).join(' ') || undefined };
}
