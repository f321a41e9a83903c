/**
 * The Clusters tree: a pure function of the store. Clusters with their instances as children; an
 * error row with a retry action instead of a pile of notifications; when the server answered with
 * text only, a row that opens that text instead of an empty tree.
 */
import * as vscode from 'vscode';
import {
  clusterLabel,
  clusterPhase,
  clusterShape,
  type Cluster,
  type ClusterPhase,
  type Instance,
} from '../../model/cluster';
import type { AttachedVolume } from '../../model/volume';
import { Commands } from '../commands';
import type { Store } from '../store';
import { clusterVolumeItem } from './volumesTree';

export type ClusterNode =
  | { readonly kind: 'cluster'; readonly cluster: Cluster }
  | {
      readonly kind: 'instance';
      readonly cluster: Cluster;
      readonly instance: Instance;
      readonly index: number;
    }
  | { readonly kind: 'clusterVolume'; readonly cluster: Cluster; readonly volume: AttachedVolume }
  | { readonly kind: 'error'; readonly message: string; readonly errorKind: string }
  | { readonly kind: 'listingText'; readonly preview: string }
  | { readonly kind: 'loading' }
  | { readonly kind: 'empty'; readonly includeOrg: boolean };

const OP_VERB = { create: 'creating', destroy: 'destroying', edit: 'updating' } as const;

const PHASE_ICON: Record<ClusterPhase, [string, string | undefined]> = {
  running: ['vm-running', 'testing.iconPassed'],
  transitional: ['loading~spin', 'charts.yellow'],
  failed: ['error', 'testing.iconFailed'],
  stopped: ['vm-outline', 'disabledForeground'],
  unknown: ['question', undefined],
};

