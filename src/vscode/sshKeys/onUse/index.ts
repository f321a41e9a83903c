// The entry file of the SSH Keys section for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { SshKeyActions } from './sshKeyActions';
