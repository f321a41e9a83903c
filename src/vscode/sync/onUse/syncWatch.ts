/**
 * The watch of a synced folder: the system's file events on each of its folders (folderWatch.ts: no polling,
 * no process while nothing changes; the left-out folders are not watched) and what VS Code itself saved,
 * created, deleted or renamed, as paths relative to the folder, less the ones the sync leaves out (each
 * `.gitignore`, read again when it changes, and the excluded patterns).
 *
 * Not VS Code's file watcher: a folder made with its subfolders at once (`mkdir -p`, an unpacked archive, a
 * clone) could stay unwatched below its top there for good (VS Code 1.100: the reliability suite's folder-sync
 * faults saw no event at all for files written in such a subfolder seconds later).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SyncFilter } from '../../../model/syncFilter';
import { isInsidePath } from '../../../model/syncQueue';
import { FolderWatch } from './folderWatch';

export function watchFolder(
  folder: string,
  filter: SyncFilter,
  onPath: (rel: string) => void,
  onError: (message: string) => void = () => undefined,
): vscode.Disposable[] {
  const changed = (rel: string) => {
    if (!isInsidePath(rel)) return;
    if (path.posix.basename(rel) === '.gitignore') filter.forget(path.posix.dirname(rel).replace(/^\.$/, ''));
    if (!filter.ignored(rel)) onPath(rel);
  };
  const fromVsCode = (uri: vscode.Uri) => {
    if (uri.scheme !== 'file') return;
    const relative = path.relative(folder, uri.fsPath);
    if (relative !== '' && !path.isAbsolute(relative)) changed(relative.split(path.sep).join('/'));
  };
  const watch = new FolderWatch(folder, {
    skipFolder: (rel) => !isInsidePath(rel) || filter.ignored(rel, true),
    changed,
    failed: (rel, message) => onError(`${rel === '' ? 'the folder' : rel}: ${message}`),
  });
  const ws = vscode.workspace;
  return [
    { dispose: () => watch.close() },
    // What VS Code itself saved, created, deleted or renamed (before the system's event reaches the watch):
    // the same paths, coalesced by the queue.
    ws.onDidSaveTextDocument((d) => fromVsCode(d.uri)),
    ws.onDidCreateFiles((e) => e.files.forEach(fromVsCode)),
    ws.onDidDeleteFiles((e) => e.files.forEach(fromVsCode)),
    ws.onDidRenameFiles((e) => e.files.forEach((f) => (fromVsCode(f.oldUri), fromVsCode(f.newUri)))),
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
