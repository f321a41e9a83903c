// Processes under a process, read from /proc (Linux), for tests and the bench.
import * as fs from 'node:fs';

/** The live descendants of `root` (this process by default; pid -> command), from /proc. */
export function descendants(root = process.pid): Map<number, string> {
  const parent = new Map<number, number>();
  const names = new Map<number, string>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(e), Number(rest[1]));
      names.set(Number(e), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
    } catch {
      // ended meanwhile
    }
  }
  const out = new Map<number, string>();
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && hops < 64; p = parent.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  for (const pid of parent.keys()) if (under(pid)) out.set(pid, names.get(pid) ?? '?');
  return out;
}
