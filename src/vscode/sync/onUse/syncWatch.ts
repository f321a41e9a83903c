/**
 * The watch of a synced folder: a watch of each of its folders (chokidar: the system's file events, no
 * polling, no process while nothing changes; the left-out folders are not watched) and what VS Code itself
 * saved, created, deleted or renamed, as paths relative to the folder, less the ones the sync leaves out
 * (each `.gitignore`, read again when it changes, and the excluded patterns).
 *
 * Not VS Code's file watcher: a folder made with its subfolders at once (`mkdir -p`, an unpacked archive, a
 * clone) could stay unwatched below its top there for good (VS Code 1.100: the reliability suite's folder-sync
 * faults saw no event at all for files written in such a subfolder seconds later). chokidar reads each new
 * folder when it watches it, so what was made before the watch began is reported too.
 */
import { watch } from 'chokidar';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SyncFilter } from '../../../model/syncFilter';
import { isInsidePath } from '../../../model/syncQueue';

export function watchFolder(
  folder: string,
  filter: SyncFilter,
  onPath: (rel: string) => void,
  onError: (message: string) => void = () => undefined,
): vscode.Disposable[] {
  const relOf = (p: string): string | undefined => {
    const relative = path.relative(folder, p);
    if (relative === '' || path.isAbsolute(relative)) return undefined; // the folder itself, another drive
    const rel = relative.split(path.sep).join('/');
    return isInsidePath(rel) ? rel : undefined;
  };
  const changed = (p: string) => {
    const rel = relOf(p);
    if (rel === undefined) return;
    if (path.posix.basename(rel) === '.gitignore') filter.forget(path.posix.dirname(rel).replace(/^\.$/, ''));
    if (!filter.ignored(rel)) onPath(rel);
  };
  const fromVsCode = (uri: vscode.Uri) => {
    if (uri.scheme === 'file') changed(uri.fsPath);
  };
  const watcher = watch(folder, {
    ignoreInitial: true,
    followSymlinks: false,
    // A file nobody may read is reported too (chokidar leaves it out otherwise): rsync then says what it
    // could not read, in its own words.
    ignorePermissionErrors: true,
    // A left-out folder is not watched at all (node_modules, .venv…); a path outside the folder is not ours.
    ignored: (p, stats) => {
      const rel = relOf(p);
      if (rel === undefined) return p !== folder;
      return filter.ignored(rel, stats?.isDirectory() ?? false);
    },
  });
  watcher.on('all', (_event, p) => changed(p));
  watcher.on('error', (e) => onError(e instanceof Error ? e.message : String(e)));
  const ws = vscode.workspace;
  return [
    { dispose: () => void watcher.close() },
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
