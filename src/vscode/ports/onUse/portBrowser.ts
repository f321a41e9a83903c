/**
 * A forwarded port's row commands that pick it and open it: which forward a command is about (its row,
 * its id, or a pick), and Open in Browser through asExternalUri.
 */
import * as vscode from 'vscode';
import { localUrl } from '../../../model/portForward';
import type { Prompter } from '../../../wizards/prompter';
import type { HostSeams } from '../../shared/hostSeams';
import type { Forward, PortForwards } from '../portForwards';
import { readPortsOpenIn } from '../../shared/settings';
import { notices } from '../../shared/notices';

export interface BrowseDeps {
  readonly forwards: PortForwards;
  readonly prompts: () => Prompter;
  readonly host: HostSeams;
}

/**
 * The address the browser opens: the forward's root through asExternalUri (a remote window maps the port;
 * code-server answers with its /proxy/<port>/ path and drops the rest), then our path and query on it.
 */
async function externalUri(local: number, openPath: string): Promise<vscode.Uri> {
  const base = await vscode.env.asExternalUri(vscode.Uri.parse(localUrl(local)));
  const q = openPath.indexOf('?');
  const path = q < 0 ? openPath : openPath.slice(0, q);
  return base.with({
    path: base.path.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`),
    query: q < 0 ? base.query : openPath.slice(q + 1),
  });
}

export function forwardOf(d: BrowseDeps, arg: unknown): Forward | undefined {
  const id =
    typeof arg === 'string'
      ? arg
      : arg && typeof arg === 'object' && 'forward' in arg
        ? (arg as { forward: Forward }).forward.id
        : undefined;
  return id ? d.forwards.all().find((f) => f.id === id) : undefined;
}

export async function pickForward(d: BrowseDeps, arg: unknown, title: string): Promise<Forward | undefined> {
  const given = forwardOf(d, arg);
  if (given || arg !== undefined) return given;
  const all = d.forwards.all();
  if (all.length === 0) {
    void notices.showInformationMessage(vscode.l10n.t('No port is forwarded.'));
    return undefined;
  }
  const a = await d.prompts().pick<Forward>({
    title,
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: vscode.l10n.t('Which forwarded port?'),
    items: all.map((f) => ({
      label: localUrl(f.local),
      description: vscode.l10n.t('port {0} of node {1} of {2}', f.remote, f.node, f.clusterName),
      value: f,
    })),
  });
  return a.kind === 'value' ? a.value : undefined;
}

/** Open a forward in the Simple Browser or the external one (setting, or ask), through asExternalUri. */
export async function openForward(d: BrowseDeps, f: Forward): Promise<string | undefined> {
  const uri = await externalUri(f.local, d.forwards.openPath(f));
  let where: string = readPortsOpenIn();
  if (where === 'ask') {
    const simple = vscode.l10n.t('Simple Browser (in VS Code)');
    const external = vscode.l10n.t('External Browser');
    const a = await d.prompts().pick<string>({
      title: vscode.l10n.t('Open in Browser'),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('Where?'),
      items: [
        { label: simple, value: 'simpleBrowser' },
        { label: external, value: 'external' },
      ],
    });
    if (a.kind !== 'value') return undefined;
    where = a.value;
  }
  await d.host.browse(uri, where === 'external' ? 'external' : 'simpleBrowser');
  return where;
}
