// The entry file of ports forwarded from nodes for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { PortActions } from './portActions';
export { PortApps } from './portApps';
