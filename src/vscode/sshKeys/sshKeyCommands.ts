/** The SSH Keys section's commands whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { SshKeyActions } from './onUse';

export const SSH_KEY_COMMANDS: readonly ActionCommand<{ sshKeys: SshKeyActions }>[] = [
  [Commands.addSshKey, (a) => a.sshKeys.add()],
  [Commands.removeSshKey, (a, arg?: unknown) => a.sshKeys.remove(arg)],
];
