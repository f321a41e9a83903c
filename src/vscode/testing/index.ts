// The entry file of the test API: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { TerminalTapRecord } from './terminalTap';
export { mark, markSpan, markWhen } from './timingMarks';
