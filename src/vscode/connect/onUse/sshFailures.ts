/**
 * When ssh cannot log in to a node, say why and what to do, never a raw ssh error alone: before a
 * terminal opens, whether ssh is installed at all (what to install, Windows included); after an SSH
 * terminal's ssh exits with 255 (ssh's own failure code), one quick `ssh -o BatchMode=yes … true` with
 * the same options reads the reason (bounded by ConnectTimeout and a hard timeout, so no ssh outlives
 * it) and the user is told: the host key changed under a live cluster (refused: the attack case), none
 * of the local keys was accepted (which keys the cluster accepts, and Add SSH Key), or the node does not
 * answer. Commands the service sent that the user ran unchecked are never run a second time.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { childEnv, SSH_OWN_CONNECTION } from '../../../model/childEnv';
import { clusterLabel } from '../../../model/cluster';
import { classifySshFailure, lastSshLine, missingProgramMessage } from '../../../model/sshFailure';
import type { ApiService } from '../../shared/apiService';
import { Commands } from '../../shared/commands';
import { nodeLogin } from './connectLogin';
import type { ConnectTarget } from './connectTarget';
import type { HostSeams } from '../../shared/hostSeams';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import type { StoredState } from '../../shared/storedState';
import { notices } from '../../shared/notices';

const CHECK_TIMEOUT_MS = 20_000;

/** The program's file when `name` (or a path) is on PATH in `env`; Windows tries PATHEXT too. */
function findProgram(name: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  const dirs = path.isAbsolute(name)
    ? ['']
    : (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs)
    for (const ext of exts) {
      const file = dir ? path.join(dir, name + ext) : name + ext;
      try {
        accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  return undefined;
}

export class SshFailures {
  constructor(
    private readonly api: ApiService,
    private readonly state: StoredState,
    private readonly log: Log,
    private readonly host: HostSeams,
  ) {}

  /** False (and the user told what to install) when `program` is not on this computer's PATH. */
  installed(program: string): boolean {
    if (findProgram(program, this.host.env())) return true;
    const message = missingProgramMessage(program, process.platform);
    this.log.warn(message);
    void notices.showErrorMessage(message);
    return false;
  }

  /** Explain the terminal's ssh failure once it exits with 255 (only for commands that were checked). */
  watch(terminal: vscode.Terminal, t: ConnectTarget, argv: readonly string[]): void {
    const sub = vscode.window.onDidCloseTerminal((closed) => {
      if (closed !== terminal) return;
      sub.dispose();
      if (closed.exitStatus?.code === 255) void this.explain(t, argv);
    });
  }

  /** Run the quick check and tell the user what it found; the kind found (undefined: it logged in). */
  async explain(t: ConnectTarget, argv: readonly string[]): Promise<string | undefined> {
    const stderr = await this.check(argv);
    if (stderr === undefined) return undefined;
    const kind = classifySshFailure(stderr);
    const node = clusterLabel(t.cluster);
    const why = lastSshLine(stderr);
    this.log.warn(`ssh to ${t.instance.id} failed (${kind}): ${why}`);
    if (kind === 'host-key-changed') {
      const login = nodeLogin(t.cluster, t.instance, {}, this.host.home());
      const file = configWriters().sshPaths(this.host.home()).knownHosts;
      const message = vscode.l10n.t(
        'ssh refused node {0} of {1}: its host key is not the one recorded when you first connected, and the cluster still exists. This is what an attack between you and the node looks like, so TensorPool does not connect. If TensorPool support confirms the node was rebuilt, remove the old key with: ssh-keygen -R {2} -f "{3}"',
        t.node,
        node,
        login.keyAlias,
        file,
      );
      this.log.warn(message);
      void notices.showErrorMessage(message, { modal: false });
      return kind;
    }
    if (kind === 'denied') {
      const message = vscode.l10n.t(
        'Node {0} of {1} accepted none of your SSH keys. It accepts the keys it was created with and the keys saved on TensorPool when it was created: {2}. Add one of your public keys with TensorPool: Add SSH Key (clusters created afterwards accept it), or create the cluster with your key.',
        t.node,
        node,
        await this.acceptedKeys(t),
      );
      this.log.warn(message);
      const add = vscode.l10n.t('Add SSH Key');
      void notices.showErrorMessage(message, add).then((p) => {
        if (p === add) void vscode.commands.executeCommand(Commands.addSshKey);
      });
      return kind;
    }
    const message =
      kind === 'unreachable'
        ? vscode.l10n.t(
            "Node {0} of {1} does not answer ({2}). The node's SSH server is down or not up yet: wait a minute and try again, and check the cluster's status.",
            t.node,
            node,
            why,
          )
        : vscode.l10n.t('ssh could not log in to node {0} of {1}: {2}', t.node, node, why);
    this.log.warn(message);
    void notices.showErrorMessage(message);
    return kind;
  }

  /** The keys the cluster accepts, as far as we know: the one it was created with and the saved ones. */
  private async acceptedKeys(t: ConnectTarget): Promise<string> {
    const names: string[] = [];
    const identity = this.state.get('tensorpool.identityFiles', {})[t.cluster.id];
    if (identity) names.push(vscode.l10n.t('{0} (chosen at create)', `${identity}.pub`));
    try {
      const listing = await (await this.api.client()).sshKeys({ includeOrg: true });
      for (const k of listing.keys ?? []) names.push(k.fingerprint ? `${k.name} (${k.fingerprint})` : k.name);
    } catch (e) {
      this.log.info(`The saved SSH keys could not be listed: ${errorMessage(e)}`);
    }
    return names.length ? names.join(', ') : vscode.l10n.t('none that TensorPool knows of');
  }

  /** ssh's stderr when the same login with BatchMode fails; undefined when it logs in. */
  private check(argv: readonly string[]): Promise<string | undefined> {
    const [program, ...rest] = argv;
    const dest = rest[rest.length - 1];
    const args = [...rest.slice(0, -1), '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=10'];
    args.push(...SSH_OWN_CONNECTION, dest, 'true');
    return new Promise((resolve) => {
      execFile(
        program,
        args,
        {
          timeout: CHECK_TIMEOUT_MS,
          killSignal: 'SIGKILL',
          cwd: this.host.home(),
          windowsHide: true,
          env: childEnv(process.env, process.platform, 'ssh'),
        },
        (err, _stdout, stderr) => resolve(err ? String(stderr || errorMessage(err)) : undefined),
      );
    });
  }
}