export function phaseIcon(status: string | undefined): vscode.ThemeIcon {
  const [id, color] = PHASE_ICON[clusterPhase(status)];
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

/** contextValue tags, matched by menus with regular expressions (`viewItem =~ /\bprotected\b/`). */
export function clusterContext(cluster: Cluster): string {
  const tags = [
    'cluster',
    clusterPhase(cluster.status),
    cluster.deletionProtection ? 'protected' : 'unprotected',
  ];
  if (cluster.instances.some((i) => i.ip)) tags.push('hasIp');
  return tags.join(' ');
}

function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

export function clusterTooltip(c: Cluster): vscode.MarkdownString {
  const lines = [
    `**${md(clusterLabel(c))}**`,
    '',
    `- ID: \`${c.id}\``,
    c.instanceType ? `- Type: ${md(c.instanceType)}` : undefined,
    `- Nodes: ${c.numNodes ?? c.instances.length}`,
    `- Status: ${md(c.status ?? 'unknown')}`,
    `- Deletion protection: ${c.deletionProtection === undefined ? 'unknown' : c.deletionProtection ? 'on' : 'off'}`,
    c.createdAt ? `- Created: ${md(c.createdAt)}` : undefined,
    c.owner ? `- Owner: ${md(c.owner)}` : undefined,
    ...c.instances.map(
      (i) =>
        `- Instance \`${i.id}\`: ${md(i.status ?? 'unknown')}${i.ip ? `, ${md(i.ip)}` : ''}${i.privateIp ? ` (private ${md(i.privateIp)})` : ''}`,
    ),
  ].filter((l): l is string => l !== undefined);
  const m = new vscode.MarkdownString(lines.join('\n'));
  m.supportThemeIcons = true;
  return m;
}

export class ClustersTreeProvider implements vscode.TreeDataProvider<ClusterNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ClusterNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: Store,
    /** Storage volumes attached to a cluster when its record does not list them (volumes view data). */
    private readonly volumesOf: (clusterId: string) => readonly AttachedVolume[] = () => [],
  ) {
    this.subscription = store.onDidChange(() => this.emitter.fire(undefined));
  }

  /** Fire a change (the volumes list changed). */
  refreshView(): void {
    this.emitter.fire(undefined);
  }

  private volumeChildren(cluster: Cluster): ClusterNode[] {
    return (cluster.volumes ?? this.volumesOf(cluster.id)).map((volume) => ({
      kind: 'clusterVolume' as const,
      cluster,
      volume,
    }));
  }

  getChildren(node?: ClusterNode): ClusterNode[] {
    if (node) {
      return node.kind === 'cluster'
        ? [
            ...node.cluster.instances.map((instance, index) => ({
              kind: 'instance' as const,
              cluster: node.cluster,
              instance,
              index,
            })),
            ...this.volumeChildren(node.cluster),
          ]
        : [];
    }
    // Signed out: no rows, so the welcome view (Sign in button) shows.
    if (this.store.account.kind !== 'signedIn') return [];
    const { data, loading, error } = this.store.clusters;
    const rows: ClusterNode[] = [];
    if (error) rows.push({ kind: 'error', message: error.message, errorKind: error.kind });
    if (!data) {
      if (loading && !error) rows.push({ kind: 'loading' });
      return rows;
    }
    if (data.clusters === undefined) {
      // Text only: the server's text, plus what this window created and is following.
      rows.push({ kind: 'listingText', preview: firstLine(data.message) });
      rows.push(...this.placeholders([]));
      return rows;
    }
    rows.push(...data.clusters.map((cluster) => ({ kind: 'cluster' as const, cluster })));
    rows.push(...this.placeholders(data.clusters));
    if (rows.length === 0) rows.push({ kind: 'empty', includeOrg: data.includeOrg });
    return rows;
  }

  /** Clusters this window just created that the list does not show yet. */
  private placeholders(listed: readonly Cluster[]): ClusterNode[] {
    const ids = new Set(listed.map((c) => c.id));
    return this.store.requests
      .filter((r) => r.placeholder && !ids.has(r.clusterId))
      .map((r) => ({ kind: 'cluster' as const, cluster: r.placeholder! }));
  }

  getTreeItem(node: ClusterNode): vscode.TreeItem {
    switch (node.kind) {
      case 'cluster': {
        const c = node.cluster;
        const item = new vscode.TreeItem(
          clusterLabel(c),
          c.instances.length || this.volumeChildren(c).length
            ? vscode.TreeItemCollapsibleState.Collapsed
            : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `cluster:${c.id}`;
        const op = this.store.requestFor(c.id);
        item.description = [clusterShape(c), op ? `${OP_VERB[op.kind]}: ${op.status}` : c.status]
          .filter(Boolean)
          .join(' · ');
        item.iconPath = op
          ? new vscode.ThemeIcon('loading~spin', new vscode.ThemeColor('charts.yellow'))
          : phaseIcon(c.status);
        item.tooltip = clusterTooltip(c);
        item.contextValue = clusterContext(c);
        return item;
      }
      case 'instance': {
        const i = node.instance;
        const item = new vscode.TreeItem(i.ip ?? i.id, vscode.TreeItemCollapsibleState.None);
        item.id = `instance:${node.cluster.id}:${i.id}`;
        item.description = [i.ip ? i.id : undefined, i.status].filter(Boolean).join(' · ');
        item.iconPath = phaseIcon(i.status);
        item.tooltip = `Node ${node.index + 1} of ${clusterLabel(node.cluster)}\n${i.id}${i.ip ? `\n${i.ip}` : ''}${i.privateIp ? `\nprivate ${i.privateIp}` : ''}`;
        item.contextValue = `instance ${clusterPhase(i.status)}${i.ip ? ' hasIp' : ''}`;
        return item;
      }
      case 'clusterVolume':
        return clusterVolumeItem(node.cluster.id, node.volume);
      case 'error': {
        const item = new vscode.TreeItem(
          node.errorKind === 'unauthorized' ? 'Token rejected' : 'Could not load clusters',
          vscode.TreeItemCollapsibleState.None,
        );
        item.description = node.message;
        item.tooltip = `${node.message}\n\nClick to retry.`;
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
        item.command =
          node.errorKind === 'unauthorized'
            ? { command: Commands.signIn, title: 'Sign In' }
            : { command: Commands.refresh, title: 'Retry' };
        item.contextValue = 'error';
        return item;
      }
      case 'listingText': {
        const item = new vscode.TreeItem(
          'Cluster list (text from the server)',
          vscode.TreeItemCollapsibleState.None,
        );
        item.description = node.preview;
        item.tooltip = 'The service answered with a text table only. Click to open it.';
        item.iconPath = new vscode.ThemeIcon('output');
        item.command = { command: Commands.showListingText, title: 'Open cluster list text' };
        item.contextValue = 'listingText';
        return item;
      }
      case 'loading': {
        const item = new vscode.TreeItem('Loading clusters…', vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('loading~spin');
        return item;
      }
      case 'empty': {
        const item = new vscode.TreeItem(
          node.includeOrg ? 'No clusters in your organisation' : 'No clusters yet',
          vscode.TreeItemCollapsibleState.None,
        );
        item.iconPath = new vscode.ThemeIcon('info');
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '').split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
