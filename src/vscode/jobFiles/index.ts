// The entry file of job files: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { jobFileKey, jobRunLenses } from './jobFileLenses';
export { setupJobFiles } from './jobFileSetup';
export type { JobFilesFeature } from './jobFileSetup';
