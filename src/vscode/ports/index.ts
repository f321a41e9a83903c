// The entry file of ports forwarded from nodes: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { forwardItem } from './forwardRows';
export { PortForwards } from './portForwards';
export type { Forward } from './portForwards';
export { PORT_COMMANDS } from './portCommands';
