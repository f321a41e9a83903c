/** Sync Folder to Node's commands, whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { SyncActions } from './onUse';

export const SYNC_COMMANDS: readonly ActionCommand<{ sync: SyncActions }>[] = [
  [Commands.syncFolderToNode, (a, arg?: unknown) => a.sync.syncFolder(arg)],
  [Commands.stopSync, (a) => a.sync.stop()],
  [Commands.toggleSyncWatch, (a) => a.sync.toggleWatch()],
  [Commands.syncMenu, (a) => a.sync.menu()],
  [Commands.resumeSync, (a) => a.sync.offerResume()],
  [Commands.pullFromNode, (a) => a.sync.pull()],
];
