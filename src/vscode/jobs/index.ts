// The entry file of the Jobs section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { JobsController } from './jobs';
export type { JobsFeature } from './jobsSetup';
export type { JobNode } from './jobsTree';
export { JOB_COMMANDS } from './jobCommands';
export { setupJobs } from './jobsSetup';
