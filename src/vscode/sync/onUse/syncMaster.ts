/**
 * The ssh connection a folder sync owns (model/sshShared.ts): an OpenSSH master started with the sync's
 * first transfer, its socket in a private (0700) temporary folder, reused by every rsync of the sync, so a
 * batch's check and send pay no ssh handshake each. Ended with the sync (stop, the cluster gone, sign-out,
 * the window closing); when it ends on its own, the next transfer starts another, and until it is up the
 * rsyncs connect on their own. Not on Windows (its OpenSSH has no connection sharing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { childEnv } from '../../../model/childEnv';
import { masterArgv, sharedSsh } from '../../../model/sshShared';
import type { TransferNode } from '../../../model/transferCommand';
import { endGroup } from '../../shared/onUse/commandProcess';

export class SshMaster {
  private child: ChildProcess | undefined;
  private dir: string | undefined;
  private ended = false;

  constructor(
    private readonly node: TransferNode,
    private readonly env: () => Readonly<Record<string, string | undefined>>,
  ) {}

  /** The node with its ssh through the master (the master started when it is not running). */
  through(): TransferNode {
    if (this.ended || process.platform === 'win32') return this.node;
    try {
      this.dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'tp-sync-'));
    } catch {
      return this.node;
    }
    const socket = path.join(this.dir, 'ssh');
    if (!this.child) this.start(socket);
    return { ...this.node, ssh: sharedSsh(this.node.ssh, socket) };
  }

  private start(socket: string): void {
    const argv = masterArgv(this.node.ssh, socket, this.node.user, this.node.host);
    const child = spawn(argv[0], argv.slice(1), {
      env: childEnv(this.env(), process.platform, 'ssh'),
      detached: true,
      shell: false,
      stdio: 'ignore',
    });
    this.child = child;
    const gone = () => {
      if (this.child === child) this.child = undefined; // the next transfer starts another
    };
    child.on('error', gone);
    child.on('close', gone);
  }

  /** End the master (its rsyncs are ended by the sync) and remove its folder. */
  dispose(): void {
    this.ended = true;
    const child = this.child;
    this.child = undefined;
    const dir = this.dir;
    const remove = () => {
      if (dir) fs.rm(dir, { recursive: true, force: true }, () => undefined);
    };
    if (child && child.exitCode === null && child.signalCode === null) {
      child.once('close', remove);
      endGroup(child);
    } else remove();
  }
}
