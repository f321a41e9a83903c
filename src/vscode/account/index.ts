// The entry file of the account: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { AccountController } from './account';
export type { AccountFeature } from './accountSetup';
export type { AccountOnUse, CliSetup } from './cliSetup';
export { AccountStatusBar } from './statusBar';
export { setupAccount } from './accountSetup';
