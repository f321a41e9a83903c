// The processes a node leaves behind: sshd's sessions run in their own sessions (not its process group),
// so a node is ended by walking the process tree from its sshd (Linux /proc) and signalling all of it.

import * as fs from 'node:fs';

/** pid -> parent pid of every process this user can see (Linux /proc). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.set(Number(e), ppid);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The process and everything below it (sshd's sessions run in their own sessions, not its group). */
export function processTree(pid: number): number[] {
  const map = parents();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [p, pp] of map) if (pp === tree[i]) tree.push(p);
  return tree;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      // already gone
    }
  }
}

/** TERM the tree, KILL what is left after `graceMs`. Resolves when none of it is alive. */
export async function killTree(pid: number, graceMs = 1000): Promise<void> {
  const tree = processTree(pid);
  signal(tree, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  signal(tree.filter(alive), 'SIGKILL');
}

/** Synchronous last resort (process exit): KILL the tree now. */
export function killTreeNow(pid: number): void {
  signal(processTree(pid), 'SIGKILL');
}

/** The command line of a process, arguments joined by spaces ('' when gone or unreadable). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Processes whose working folder is inside `dir` (a node's sessions whose sshd already ended: a command left
 *  running after its ssh client went away is reparented and no longer below sshd). */
function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${e}/cwd`).replace(/ \(deleted\)$/, '');
      if (cwd === dir || cwd.startsWith(`${dir}/`)) out.push(Number(e));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** KILL the processes working inside `dir`. */
export function killIn(dir: string): void {
  signal(processesIn(dir), 'SIGKILL');
}
