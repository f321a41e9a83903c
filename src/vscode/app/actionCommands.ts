/**
 * The command tables of every feature (each feature's own `<feature>Commands.ts`, shared/commandTable.ts;
 * the list sections' come with their descriptors, features.ts), registered at activation against the
 * actions, which load on the first such command (lazyActions.ts).
 */
import type * as vscode from 'vscode';
import { CLUSTER_COMMANDS } from '../clusters';
import { CONNECT_COMMANDS } from '../connect';
import { GPU_COMMANDS } from '../gpu';
import { OBJECT_STORAGE_COMMANDS } from '../objectStorage';
import { PORT_COMMANDS } from '../ports';
import { Commands } from '../shared/commands';
import { registerActionCommands, type ActionCommand } from '../shared/commandTable';
import { SYNC_COMMANDS } from '../sync';
import { SECTION_COMMANDS } from './features';
import type { Actions } from './lazyActions';

/** The composition root's own: the operations every feature starts (onUse/actions.ts makes the follower). */
const APP_COMMANDS: readonly ActionCommand<Actions>[] = [
  [Commands.showOperations, (a) => a.follower.showOperations()],
];

export function registerFeatureCommands(actions: () => Promise<Actions>): vscode.Disposable[] {
  return registerActionCommands(
    actions,
    APP_COMMANDS,
    CLUSTER_COMMANDS,
    CONNECT_COMMANDS,
    PORT_COMMANDS,
    GPU_COMMANDS,
    OBJECT_STORAGE_COMMANDS,
    SYNC_COMMANDS,
    ...SECTION_COMMANDS,
  );
}
