/**
 * The one command a node runs for its GPU telemetry, and the reading of what it prints.
 *
 * One ssh session per watched node runs a small POSIX shell loop: every interval it prints a start
 * marker, the `--query-gpu` rows, the tool's exit status, the `--query-compute-apps` rows and that
 * exit status, then sleeps. So one connection carries every sample (never a connection per sample),
 * both queries arrive as one block, and "not installed" (exit 127), the driver failure text and
 * garbage are read per block exactly as for a single run (smiParse.ts nodeGpuState). A hanging
 * nvidia-smi simply sends no block: the node goes stale (aggregate.ts freshness).
 * Pure: no I/O, no vscode.
 */
import { nodeGpuState, type NodeGpuState } from './smiParse';
import { APP_QUERY_ARGS, GPU_QUERY_ARGS } from './smiValues';

const MARK = '@@tp-gpu';

/** The remote command (one argument to ssh; the node's login shell runs it with `-c`). The interval
 *  is in seconds (fractions allowed: GNU and BusyBox sleep take them); `once` runs one block and ends. */
export function loopCommand(intervalSeconds: number, once = false): string {
  const s = Math.max(0.1, Math.round(intervalSeconds * 10) / 10);
  const body =
    `echo ${MARK}-begin; nvidia-smi ${GPU_QUERY_ARGS.join(' ')} 2>&1; echo ${MARK}-rc $?; ` +
    `nvidia-smi ${APP_QUERY_ARGS.join(' ')} 2>&1; echo ${MARK}-apps $?`;
  return once ? body : `while :; do ${body}; sleep ${s} || exit; done`;
}

/** Splits the loop's output into node states, one per complete block; chunks may cut lines anywhere. */
export class SmiLoopReader {
  private partial = '';
  private gpu: string[] | undefined;
  private gpuRc: number | undefined;
  private apps: string[] | undefined;

  constructor(private readonly now: () => number) {}

  push(chunk: string): NodeGpuState[] {
    const out: NodeGpuState[] = [];
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    if (this.partial.length > 65_536) this.partial = '';
    for (const raw of parts) this.line(raw.replace(/\r$/, ''), out);
    return out;
  }

  private line(line: string, out: NodeGpuState[]): void {
    if (line === `${MARK}-begin`) {
      this.gpu = [];
      this.apps = undefined;
      return;
    }
    const rc = /^@@tp-gpu-(rc|apps) (\d+)$/.exec(line);
    if (rc && this.gpu) {
      if (rc[1] === 'rc') {
        this.gpuRc = Number(rc[2]);
        this.apps = [];
        return;
      }
      const gpu = this.gpu.join('\n');
      const status = Number(rc[2]);
      const apps = this.apps?.join('\n') ?? '';
      this.gpu = this.apps = undefined;
      // The 2>&1 above: the tool's words are in stdout; "command not found" is read from there too.
      out.push(
        nodeGpuState({ stdout: gpu, stderr: gpu, exitCode: this.gpuRc }, this.now(), {
          stdout: apps,
          exitCode: status,
        }),
      );
      return;
    }
    if (this.apps) this.apps.push(line);
    else if (this.gpu && this.gpu.length < 4096) this.gpu.push(line);
  }
}
