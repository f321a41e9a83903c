/**
 * Which node a Connect command is about: the tree node it was invoked on, a cluster id or name, or a
 * pick among the running clusters (then among its nodes when it has several), found by ClusterFinder.
 */
import * as vscode from 'vscode';
import { clusterLabel, clusterPhase, type Cluster, type Instance } from '../../../model/cluster';
import type { Prompter } from '../../../wizards/prompter';
import type { ClusterFinder } from '../../clusters/onUse';
import type { ClusterNode } from '../../clusters';
import { notices } from '../../shared/notices';

export interface ConnectTarget {
  readonly cluster: Cluster;
  readonly instance: Instance;
  /** 1-based node number. */
  readonly node: number;
}

export async function resolveConnectTarget(
  arg: unknown,
  finder: ClusterFinder,
  prompts: () => Prompter,
  /** The cluster picker's title (default: Connect to a Cluster). */
  title?: string,
): Promise<ConnectTarget | undefined> {
  const node = arg as ClusterNode | undefined;
  if (node && typeof node === 'object' && node.kind === 'instance')
    return { cluster: node.cluster, instance: node.instance, node: node.index + 1 };
  let chosen: Cluster | undefined;
  if (node && typeof node === 'object' && node.kind === 'cluster') chosen = node.cluster;
  else if (typeof arg === 'string' && arg.trim()) chosen = await finder.byId(arg.trim());
  else
    chosen = await finder.pick({
      title: title ?? vscode.l10n.t('Connect to a Cluster'),
      filter: (c) => clusterPhase(c.status) === 'running',
      filterWhy: vscode.l10n.t('No cluster is running.'),
    });
  if (!chosen) return undefined;
  // The nodes: from the list, the text answer, the create answer, or GET /cluster/info (pickCluster.ts).
  const cluster = await finder.withInstances(chosen);
  if (!cluster) {
    finder.noNodes(chosen);
    return undefined;
  }
  if (cluster.instances.length <= 1) {
    const instance = cluster.instances[0];
    if (!instance) {
      void notices.showInformationMessage(vscode.l10n.t('{0} has no nodes yet.', clusterLabel(cluster)));
      return undefined;
    }
    return { cluster, instance, node: 1 };
  }
  const picked = await prompts().pick<number>({
    title: vscode.l10n.t('Connect to {0}', clusterLabel(cluster)),
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: vscode.l10n.t('Which node?'),
    items: cluster.instances.map((i, n) => ({
      label: vscode.l10n.t('Node {0}', n + 1),
      description: [i.ip, i.status].filter(Boolean).join(' · '),
      detail: i.id,
      value: n,
    })),
  });
  if (picked.kind !== 'value') return undefined;
  return { cluster, instance: cluster.instances[picked.value], node: picked.value + 1 };
}
