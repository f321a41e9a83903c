/**
 * The watch of a synced folder: VS Code's file watcher (no polling, no process while nothing changes) and
 * what VS Code itself saved, created, deleted or renamed, as paths relative to the folder, less the ones the
 * sync leaves out (each `.gitignore`, read again when it changes, and the excluded patterns).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SyncFilter } from '../../../model/syncFilter';
import { isInsidePath } from '../../../model/syncQueue';

export function watchFolder(
  folder: string,
  filter: SyncFilter,
  onPath: (rel: string) => void,
): vscode.Disposable[] {
  const changed = (uri: vscode.Uri) => {
    if (uri.scheme !== 'file') return;
    const relative = path.relative(folder, uri.fsPath);
    if (path.isAbsolute(relative)) return; // another drive
    const rel = relative.split(path.sep).join('/');
    if (!isInsidePath(rel)) return;
    if (path.posix.basename(rel) === '.gitignore') filter.forget(path.posix.dirname(rel).replace(/^\.$/, ''));
    if (!filter.ignored(rel)) onPath(rel);
  };
  const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
  const ws = vscode.workspace;
  return [
    w,
    w.onDidCreate(changed),
    w.onDidChange(changed),
    w.onDidDelete(changed),
    // What VS Code itself saved, created, deleted or renamed (the file watcher may miss an editor's save in
    // a folder created after the window opened): the same paths, coalesced by the queue.
    ws.onDidSaveTextDocument((d) => changed(d.uri)),
    ws.onDidCreateFiles((e) => e.files.forEach(changed)),
    ws.onDidDeleteFiles((e) => e.files.forEach(changed)),
    ws.onDidRenameFiles((e) => e.files.forEach((f) => (changed(f.oldUri), changed(f.newUri)))),
  ];
}

/**
 * The changed paths as files: a folder among them (created, or renamed here) is walked, leaving out what
 * the filter leaves out (rsync reads no `.gitignore` of a folder given by name: the walk applies them).
 */
export function filesOf(folder: string, paths: readonly string[], filter: SyncFilter): string[] {
  const out = new Set<string>();
  const walk = (rel: string) => {
    const st = fs.lstatSync(path.join(folder, rel), { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      out.add(rel); // a file, a link, or gone (its deletion)
      return;
    }
    for (const name of fs.readdirSync(path.join(folder, rel))) {
      const child = `${rel}/${name}`;
      if (!filter.ignored(child)) walk(child);
    }
  };
  for (const p of paths) walk(p);
  return [...out];
}
