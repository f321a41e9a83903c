// The entry file of the Clusters section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { ClustersController } from './clusters';
export type { ClustersFeature } from './clustersSetup';
export type { ClusterNode } from './clustersTree';
export { CLUSTER_COMMANDS } from './clusterCommands';
export { setupClusters } from './clustersSetup';
