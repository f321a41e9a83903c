/**
 * How a row of the Clusters tree looks to VS Code beyond its words: the icon of its phase and the
 * contextValue tags menus match. Drawn for every row on every redraw, so the icons (plain values) are
 * made once and shared, and each status word is classified once.
 */
import * as vscode from 'vscode';
import { clusterPhase, type Cluster, type ClusterPhase, type Instance } from '../../model/cluster';

const PHASE_ICON: Record<ClusterPhase, [string, string | undefined]> = {
  running: ['vm-running', 'testing.iconPassed'],
  transitional: ['loading~spin', 'charts.yellow'],
  failed: ['error', 'testing.iconFailed'],
  stopped: ['vm-outline', 'disabledForeground'],
  unknown: ['question', undefined],
};

/** The phase of a status word; a list repeats a handful of words, so each is read once. */
const phases = new Map<string | undefined, ClusterPhase>();
function phaseOf(status: string | undefined): ClusterPhase {
  let phase = phases.get(status);
  if (phase === undefined) {
    phase = clusterPhase(status);
    if (phases.size < 100) phases.set(status, phase);
  }
  return phase;
}

/** Icons are plain values: made once per phase, shared by every row. */
const icons = new Map<ClusterPhase, vscode.ThemeIcon>();

export function phaseIcon(status: string | undefined): vscode.ThemeIcon {
  const phase = phaseOf(status);
  let icon = icons.get(phase);
  if (!icon) {
    const [id, color] = PHASE_ICON[phase];
    icons.set(phase, (icon = new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined)));
  }
  return icon;
}

let followed: vscode.ThemeIcon | undefined;

/** The icon of a cluster whose operation this window follows (create, destroy, edit). */
export function followedIcon(): vscode.ThemeIcon {
  return (followed ??= new vscode.ThemeIcon('loading~spin', new vscode.ThemeColor('charts.yellow')));
}

/** contextValue tags, matched by menus with regular expressions (`viewItem =~ /\bprotected\b/`). */
export function clusterContext(cluster: Cluster): string {
  const tags = ['cluster', phaseOf(cluster.status), cluster.deletionProtection ? 'protected' : 'unprotected'];
  if (cluster.instances.some((i) => i.ip)) tags.push('hasIp');
  return tags.join(' ');
}

export function instanceContext(instance: Instance): string {
  return `instance ${phaseOf(instance.status)}${instance.ip ? ' hasIp' : ''}`;
}
