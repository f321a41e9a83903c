/** The commands on ports forwarded from nodes, whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { PortActions, PortApps } from './onUse';

export const PORT_COMMANDS: readonly ActionCommand<{ ports: PortActions; portApps: PortApps }>[] = [
  [Commands.forwardPort, (a, arg?: unknown, port?: string) => a.ports.forwardPort(arg, port)],
  [Commands.openForwardedPort, (a, arg?: unknown) => a.ports.open(arg)],
  [Commands.stopForwarding, (a, arg?: unknown) => a.ports.stop(arg)],
  [Commands.reconnectForward, (a, arg?: unknown) => a.ports.reconnect(arg)],
  [Commands.openTensorBoard, (a, arg?: unknown) => a.portApps.openTensorBoard(arg)],
  [Commands.openJupyter, (a, arg?: unknown) => a.portApps.openJupyter(arg)],
];
