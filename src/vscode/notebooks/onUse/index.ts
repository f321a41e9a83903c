// The entry file of notebooks for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { Notebooks } from './notebooks';
