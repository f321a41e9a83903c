// The entry file of the Jobs section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { JOBS_SECTION } from './jobsSetup';
