// The entry file of the test API: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { TerminalTapRecord } from './terminalTap';
export { enableTimingMarks, mark, markSpan, markWhen, timingMarks } from './timingMarks';
export { unlessProduction } from './testApi';
export type { ActivationTimings, TestApi } from './testApi';
