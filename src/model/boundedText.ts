/**
 * Text chunks in arrival order, at most `maxChars` characters and (optionally) `maxLines` lines in all:
 * when a push goes over either, the oldest chunks are dropped (the newest always stays). Constant time
 * per push however full it is: dropping advances a head index (the arrays are compacted now and then),
 * never Array.shift(), which copies the whole array and made a 100,000-line job log cost seconds of
 * blocked extension host once the cap was reached. No `vscode` import.
 */
const COMPACT_AT = 1024;

export class BoundedText {
  private chunks: string[] = [];
  /** Lines per chunk (as told by push), parallel to `chunks`. */
  private counts: number[] = [];
  private head = 0;
  private chars = 0;
  private lines = 0;

  constructor(
    private readonly maxChars: number,
    /** Told about each chunk dropped to stay under the caps, with its line count. */
    private readonly onDrop?: (chunk: string, lines: number) => void,
    private readonly maxLines = Infinity,
  ) {}

  /** Characters held. */
  get size(): number {
    return this.chars;
  }

  /** Lines held (as counted by the pushes). */
  get lineCount(): number {
    return this.lines;
  }

  get isEmpty(): boolean {
    return this.head === this.chunks.length;
  }

  /** Add a chunk holding `lines` lines (1 unless told). */
  push(chunk: string, lines = 1): void {
    this.chunks.push(chunk);
    this.counts.push(lines);
    this.chars += chunk.length;
    this.lines += lines;
    while ((this.chars > this.maxChars || this.lines > this.maxLines) && this.chunks.length - this.head > 1) {
      const old = this.chunks[this.head];
      const oldLines = this.counts[this.head];
      this.chunks[this.head++] = '';
      this.chars -= old.length;
      this.lines -= oldLines;
      this.onDrop?.(old, oldLines);
    }
    if (this.head >= COMPACT_AT && this.head * 2 >= this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.counts = this.counts.slice(this.head);
      this.head = 0;
    }
  }

  /** Everything held, oldest first, as one string. */
  text(): string {
    return (this.head === 0 ? this.chunks : this.chunks.slice(this.head)).join('');
  }

  clear(): void {
    this.chunks = [];
    this.counts = [];
    this.head = 0;
    this.chars = 0;
    this.lines = 0;
  }
}
