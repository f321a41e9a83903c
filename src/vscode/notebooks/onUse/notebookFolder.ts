/**
 * Where a notebook's kernel starts on a node: the notebook's folder inside the folder Sync Folder to Node keeps
 * there (the running sync's, or one started when the user agrees), else the home folder; and a run waits for
 * the sync to send a save made just before it. "Use Home Folder" is remembered per workspace folder and node
 * (workspace state), so it is asked once; Sync Folder to Node for that folder and node changes the answer (a
 * running sync comes first and forgets it; a sync no longer running asks again).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clusterLabel } from '../../../model/cluster';
import type { ConnectTarget } from '../../connect/onUse';
import type { SyncStatus } from '../../sync';
import type { NotebookDeps } from './notebookKernels';

const answerKey = (ws: string, t: ConnectTarget) => `${ws}|${t.cluster.id}|${t.instance.id}`;

/** Remember (or forget, `undefined`) the folder answer for a workspace folder on a node. */
async function rememberAnswer(d: NotebookDeps, key: string, answer: 'home' | undefined): Promise<void> {
  const all = { ...d.workspaceState.get('tensorpool.notebookFolders', {}) };
  if (all[key] === answer) return;
  delete all[key];
  if (answer) all[key] = answer;
  await d.workspaceState.update(
    'tensorpool.notebookFolders',
    Object.fromEntries(Object.entries(all).slice(-50)),
  );
}

/** Where the kernel starts: the notebook's folder inside the folder synced to this node (a sync running,
 *  or one started when the user agrees), else the home folder there (asked once per folder and node). */
export async function folderOnNode(
  d: NotebookDeps,
  notebook: vscode.NotebookDocument,
  t: ConnectTarget,
): Promise<{ folder: string | undefined; relative: string }> {
  const file = notebook.uri.scheme === 'file' ? notebook.uri.fsPath : undefined;
  const name = path.basename(notebook.uri.path);
  if (!file) return { folder: undefined, relative: name };
  const syncs = d.workspaceState.get('tensorpool.syncs', {});
  const running = d.syncStatus.running;
  const ws = vscode.workspace.getWorkspaceFolder(notebook.uri)?.uri.fsPath;
  if (
    running &&
    running.clusterId === t.cluster.id &&
    syncs[running.folder]?.instanceId === t.instance.id &&
    file.startsWith(running.folder + path.sep)
  ) {
    // The folder is synced there now: an earlier "Use Home Folder" no longer holds.
    if (ws) await rememberAnswer(d, answerKey(ws, t), undefined);
    return { folder: syncs[running.folder].remote, relative: path.relative(running.folder, file) };
  }
  if (!ws) return { folder: undefined, relative: name };
  const key = answerKey(ws, t);
  if (d.workspaceState.get('tensorpool.notebookFolders', {})[key] === 'home')
    return { folder: undefined, relative: name };
  const sync = vscode.l10n.t('Sync Folder');
  const answer = await d.prompts().confirm({
    message: vscode.l10n.t(
      'Sync {0} to node {1} of {2} for this notebook?',
      path.basename(ws),
      t.node,
      clusterLabel(t.cluster),
    ),
    detail: vscode.l10n.t(
      'The kernel starts in the notebook’s folder there, kept up to date as you save, so imports and relative paths work as they do here. Otherwise it starts in your home folder on the node, and this folder’s notebooks on this node are not asked again (Sync Folder to Node changes that).',
    ),
    actions: [sync, vscode.l10n.t('Use Home Folder')],
    modal: true,
  });
  if (answer === sync) {
    const r = await (await d.syncActions()).syncTo(ws, t);
    if (r.ok) return { folder: r.remote, relative: path.relative(ws, file) };
  } else if (answer !== undefined) await rememberAnswer(d, key, 'home');
  return { folder: undefined, relative: name };
}

/** A save just before a run: the sync sends it before the cell reads it. */
export async function syncFlushed(
  status: SyncStatus,
  notebook: vscode.NotebookDocument,
  t: ConnectTarget,
): Promise<void> {
  const running = status.running;
  if (
    !running ||
    running.clusterId !== t.cluster.id ||
    !notebook.uri.fsPath.startsWith(running.folder + path.sep)
  )
    return;
  await Promise.race([running.flushed(), new Promise((r) => setTimeout(r, 30_000))]);
}
