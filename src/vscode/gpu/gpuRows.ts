/**
 * The GPU side of a node row in the Clusters tree, from the telemetry the node sent (gpuSampler.ts):
 * the aggregate (`8×H100 · 87% · 61/80 GB`) as the description, an icon that tells an all-idle node from
 * a busy one, the node's state when it has no figures ("no GPUs", the driver's failure text, not
 * answering), "as of <time>" when the figures are stale, one child row per GPU and a tooltip table.
 * A node nobody watches looks as before.
 */
import * as vscode from 'vscode';
import {
  aggregate,
  aggregateLabel,
  aggregateWhat,
  allIdle,
  gpuRowDescription,
  gpuRowLabel,
  gpuTable,
  nodeStateWords,
  type GpuReading,
} from '../../model/gpu';
import type { NodeTelemetry } from './gpuSampler';
import { Commands } from '../shared/commands';
import { md } from '../shared/tooltipText';

let busyIcon: vscode.ThemeIcon | undefined;
let idleIcon: vscode.ThemeIcon | undefined;
let staleIcon: vscode.ThemeIcon | undefined;
let gpuIcon: vscode.ThemeIcon | undefined;

const clock = (time: number) => new Date(time).toLocaleTimeString(vscode.env.language);

/** What the node row shows for its GPUs; undefined when nothing is known (not watched yet). `brief` is the
 *  description without the figures that change with every sample (`8×H100`): the row shows it while rows
 *  the user acts on (forwarded ports) sit under it, since redrawing a row redraws its children. */
export function nodeGpuLook(t: NodeTelemetry | undefined):
  | {
      description: string;
      brief: string;
      icon?: vscode.ThemeIcon;
      gpus: readonly GpuReading[];
      /** The node refused the login (the row offers Add SSH Key…). */
      refused?: boolean;
    }
  | undefined {
  if (!t) return undefined;
  const state = t.state;
  if (!state) {
    if (!t.unreachable) return undefined;
    // The node answered and refused the key: not a node that does not answer (Add SSH Key… on the row).
    const description = t.refused
      ? vscode.l10n.t('login refused: the node does not accept your SSH key')
      : vscode.l10n.t('not answering: {0}', t.unreachable);
    return { description, brief: description, gpus: [], refused: t.refused };
  }
  const staleNote = t.stale && t.time ? vscode.l10n.t(' · stale, as of {0}', clock(t.time)) : '';
  if (state.kind !== 'ok') {
    const description = nodeStateWords(state)! + staleNote;
    return { description, brief: description, gpus: [] };
  }
  const gpus = state.sample.gpus;
  const idle = allIdle(gpus);
  const icon = t.stale
    ? (staleIcon ??= new vscode.ThemeIcon('history', new vscode.ThemeColor('disabledForeground')))
    : idle
      ? (idleIcon ??= new vscode.ThemeIcon('circle-large-outline', new vscode.ThemeColor('charts.yellow')))
      : (busyIcon ??= new vscode.ThemeIcon('pulse', new vscode.ThemeColor('charts.green')));
  const figures = aggregate(gpus);
  return {
    description: aggregateLabel(figures) + staleNote,
    brief: aggregateWhat(figures) + staleNote,
    icon,
    gpus,
  };
}

/** One GPU's row. */
export function gpuItem(g: GpuReading): vscode.TreeItem {
  const item = new vscode.TreeItem(gpuRowLabel(g), vscode.TreeItemCollapsibleState.None);
  item.description = gpuRowDescription(g);
  item.iconPath = gpuIcon ??= new vscode.ThemeIcon('circuit-board');
  item.contextValue = 'gpu';
  return item;
}

/** The tooltip lines the node's telemetry adds (a table of its GPUs and their processes). */
export function gpuTooltipLines(t: NodeTelemetry | undefined): string[] {
  // ssh's stderr and nvidia-smi's words are the node's text: escaped, never Markdown of their own.
  if (!t?.state && t?.refused)
    return [
      '',
      vscode.l10n.t(
        'The node answered and refused the login: {0} Its cluster may have been created without one of your keys. TensorPool does not try again until your keys or the cluster change.',
        md(t.unreachable ?? ''),
      ),
      '',
      `[${vscode.l10n.t('Add SSH Key…')}](command:${Commands.addSshKey})`,
    ];
  if (!t?.state) return t?.unreachable ? ['', vscode.l10n.t('Not answering: {0}', md(t.unreachable))] : [];
  const when = t.time ? vscode.l10n.t('Sampled at {0}', clock(t.time)) : '';
  const stale = t.stale ? vscode.l10n.t(' (stale: the node stopped answering)') : '';
  if (t.state.kind !== 'ok') return ['', md(nodeStateWords(t.state) ?? ''), '', `_${when}${stale}_`];
  return ['', gpuTable(t.state.sample.gpus, t.state.processes), '', `_${when}${stale}_`];
}
