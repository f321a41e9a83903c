// The entry file of the bucket browser: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { setupObjectBrowser } from './objectBrowserSetup';
export type { BrowseHooks } from './objectBrowserSetup';
export type { BrowseNode } from './onUse/bucketBrowser';
