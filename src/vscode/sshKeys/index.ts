// The entry file of the SSH Keys section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { LocalKeySource, SshKeysController } from './sshKeys';
export type { SshKeysFeature } from './sshKeysSetup';
export type { SshKeyNode } from './sshKeysTree';
export { SSH_KEY_COMMANDS } from './sshKeyCommands';
export { setupSshKeys } from './sshKeysSetup';
