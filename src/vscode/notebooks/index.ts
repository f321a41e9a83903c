// The entry file of notebooks on nodes: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { setupNotebooks } from './notebookSetup';
