// Helpers for the host tests: the two trees as VS Code renders them, waiting, the engine's control
// surface (reused from the integration suite) and a few engine calls of our own.
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import type { ClusterNode } from '../../../src/vscode/clusters/clustersTree';
import type { StorageNode } from '../../../src/vscode/objectStorage/objectStorageTree';
import { control, engine, resolvedTooltip } from '../../integration/helpers';

export { accountIs, api, setApiUrl, signIn, sleep } from '../../integration/control';
export { control } from '../../integration/helpers';
export { engine } from '../../integration/helpers';
export { until } from '../../shared/wait';

export interface Row<N> {
  node: N;
  item: vscode.TreeItem;
  label: string;
  description: string;
  /** The tooltip as shown on hover (resolved), as text. */
  tooltip: string;
}

function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** A tree's rows as VS Code renders them: item, label, description and the tooltip shown on hover. */
async function rowsOf<N>(
  provider: vscode.TreeDataProvider<N>,
  parent: N | undefined,
): Promise<Array<Row<N>>> {
  const nodes = (await provider.getChildren(parent)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = await provider.getTreeItem(node);
      return {
        node,
        item,
        label: labelOf(item),
        description: String(item.description ?? ''),
        tooltip: await resolvedTooltip(provider, node),
      };
    }),
  );
}

export function clusterRows(
  ext: TensorPoolExtensionApi,
  parent?: ClusterNode,
): Promise<Array<Row<ClusterNode>>> {
  return rowsOf(ext.views.clusters, parent);
}

export function storageRows(
  ext: TensorPoolExtensionApi,
  parent?: StorageNode,
): Promise<Array<Row<StorageNode>>> {
  return rowsOf(ext.views.objectStorage, parent);
}

/** Running clusters for the test token, made directly in the engine (not logged). */
export function seedClusters(n: number, prefix = 'bulk'): Promise<unknown> {
  return control.seed({ clusters: n, prefix });
}

/** The User-Agent of the suite's own calls to the engine's API (so they can be told from the extension's). */
export const SUITE_AGENT = 'tensorpool-reliability-suite';

/** Call the engine's API directly with the test token (logged like the extension's calls, under SUITE_AGENT). */
export async function engineApi<T = unknown>(
  method: string,
  apiPath: string,
): Promise<{ status: number; body: T }> {
  const res = await fetch(engine.url + apiPath, {
    method,
    headers: { authorization: `Bearer ${engine.token}`, 'user-agent': SUITE_AGENT },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The cluster tree shows what the engine holds: the names of the cluster rows. */
export async function treeClusterNames(ext: TensorPoolExtensionApi): Promise<string[]> {
  return (await clusterRows(ext))
    .filter((r) => r.node.kind === 'cluster')
    .map((r) => r.label)
    .sort();
}

/** Hide the TensorPool views, so no automatic refresh adds calls while a test counts them. */
export async function hideViews(): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.explorer');
}

export async function showViews(): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
}
