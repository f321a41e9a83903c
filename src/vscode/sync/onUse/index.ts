// The entry file of Sync Folder to Node for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { SyncActions } from './syncActions';
