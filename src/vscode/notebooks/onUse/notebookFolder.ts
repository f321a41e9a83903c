/**
 * Where a notebook's kernel starts on a node: the notebook's folder inside the folder Sync Folder to Node keeps
 * there (the running sync's, or one started when the user agrees), else the home folder; and a run waits for
 * the sync to send a save made just before it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clusterLabel } from '../../../model/cluster';
import type { ConnectTarget } from '../../connect/onUse';
import type { SyncStatus } from '../../sync';
import type { NotebookDeps } from './notebookKernels';

/** Where the kernel starts: the notebook's folder inside the folder synced to this node (a sync running,
 *  or one started when the user agrees), else the home folder there. */
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
  if (
    running &&
    running.clusterId === t.cluster.id &&
    syncs[running.folder]?.instanceId === t.instance.id &&
    file.startsWith(running.folder + path.sep)
  )
    return { folder: syncs[running.folder].remote, relative: path.relative(running.folder, file) };
  const ws = vscode.workspace.getWorkspaceFolder(notebook.uri)?.uri.fsPath;
  if (!ws) return { folder: undefined, relative: name };
  const sync = vscode.l10n.t('Sync Folder');
  const answer = await d.prompts().confirm({
    message: vscode.l10n.t(
      'Sync {0} to node {1} of {2} for this notebook?',
      path.basename(ws),
      t.node,
      clusterLabel(t.cluster),
    ),
    detail: vscode.l10n.t(
      'The kernel starts in the notebook’s folder there, kept up to date as you save, so imports and relative paths work as they do here. Otherwise it starts in your home folder on the node.',
    ),
    actions: [sync, vscode.l10n.t('Use Home Folder')],
    modal: true,
  });
  if (answer === sync) {
    const r = await (await d.syncActions()).syncTo(ws, t);
    if (r.ok) return { folder: r.remote, relative: path.relative(ws, file) };
  }
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
