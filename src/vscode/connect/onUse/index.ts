// The entry file of connecting to nodes for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { ConnectController } from './connect';
export { loginArgv, nodeLogin } from './connectLogin';
export { resolveConnectTarget } from './connectTarget';
export type { ConnectTarget } from './connectTarget';
export { SshFailures } from './sshFailures';
export { transferNodes } from './transferNodes';
