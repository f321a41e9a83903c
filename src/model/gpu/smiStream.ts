/**
 * Splits the output of a long-running `nvidia-smi --query-gpu=... --format=csv,noheader,nounits -lms N`
 * (or `-l N`) into samples. The tool prints one line per GPU per interval, in index order, with no
 * separator between intervals (test/fixtures/nvidia-smi/busy-queries.txt), so one sample is one block
 * of lines:
 *  - with `gpuCount` known (from `-L` or an earlier sample), a block ends at its N-th GPU row;
 *  - without it, a block ends when a row's index is not above the previous row's (the next interval
 *    began), or at `end()`.
 * Chunks may split lines anywhere; `\r\n` is accepted. Garbage lines are skipped and counted in the
 * sample they fell into; the driver failure text (the driver can go away mid-stream) is an event of
 * its own. Pure: the clock is a parameter.
 */
import { isDriverFailure, parseGpuLine } from './smiParse';
import { GPU_QUERY_FIELDS, type GpuReading, type GpuSample } from './smiValues';

export type StreamEvent =
  | { readonly kind: 'sample'; readonly sample: GpuSample }
  | { readonly kind: 'driver-failure'; readonly message: string };

export interface SplitterOptions {
  /** GPUs per sample, when known. */
  readonly gpuCount?: number;
  readonly fields?: readonly string[];
  /** The time a sample is stamped with: when its last line arrived. */
  readonly now: () => number;
  /** Longest partial line kept while waiting for its end (garbage without newlines is dropped). */
  readonly maxLineChars?: number;
}

export class SmiStreamSplitter {
  private partial = '';
  private block: GpuReading[] = [];
  private skipped = 0;
  private gpuCount: number | undefined;
  private readonly fields: readonly string[];
  private readonly maxLine: number;

  constructor(private readonly opts: SplitterOptions) {
    this.gpuCount = opts.gpuCount && opts.gpuCount > 0 ? opts.gpuCount : undefined;
    this.fields = opts.fields ?? GPU_QUERY_FIELDS;
    this.maxLine = opts.maxLineChars ?? 4096;
  }

  /** The GPU count in use (learnt from the first complete block when not given). */
  get count(): number | undefined {
    return this.gpuCount;
  }

  /** Feed a chunk; returns the events it completed. */
  push(chunk: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    const text = this.partial + chunk;
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxLine) {
      this.partial = '';
      this.skipped++;
    }
    for (const raw of parts) this.line(raw.replace(/\r$/, ''), events);
    return events;
  }

  /** The stream ended: the last line without a newline and an unfinished block. */
  end(): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (this.partial.trim() !== '') this.line(this.partial, events);
    this.partial = '';
    this.flush(events);
    return events;
  }

  private line(raw: string, events: StreamEvent[]): void {
    const line = raw.trim();
    if (line === '') return;
    if (isDriverFailure(line)) {
      this.flush(events);
      events.push({ kind: 'driver-failure', message: line });
      return;
    }
    const gpu = parseGpuLine(line, this.fields);
    if (!gpu) {
      this.skipped++;
      return;
    }
    const last = this.block[this.block.length - 1];
    if (last && gpu.index <= last.index) {
      // A new interval began before the block was complete (a GPU went missing, or the count is unknown).
      if (this.gpuCount === undefined) this.gpuCount = this.block.length;
      this.flush(events);
    }
    this.block.push(gpu);
    if (this.gpuCount !== undefined && this.block.length >= this.gpuCount) this.flush(events);
  }

  private flush(events: StreamEvent[]): void {
    if (this.block.length === 0) return;
    events.push({
      kind: 'sample',
      sample: { time: this.opts.now(), gpus: this.block, skipped: this.skipped },
    });
    this.block = [];
    this.skipped = 0;
  }
}
