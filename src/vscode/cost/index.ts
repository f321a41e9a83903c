// The entry file of prices and burn rate: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { burnLines, showBurnInView } from './burnText';
export { ClusterPrices } from './clusterPrices';
