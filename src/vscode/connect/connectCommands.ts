/** Connect's commands (a node over ssh or Remote-SSH), whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { ConnectController } from './onUse';

export const CONNECT_COMMANDS: readonly ActionCommand<{ connect: ConnectController }>[] = [
  [Commands.copySshCommand, (a, arg?: unknown) => a.connect.copySshCommand(arg)],
  [Commands.openInRemoteSsh, (a, arg?: unknown) => a.connect.openRemote(arg)],
  [Commands.openSshTerminal, (a, arg?: unknown) => a.connect.openTerminal(arg)],
];
