/**
 * A forwarded port's row (the Clusters tree lists it under its node, portForwards.ts): the local address,
 * the node's port and what serves there, its state; Open in Browser and Stop Forwarding are on the row.
 */
import * as vscode from 'vscode';
import type { Forward } from './portForwards';

export function forwardItem(f: Forward): vscode.TreeItem {
  // The local address as model/portForward.ts's localUrl writes it (not imported: it stays out of activation).
  const url = `http://127.0.0.1:${f.local}/`;
  const item = new vscode.TreeItem(url, vscode.TreeItemCollapsibleState.None);
  const what = f.label
    ? vscode.l10n.t('{0} on port {1}', f.label, f.remote)
    : vscode.l10n.t('port {0}', f.remote);
  item.description =
    f.state === 'up'
      ? what
      : f.state === 'starting'
        ? vscode.l10n.t('{0} · connecting…', what)
        : vscode.l10n.t('{0} · dropped', what);
  item.tooltip = vscode.l10n.t(
    'Port {0} of node {1} of {2}, forwarded to {3} on this computer by ssh.',
    f.remote,
    f.node,
    f.clusterName,
    url,
  );
  item.iconPath = new vscode.ThemeIcon(
    f.state === 'dropped' ? 'debug-disconnect' : f.state === 'starting' ? 'loading~spin' : 'plug',
  );
  item.contextValue = `portForward ${f.state}`;
  return item;
}
