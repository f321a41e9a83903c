// The entry file of the bucket browser for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { BrowseNode } from './bucketBrowser';
