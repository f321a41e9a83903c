/**
 * Which changed paths a watched sync leaves out, the same rules the first sync gives rsync: each
 * `.gitignore` for the paths below its folder, and the excluded patterns (the `tensorpool.sync.exclude`
 * setting) anywhere. A `.gitignore`'s text is read through `read` (relative folder → text or undefined),
 * kept until `forget`. Pure apart from what `read` does.
 */
import ignore, { type Ignore } from 'ignore';

export class SyncFilter {
  private readonly excluded: Ignore;
  private readonly gitignores = new Map<string, Ignore | undefined>();

  constructor(
    excludes: readonly string[],
    private readonly read: (dir: string) => string | undefined,
  ) {
    this.excluded = ignore().add(excludes.filter((e) => e.trim() !== ''));
  }

  /** Whether the relative path `rel` (a file, or with `dir` a folder) is left out. */
  ignored(rel: string, dir = false): boolean {
    const parts = rel.split('/');
    for (let n = 1; n <= parts.length; n++) {
      const here = parts.slice(0, n).join('/');
      // The path itself, and each folder above it (a left-out folder leaves out everything below).
      const asDir = n < parts.length || dir;
      if (matches(this.excluded, asDir ? `${here}/` : here)) return true;
      for (let d = 0; d < n; d++) {
        const dir = parts.slice(0, d).join('/');
        const rules = this.rulesOf(dir);
        const below = parts.slice(d, n).join('/');
        if (rules && matches(rules, asDir ? `${below}/` : below)) return true;
      }
    }
    return false;
  }

  /** A `.gitignore` changed: read it again next time. */
  forget(dir: string): void {
    this.gitignores.delete(dir);
  }

  private rulesOf(dir: string): Ignore | undefined {
    if (!this.gitignores.has(dir)) {
      const text = this.read(dir);
      this.gitignores.set(dir, text === undefined ? undefined : ignore().add(text));
    }
    return this.gitignores.get(dir);
  }
}

/** `rules.ignores(p)`, false for a name the library refuses (such as `...`): sent, as rsync would. */
function matches(rules: Ignore, p: string): boolean {
  try {
    return rules.ignores(p);
  } catch {
    return false;
  }
}
