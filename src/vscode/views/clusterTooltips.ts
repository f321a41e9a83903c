/** Hover text (Markdown) for the rows of the Clusters tree: a cluster and one of its nodes. */
import * as vscode from 'vscode';
import type { Cluster, Instance } from '../../model/cluster';
import { clusterDescription, clusterLabel } from '../../model/labels';
import { md, tooltipTime } from './tooltipText';

const OP_LABEL = { create: 'Creating', destroy: 'Destroying', edit: 'Updating' } as const;

function markdown(lines: Array<string | undefined>): vscode.MarkdownString {
  const m = new vscode.MarkdownString(lines.filter((l): l is string => l !== undefined).join('\n'));
  m.supportThemeIcons = true;
  return m;
}

export function clusterTooltip(
  c: Cluster,
  op?: { kind: keyof typeof OP_LABEL; status: string },
): vscode.MarkdownString {
  return markdown([
    `**${md(clusterLabel(c))}** · ${md(clusterDescription(c, op?.kind))}`,
    '',
    op ? `- ${OP_LABEL[op.kind]}: request ${md(op.status)}` : undefined,
    `- Status: ${md(c.status ?? 'unknown')}`,
    `- ID: \`${c.id}\``,
    c.instanceType ? `- Type: ${md(c.instanceType)}` : undefined,
    `- Nodes: ${c.numNodes ?? c.instances.length}`,
    `- Deletion protection: ${c.deletionProtection === undefined ? 'unknown' : c.deletionProtection ? 'on' : 'off'}`,
    c.createdAt ? `- Created: ${md(tooltipTime(c.createdAt))}` : undefined,
    c.owner ? `- Owner: ${md(c.owner)}` : undefined,
    ...c.instances.map(
      (i, n) =>
        `- Instance \`${i.id}\` (node ${n + 1}): ${md(i.status ?? 'unknown')}${i.ip ? `, ${md(i.ip)}` : ''}${i.privateIp ? ` (private ${md(i.privateIp)})` : ''}`,
    ),
    c.source === 'text'
      ? "\n$(info) _Read from the server's text answer: details the text did not give are unknown._"
      : undefined,
  ]);
}

export function instanceTooltip(node: {
  cluster: Cluster;
  instance: Instance;
  index: number;
}): vscode.MarkdownString {
  const i = node.instance;
  return markdown([
    `**Node ${node.index + 1}** of ${md(clusterLabel(node.cluster))}`,
    '',
    `- Instance ID: \`${i.id}\``,
    `- Status: ${md(i.status ?? 'unknown')}`,
    `- Address: ${i.ip ? md(i.ip) : 'none yet'}`,
    i.privateIp ? `- Private address: ${md(i.privateIp)}` : undefined,
  ]);
}
