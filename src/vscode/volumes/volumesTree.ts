/**
 * The Volumes tree: a pure function of the volumes controller. Each volume with its size, state,
 * protection, cost and mount path, and the clusters it is attached to as children; an error row
 * with retry; when the server answered with text only, a row that opens that text, then the volumes
 * read from it (never an empty view hiding what the service said). Unknown states are shown verbatim.
 * A volume's Markdown tooltip is built when its row is hovered (resolveTreeItem).
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
import { VolumeCommands } from './commandIds';
import type { Store } from '../shared/store';
import type { VolumeData, VolumesController } from './volumes';
import { emptyRow } from '../shared/commonRows';
import { ListTree, type ListRow, type ListTreeTexts } from '../shared/listTree';
import {
  code,
  fromTextNote,
  markdownLines,
  md,
  protectionLine,
  statusLine,
  unknown,
} from '../shared/tooltipText';

type VolumeRow =
  | { readonly kind: 'volume'; readonly volume: Volume }
  | { readonly kind: 'attachment'; readonly volume: Volume; readonly attachment: VolumeAttachment }
  | { readonly kind: 'empty'; readonly includeOrg: boolean };
export type VolumeNode = VolumeRow | ListRow;

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
function volumeContext(v: Volume): string {
  return [
    'volume',
    volumePhase(v.status),
    v.deletionProtection ? 'protected' : 'unprotected',
    v.attachments.length ? 'attached' : 'detached',
  ].join(' ');
}

function volumeDescription(v: Volume, opStatus?: string): string {
  return [
    v.sizeGb !== undefined ? `${v.sizeGb} GB` : undefined,
    opStatus ?? v.status,
    v.attachments.length
      ? vscode.l10n.t('on {0}', v.attachments.map((a) => a.clusterName ?? a.clusterId).join(', '))
      : undefined,
    v.deletionProtection ? vscode.l10n.t('protected') : undefined,
    v.hourlyRate !== undefined ? `$${v.hourlyRate.toFixed(4)}/h` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

function volumeTooltip(v: Volume): vscode.MarkdownString {
  return markdownLines([
    `**${md(volumeLabel(v))}**`,
    '',
    vscode.l10n.t('- ID: `{0}`', code(v.id)),
    vscode.l10n.t('- Size: {0}', v.sizeGb !== undefined ? `${v.sizeGb} GB` : unknown()),
    statusLine(v.status),
    vscode.l10n.t('- Mount path: `{0}` on every node', code(mountPath(v.id))),
    protectionLine(v.deletionProtection),
    v.hourlyRate !== undefined ? vscode.l10n.t('- Cost: ${0} per hour', v.hourlyRate.toFixed(4)) : undefined,
    vscode.l10n.t(
      '- Attached to: {0}',
      v.attachments.length
        ? v.attachments
            .map((a) => `\`${code(a.clusterId)}\`${a.status ? ` (${md(a.status)})` : ''}`)
            .join(', ')
        : vscode.l10n.t('no cluster'),
    ),
    v.createdAt ? vscode.l10n.t('- Created: {0}', md(v.createdAt)) : undefined,
    v.owner ? vscode.l10n.t('- Owner: {0}', md(v.owner)) : undefined,
    v.source === 'text' ? `\n_${fromTextNote()}_` : undefined,
  ]);
}

/** A volume under a cluster in the Clusters view (with its mount path). */
export function clusterVolumeItem(clusterId: string, v: AttachedVolume): vscode.TreeItem {
  const item = new vscode.TreeItem(volumeLabel(v), vscode.TreeItemCollapsibleState.None);
  item.id = `cluster:${clusterId}:volume:${v.id}`;
  item.description = [mountPath(v.id), v.sizeGb !== undefined ? `${v.sizeGb} GB` : undefined, v.status]
    .filter(Boolean)
    .join(' · ');
  item.tooltip = vscode.l10n.t(
    'Storage volume {0} ({1}), mounted at {2} on every node.',
    volumeLabel(v),
    v.id,
    mountPath(v.id),
  );
  item.iconPath = new vscode.ThemeIcon('database');
  item.contextValue = 'clusterVolume';
  return item;
}

export class VolumesTreeProvider extends ListTree<VolumeRow, VolumeData> {
  constructor(
    store: Store,
    private readonly volumes: VolumesController,
  ) {
    super(store, volumes);
  }

  protected texts(): ListTreeTexts {
    return {
      errorTitle: vscode.l10n.t('Could not load volumes'),
      refreshCommand: VolumeCommands.refreshVolumes,
      errorContext: 'error',
      loading: vscode.l10n.t('Loading volumes…'),
      listingTitle: vscode.l10n.t('Volume list (text from the server)'),
      listingCommand: VolumeCommands.showVolumeListText,
      listingOpen: vscode.l10n.t('Open volume list text'),
    };
  }

  protected override childrenOf(node: VolumeRow): VolumeRow[] {
    return node.kind === 'volume'
      ? node.volume.attachments.map((attachment) => ({ kind: 'attachment', volume: node.volume, attachment }))
      : [];
  }

  // Text only: the server's text one click away, then the volumes read from it (actions work on those).
  protected listingText(data: VolumeData): string | undefined {
    return data.volumes === undefined ? (data.message ?? '') : undefined;
  }

  protected rows(data: VolumeData): VolumeRow[] {
    const listed = data.volumes ?? data.textVolumes ?? [];
    const rows: VolumeRow[] = listed.map((volume) => ({ kind: 'volume' as const, volume }));
    const ids = new Set(listed.map((v) => v.id));
    for (const op of this.volumes.operations)
      if (op.placeholder && !ids.has(op.id)) rows.push({ kind: 'volume', volume: op.placeholder });
    if (rows.length === 0 && data.volumes !== undefined)
      rows.push({ kind: 'empty', includeOrg: data.includeOrg });
    return rows;
  }

  protected item(node: VolumeRow): vscode.TreeItem {
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
        item.tooltip = vscode.l10n.t(
          '{0} is mounted at {1} on every node of {2} ({3}).',
          volumeLabel(node.volume),
          mountPath(node.volume.id),
          a.clusterName ?? a.clusterId,
          a.clusterId,
        );
        item.iconPath = new vscode.ThemeIcon('server');
        item.contextValue = 'volumeAttachment';
        return item;
      }
      case 'empty':
        return emptyRow(
          node.includeOrg
            ? vscode.l10n.t('No volumes in your organisation')
            : vscode.l10n.t('No volumes yet'),
          { command: VolumeCommands.createVolume, title: vscode.l10n.t('Create Volume…') },
        );
    }
  }

  /** The Markdown tooltip of a volume row, built when the row is hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: VolumeNode): vscode.TreeItem {
    if (node.kind === 'volume') item.tooltip = volumeTooltip(node.volume);
    return item;
  }
}
