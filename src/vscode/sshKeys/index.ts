// The entry file of the SSH Keys section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { LocalKeySource } from './sshKeys';
export { SSH_KEYS_SECTION } from './sshKeysSetup';
