// A real job's `outputs` (engine/jobRunner.ts): the job file's entries (files, folders, globs) matched
// against the files in the job's folder on the node when it ends. A folder (`checkpoints/` or
// `checkpoints`) means every file under it; `*` and `?` stay within one path segment, `**` crosses
// them. A symbolic link is kept only when it resolves to a file inside the job folder; folders behind
// links are not entered.

import * as fs from 'node:fs';
import * as path from 'node:path';

const MAX_FILES = 100_000;

/** Every file under `root` as a relative POSIX path (links resolving outside `root` left out). */
function walk(root: string): string[] {
  const out: string[] = [];
  const realRoot = fs.realpathSync(root);
  const inside = (p: string) => p === realRoot || p.startsWith(realRoot + path.sep);
  const visit = (dir: string, rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      const abs = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(abs, r);
      else if (e.isFile()) out.push(r);
      else if (e.isSymbolicLink()) {
        try {
          const target = fs.realpathSync(abs);
          if (inside(target) && fs.statSync(target).isFile()) out.push(r);
        } catch {
          // a dangling link
        }
      }
    }
  };
  visit(realRoot, '');
  return out;
}

function globRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Normalise one `outputs` entry: no leading `./`, no `..` (an entry that climbs out matches nothing). */
function clean(entry: string): string | undefined {
  const e = entry.trim().replace(/^(\.\/)+/, '');
  if (e === '' || e.startsWith('/') || e.split('/').includes('..')) return undefined;
  return e;
}

/** The files of `jobDir` that the `outputs` entries name, sorted, each once. */
export function matchOutputs(jobDir: string, outputs: string[]): string[] {
  if (!fs.existsSync(jobDir)) return [];
  const files = walk(jobDir);
  const found = new Set<string>();
  for (const entry of outputs) {
    const e = clean(entry);
    if (!e) continue;
    const folder = e.replace(/\/+$/, '');
    const re = globRegex(folder);
    for (const f of files) if (re.test(f) || f.startsWith(`${folder}/`)) found.add(f);
    // A glob naming folders (`runs/*`): the files under each folder it matches.
    for (const f of files) {
      const parts = f.split('/');
      for (let n = 1; n < parts.length; n++) if (re.test(parts.slice(0, n).join('/'))) found.add(f);
    }
  }
  return [...found].sort();
}

/** rsync filter arguments that pull the same entries from a running job's folder. */
export function rsyncFilters(outputs: string[]): string[] {
  const args = ["--include='*/'"];
  for (const entry of outputs) {
    const e = clean(entry);
    if (!e) continue;
    const folder = e.replace(/\/+$/, '');
    args.push(`--include=${shellQuote(`/${folder}`)}`, `--include=${shellQuote(`/${folder}/***`)}`);
  }
  args.push("--exclude='*'", '--prune-empty-dirs');
  return args;
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
