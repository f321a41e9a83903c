// The entry file of the Jobs section for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { JobActions } from './jobActions';
export { JobFollowers } from './jobFollowers';
export { JobMetrics } from './jobMetrics';
export { JobPull } from './jobPull';
export { JobRunner } from './jobRun';
export type { TerminalTap } from './jobTerminal';
export { MetricsPanels } from './metricsPanel';
export type { MetricsPanelHandle } from './metricsPanel';
