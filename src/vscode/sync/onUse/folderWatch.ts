/**
 * A folder's watch through the system's file events: one `fs.watch` per folder (inotify on Linux), the
 * left-out folders not watched, nothing polled, no process. A folder made or moved in while watching is
 * watched at once, and the folders below it too: its watch is made first, then its entries are read, so
 * what is made meanwhile is either read or reported (the changed folder itself is reported as well, and a
 * reported folder is walked when it is sent). A watched folder that goes (deleted, moved away) ends its
 * watches and those below it. No `vscode` here.
 */
import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface FolderWatchOptions {
  /** Whether the folder at `rel` (relative to the watched one, `/`-separated) is left out: not watched. */
  skipFolder(rel: string): boolean;
  /** A path changed (made, written, deleted, renamed): a file or a folder, relative, `/`-separated. */
  changed(rel: string): void;
  /** A folder could not be watched (the system's limit of watches, no permission): said, the rest watched. */
  failed(rel: string, message: string): void;
}

export class FolderWatch {
  /** The watch of each folder, by its relative path ('' is the watched folder). */
  private readonly watches = new Map<string, fs.FSWatcher>();
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly o: FolderWatchOptions,
  ) {
    this.add('');
  }

  /** How many folders are watched. */
  get folders(): number {
    return this.watches.size;
  }

  close(): void {
    this.closed = true;
    for (const w of this.watches.values()) w.close();
    this.watches.clear();
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : path.join(this.root, ...rel.split('/'));
  }

  /** Watch the folder `rel`, then each folder below it that is not left out. */
  private add(rel: string): void {
    if (this.closed || this.watches.has(rel)) return;
    const dir = this.abs(rel);
    let watch: fs.FSWatcher;
    try {
      watch = fs.watch(dir, { persistent: false }, (_kind, name) => this.event(rel, name));
    } catch (e) {
      // Gone already (made and deleted at once) is no failure.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.o.failed(rel, describe(e));
      return;
    }
    watch.on('error', () => this.drop(rel)); // the folder went (its parent's event says so too)
    this.watches.set(rel, watch);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue; // a link to a folder is not followed
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (!this.o.skipFolder(child)) this.add(child);
    }
  }

  private event(dir: string, name: string | null): void {
    if (this.closed) return;
    // Without a name (some systems, an overflow) the folder is reported: walked when it is sent.
    if (name === null) {
      if (dir !== '') this.o.changed(dir);
      return;
    }
    const rel = dir === '' ? name : `${dir}/${name}`;
    this.o.changed(rel);
    const st = fs.lstatSync(this.abs(rel), { throwIfNoEntry: false });
    if (st?.isDirectory()) {
      if (!this.watches.has(rel) && !this.o.skipFolder(rel)) this.add(rel);
    } else if (this.watches.has(rel)) this.drop(rel);
  }

  /** The folder `rel` went: its watch and those below it end. */
  private drop(rel: string): void {
    for (const [k, w] of [...this.watches]) {
      if (k !== rel && !(rel === '' || k.startsWith(`${rel}/`))) continue;
      w.close();
      this.watches.delete(k);
    }
  }
}

function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC')
    return l10n.t(
      "the system's limit of watched folders is reached (on Linux, raise fs.inotify.max_user_watches)",
    );
  return e instanceof Error ? e.message : String(e);
}
