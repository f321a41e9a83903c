/** Hover text (Markdown) for the rows of the Clusters tree: a cluster and one of its nodes. */
import * as vscode from 'vscode';
import { clusterPhase, type Cluster, type Instance } from '../../model/cluster';
import { costSoFar, formatHourly, formatMoney } from '../../model/gpu/cost';
import { clusterDescription, clusterLabel } from '../../model/labels';
import {
  code,
  fromTextNote,
  markdownLines,
  md,
  protectionLine,
  statusLine,
  tooltipTime,
  unknown,
} from '../shared/tooltipText';

/** The line of the operation this window follows on the cluster. */
function opLine(kind: 'create' | 'destroy' | 'edit', status: string): string {
  const s = md(status);
  return kind === 'create'
    ? vscode.l10n.t('- Creating: request {0}', s)
    : kind === 'destroy'
      ? vscode.l10n.t('- Destroying: request {0}', s)
      : vscode.l10n.t('- Updating: request {0}', s);
}

export function clusterTooltip(
  c: Cluster,
  op?: { kind: 'create' | 'destroy' | 'edit'; status: string },
  /** The service's hourly price (GET /cluster/quote); undefined: no price line at all. */
  hourly?: number,
  now = Date.now(),
): vscode.MarkdownString {
  const m = markdownLines([
    `**${md(clusterLabel(c))}** · ${md(clusterDescription(c, op?.kind))}`,
    '',
    op ? opLine(op.kind, op.status) : undefined,
    statusLine(c.status),
    vscode.l10n.t('- ID: `{0}`', code(c.id)),
    c.instanceType ? vscode.l10n.t('- Type: {0}', md(c.instanceType)) : undefined,
    vscode.l10n.t('- Nodes: {0}', c.numNodes ?? c.instances.length),
    protectionLine(c.deletionProtection),
    c.createdAt ? vscode.l10n.t('- Created: {0}', md(tooltipTime(c.createdAt))) : undefined,
    c.owner ? vscode.l10n.t('- Owner: {0}', md(c.owner)) : undefined,
    ...costLines(c, hourly, now),
    ...c.instances.map(
      (i, n) =>
        vscode.l10n.t('- Instance `{0}` (node {1}): {2}', code(i.id), n + 1, md(i.status ?? unknown())) +
        (i.ip ? `, ${md(i.ip)}` : '') +
        (i.privateIp ? vscode.l10n.t(' (private {0})', md(i.privateIp)) : ''),
    ),
    c.source === 'text' ? `\n$(info) _${fromTextNote()}_` : undefined,
  ]);
  m.supportThemeIcons = true;
  return m;
}

/** Price, time running and the estimated cost so far of a running cluster with a price. */
function costLines(c: Cluster, hourly: number | undefined, now: number): string[] {
  if (hourly === undefined || clusterPhase(c.status) !== 'running') return [];
  const lines = [vscode.l10n.t('- Price: {0}', formatHourly(hourly))];
  const start = c.createdAt ? Date.parse(c.createdAt) : NaN;
  if (Number.isFinite(start) && start <= now) {
    const minutes = Math.floor((now - start) / 60_000);
    const ran =
      minutes < 60
        ? vscode.l10n.t('{0} min', minutes)
        : vscode.l10n.t('{0} h {1} min', Math.floor(minutes / 60), minutes % 60);
    lines.push(vscode.l10n.t('- Running for: {0} (since it was created)', ran));
    lines.push(
      vscode.l10n.t(
        '- Cost so far: {0} (an estimate: price × time)',
        formatMoney(costSoFar(hourly, start, now)),
      ),
    );
  }
  return lines;
}

export function instanceTooltip(node: {
  cluster: Cluster;
  instance: Instance;
  index: number;
}): vscode.MarkdownString {
  const i = node.instance;
  const m = markdownLines([
    vscode.l10n.t('**Node {0}** of {1}', node.index + 1, md(clusterLabel(node.cluster))),
    '',
    vscode.l10n.t('- Instance ID: `{0}`', code(i.id)),
    statusLine(i.status),
    vscode.l10n.t('- Address: {0}', i.ip ? md(i.ip) : vscode.l10n.t('none yet')),
    i.privateIp ? vscode.l10n.t('- Private address: {0}', md(i.privateIp)) : undefined,
  ]);
  m.supportThemeIcons = true;
  return m;
}
