// The entry file of Sync Folder to Node: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { SyncStatus } from './syncStatus';
export type { RunningSync, SyncDisplay, SyncState } from './syncStatus';
export { SYNC_COMMANDS } from './syncCommands';
