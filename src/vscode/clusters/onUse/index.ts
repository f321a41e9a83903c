// The entry file of the Clusters section for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { ClusterActions } from './clusterActions';
export type { ClusterCommandDeps } from './clusterActions';
export { CreateClusterAction } from './createClusterAction';
export { ClusterFinder, CreatedInstances } from './pickCluster';
export { CLUSTER_OP_MESSAGES } from './clusterOpMessages';
