/**
 * Which node a Connect command is about: the tree node it was invoked on, a cluster id or name, or a
 * pick among the running clusters (then among its nodes when it has several).
 */
import * as vscode from 'vscode';
import { clusterLabel, clusterPhase, type Cluster, type Instance } from '../model/cluster';
import { clusterPickLabel } from '../model/labels';
import type { Prompter } from '../wizards/prompter';
import type { Store } from './store';
import type { ClusterNode } from './views/clustersTree';

export interface ConnectTarget {
  readonly cluster: Cluster;
  readonly instance: Instance;
  /** 1-based node number. */
  readonly node: number;
}

async function pickRunningCluster(store: Store, prompter: Prompter): Promise<Cluster | undefined> {
  const running = (store.clusters.data?.clusters ?? []).filter((c) => clusterPhase(c.status) === 'running');
  if (running.length === 0) {
    void vscode.window.showInformationMessage('No running cluster to connect to.');
    return undefined;
  }
  const picked = await prompter.pick<Cluster>({
    title: 'Connect to a Cluster',
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: 'Which cluster?',
    items: running.map((c) => ({ ...clusterPickLabel(c), value: c })),
  });
  return picked.kind === 'value' ? picked.value : undefined;
}

export async function resolveConnectTarget(
  arg: unknown,
  store: Store,
  prompts: () => Prompter,
): Promise<ConnectTarget | undefined> {
  const node = arg as ClusterNode | undefined;
  if (node && typeof node === 'object' && node.kind === 'instance')
    return { cluster: node.cluster, instance: node.instance, node: node.index + 1 };
  let cluster: Cluster | undefined;
  if (node && typeof node === 'object' && node.kind === 'cluster') cluster = node.cluster;
  else if (typeof arg === 'string')
    cluster = (store.clusters.data?.clusters ?? []).find((c) => c.id === arg || c.name === arg);
  else cluster = await pickRunningCluster(store, prompts());
  if (!cluster) return undefined;
  if (cluster.instances.length <= 1) {
    const instance = cluster.instances[0];
    if (!instance) {
      void vscode.window.showInformationMessage(`${clusterLabel(cluster)} has no nodes yet.`);
      return undefined;
    }
    return { cluster, instance, node: 1 };
  }
  const picked = await prompts().pick<number>({
    title: `Connect to ${clusterLabel(cluster)}`,
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: 'Which node?',
    items: cluster.instances.map((i, n) => ({
      label: `Node ${n + 1}`,
      description: [i.ip, i.status].filter(Boolean).join(' · '),
      detail: i.id,
      value: n,
    })),
  });
  if (picked.kind !== 'value') return undefined;
  return { cluster, instance: cluster.instances[picked.value], node: picked.value + 1 };
}
