/**
 * At activation, in a Remote-SSH window on one of our hosts: remember its folder so the next "Open in
 * New Window" for that node (connect.ts, loaded with the commands on first use) opens it again. The
 * extension runs on the UI side (extensionKind), so this is the user's own machine and global state.
 */
import * as vscode from 'vscode';
import type { StoredState } from '../shared/storedState';

export function recordRemoteFolder(state: StoredState): void {
  if (vscode.env.remoteName !== 'ssh-remote') return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const host = folder?.authority.startsWith('ssh-remote+tp-')
    ? folder.authority.slice('ssh-remote+'.length)
    : undefined;
  if (!folder || !host) return;
  const all = state.get('tensorpool.remoteFolders', {});
  if (all[host] !== folder.path)
    void state.update('tensorpool.remoteFolders', { ...all, [host]: folder.path });
}
