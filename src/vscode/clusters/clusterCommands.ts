/** The Clusters section's commands whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { ClusterActions, CreateClusterAction } from './onUse';

export const CLUSTER_COMMANDS: readonly ActionCommand<{
  create: CreateClusterAction;
  clusters: ClusterActions;
}>[] = [
  [Commands.createCluster, (a) => a.create.create()],
  [Commands.editCluster, (a, arg?: unknown) => a.clusters.edit(arg)],
  [Commands.destroyCluster, (a, arg?: unknown) => a.clusters.destroy(arg)],
  [Commands.copyClusterId, (a, arg?: unknown) => a.clusters.copyId(arg)],
  [Commands.copyIp, (a, arg?: unknown) => a.clusters.copyIp(arg)],
];
