// The entry file of connecting to nodes: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { CONNECT_COMMANDS } from './connectCommands';
export { recordRemoteFolder } from './remoteFolder';
