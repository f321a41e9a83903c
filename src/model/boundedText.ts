/**
 * Text chunks in arrival order, at most `maxChars` in all: when a push goes over, the oldest chunks are
 * dropped (the newest always stays). Constant time per push however full it is: dropping advances a
 * head index (the array is compacted now and then), never Array.shift(), which copies the whole array
 * and made a 100,000-line job log cost seconds of blocked extension host once the cap was reached.
 * No `vscode` import.
 */
const COMPACT_AT = 1024;

export class BoundedText {
  private chunks: string[] = [];
  private head = 0;
  private chars = 0;

  constructor(
    private readonly maxChars: number,
    /** Told about each chunk dropped to stay under the cap. */
    private readonly onDrop?: (chunk: string) => void,
  ) {}

  /** Characters held. */
  get size(): number {
    return this.chars;
  }

  get isEmpty(): boolean {
    return this.head === this.chunks.length;
  }

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.chars += chunk.length;
    while (this.chars > this.maxChars && this.chunks.length - this.head > 1) {
      const old = this.chunks[this.head];
      this.chunks[this.head++] = '';
      this.chars -= old.length;
      this.onDrop?.(old);
    }
    if (this.head >= COMPACT_AT && this.head * 2 >= this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /** Everything held, oldest first, as one string. */
  text(): string {
    return (this.head === 0 ? this.chunks : this.chunks.slice(this.head)).join('');
  }

  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.chars = 0;
  }
}
