/**
 * The Volumes tree: a pure function of the volumes controller. Each volume with its size, state,
 * protection, cost and mount path, and the clusters it is attached to as children; an error row
 * with retry; when the server answered with text only, its text line by line (never an empty view
 * hiding what the service said). Unknown states are shown verbatim. A volume's Markdown tooltip is
 * built when its row is hovered (resolveTreeItem).
 */
import * as vscode from 'vscode';
import {
  mountPath,
  volumeLabel,
  volumePhase,
  type AttachedVolume,
  type Volume,
  type VolumeAttachment,
  type VolumePhase,
} from '../../model/volume';
import { Commands } from '../commands';
import type { Store } from '../store';
import type { VolumesController } from '../volumes';
import { emptyRow, errorRow, loadingRow } from './commonRows';
import { md } from './tooltipText';

export type VolumeNode =
  | { readonly kind: 'volume'; readonly volume: Volume }
  | { readonly kind: 'attachment'; readonly volume: Volume; readonly attachment: VolumeAttachment }
  | { readonly kind: 'error'; readonly message: string; readonly errorKind: string }
  | { readonly kind: 'textLine'; readonly line: string; readonly index: number }
  | { readonly kind: 'loading' }
  | { readonly kind: 'empty'; readonly includeOrg: boolean };

const PHASE_ICON: Record<VolumePhase, [string, string | undefined]> = {
  ready: ['database', 'testing.iconPassed'],
  attached: ['plug', 'testing.iconPassed'],
  transitional: ['loading~spin', 'charts.yellow'],
  failed: ['error', 'testing.iconFailed'],
  unknown: ['question', undefined],
};

function icon(status: string | undefined): vscode.ThemeIcon {
  const [id, color] = PHASE_ICON[volumePhase(status)];
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

/** contextValue tags for menus (`viewItem =~ /\bunprotected\b/`). */
export function volumeContext(v: Volume): string {
  return [
    'volume',
    volumePhase(v.status),
    v.deletionProtection ? 'protected' : 'unprotected',
    v.attachments.length ? 'attached' : 'detached',
  ].join(' ');
}

export function volumeDescription(v: Volume, opStatus?: string): string {
  return [
    v.sizeGb !== undefined ? `${v.sizeGb} GB` : undefined,
    opStatus ?? v.status,
    v.attachments.length
      ? `on ${v.attachments.map((a) => a.clusterName ?? a.clusterId).join(', ')}`
      : undefined,
    v.deletionProtection ? 'protected' : undefined,
    v.hourlyRate !== undefined ? `$${v.hourlyRate.toFixed(4)}/h` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function volumeTooltip(v: Volume): vscode.MarkdownString {
  const lines = [
    `**${md(volumeLabel(v))}**`,
    '',
    `- ID: \`${v.id}\``,
    `- Size: ${v.sizeGb !== undefined ? `${v.sizeGb} GB` : 'unknown'}`,
    `- Status: ${md(v.status ?? 'unknown')}`,
    `- Mount path: \`${mountPath(v.id)}\` on every node`,
    `- Deletion protection: ${v.deletionProtection === undefined ? 'unknown' : v.deletionProtection ? 'on' : 'off'}`,
    v.hourlyRate !== undefined ? `- Cost: $${v.hourlyRate.toFixed(4)} per hour` : undefined,
    `- Attached to: ${v.attachments.length ? v.attachments.map((a) => `\`${a.clusterId}\`${a.status ? ` (${md(a.status)})` : ''}`).join(', ') : 'no cluster'}`,
    v.createdAt ? `- Created: ${md(v.createdAt)}` : undefined,
    v.owner ? `- Owner: ${md(v.owner)}` : undefined,
    v.source === 'text'
      ? "\n_Read from the server's text answer: details the text did not give are unknown._"
      : undefined,
  ].filter((l): l is string => l !== undefined);
  return new vscode.MarkdownString(lines.join('\n'));
}

/** A volume under a cluster in the Clusters view (with its mount path). */
export function clusterVolumeItem(clusterId: string, v: AttachedVolume): vscode.TreeItem {
  const item = new vscode.TreeItem(volumeLabel(v), vscode.TreeItemCollapsibleState.None);
  item.id = `cluster:${clusterId}:volume:${v.id}`;
  item.description = [mountPath(v.id), v.sizeGb !== undefined ? `${v.sizeGb} GB` : undefined, v.status]
    .filter(Boolean)
    .join(' · ');
  item.tooltip = `Storage volume ${volumeLabel(v)} (${v.id}), mounted at ${mountPath(v.id)} on every node.`;
  item.iconPath = new vscode.ThemeIcon('database');
  item.contextValue = 'clusterVolume';
  return item;
}

export class VolumesTreeProvider implements vscode.TreeDataProvider<VolumeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<VolumeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: Store,
    private readonly volumes: VolumesController,
  ) {
    this.subscriptions = [
      store.onDidChange((t) => {
        if (t === 'account') this.emitter.fire(undefined);
      }),
      volumes.onDidChange(() => this.emitter.fire(undefined)),
    ];
  }

  getChildren(node?: VolumeNode): VolumeNode[] {
    if (node) {
      return node.kind === 'volume'
        ? node.volume.attachments.map((attachment) => ({
            kind: 'attachment',
            volume: node.volume,
            attachment,
          }))
        : [];
    }
    if (this.store.account.kind !== 'signedIn') return [];
    const { data, loading, error } = this.volumes;
    const rows: VolumeNode[] = [];
    if (error) rows.push({ kind: 'error', message: error.message, errorKind: error.kind });
    if (!data) {
      if (loading && !error) rows.push({ kind: 'loading' });
      return rows;
    }
    const listed = data.volumes ?? data.textVolumes ?? [];
    if (data.volumes === undefined) {
      // Text only: the server's text as it came, then the volumes read from it (actions work on those).
      (data.message ?? '')
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '')
        .forEach((line, index) => rows.push({ kind: 'textLine', line, index }));
    }
    rows.push(...listed.map((volume) => ({ kind: 'volume' as const, volume })));
    const ids = new Set(listed.map((v) => v.id));
    for (const op of this.volumes.operations)
      if (op.placeholder && !ids.has(op.volumeId)) rows.push({ kind: 'volume', volume: op.placeholder });
    if (rows.length === 0) rows.push({ kind: 'empty', includeOrg: data.includeOrg });
    return rows;
  }

  getTreeItem(node: VolumeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'volume': {
        const v = node.volume;
        const item = new vscode.TreeItem(
          volumeLabel(v),
          v.attachments.length
            ? vscode.TreeItemCollapsibleState.Expanded
            : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `volume:${v.id}`;
        const op = this.volumes.opFor(v.id);
        item.description = volumeDescription(v, op ? `${op.kind}: ${op.status}` : undefined);
        item.iconPath = op
          ? new vscode.ThemeIcon('loading~spin', new vscode.ThemeColor('charts.yellow'))
          : icon(v.status);
        item.contextValue = volumeContext(v);
        return item;
      }
      case 'attachment': {
        const a = node.attachment;
        const item = new vscode.TreeItem(a.clusterName ?? a.clusterId, vscode.TreeItemCollapsibleState.None);
        item.id = `volume:${node.volume.id}:cluster:${a.clusterId}`;
        item.description = [mountPath(node.volume.id), a.status].filter(Boolean).join(' · ');
        item.tooltip = `${volumeLabel(node.volume)} is mounted at ${mountPath(node.volume.id)} on every node of ${a.clusterName ?? a.clusterId} (${a.clusterId}).`;
        item.iconPath = new vscode.ThemeIcon('server');
        item.contextValue = 'volumeAttachment';
        return item;
      }
      case 'error':
        return errorRow(
          'Could not load volumes',
          node.message,
          { command: Commands.refreshVolumes, title: 'Retry' },
          'error',
        );
      case 'textLine': {
        const item = new vscode.TreeItem(node.line, vscode.TreeItemCollapsibleState.None);
        item.id = `volumeText:${node.index}`;
        item.tooltip = 'The service answered with a text table only. Click to open it.';
        if (node.index === 0) item.iconPath = new vscode.ThemeIcon('output');
        item.command = { command: Commands.showVolumeListText, title: 'Open volume list text' };
        item.contextValue = 'listingText';
        return item;
      }
      case 'loading':
        return loadingRow('Loading volumes…');
      case 'empty':
        return emptyRow(node.includeOrg ? 'No volumes in your organisation' : 'No volumes yet', {
          command: Commands.createVolume,
          title: 'Create Volume…',
        });
    }
  }

  /** The Markdown tooltip of a volume row, built when the row is hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: VolumeNode): vscode.TreeItem {
    if (node.kind === 'volume') item.tooltip = volumeTooltip(node.volume);
    return item;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
