/**
 * A Jupyter kernel's outputs as a notebook cell shows them (src/vscode/notebooks/onUse/cellRun.ts): the mime
 * bundle of `execute_result` / `display_data` as items in the order VS Code's renderers should prefer them
 * (richest first), with the bytes each item carries (images decoded from base64, JSON as text), and a stream
 * (stdout, stderr) kept bounded. Pure functions.
 */

export interface MimeItem {
  readonly mime: string;
  readonly data: Uint8Array;
}

/** The mime types shown, richest first; others are kept after them as sent. */
const ORDER = [
  'application/vnd.jupyter.widget-view+json',
  'application/json',
  'text/html',
  'image/svg+xml',
  'image/png',
  'image/jpeg',
  'text/markdown',
  'text/latex',
  'text/plain',
];

const utf8 = new TextEncoder();
const BINARY = new Set(['image/png', 'image/jpeg', 'image/gif']);

function text(v: unknown): string {
  return Array.isArray(v) ? v.join('') : typeof v === 'string' ? v : JSON.stringify(v);
}

/** One item of a mime bundle. */
function item(mime: string, value: unknown): MimeItem {
  if (BINARY.has(mime)) return { mime, data: Buffer.from(text(value).replace(/\s+/g, ''), 'base64') };
  if (mime === 'application/json' || mime.endsWith('+json'))
    return { mime, data: utf8.encode(typeof value === 'string' ? value : JSON.stringify(value)) };
  return { mime, data: utf8.encode(text(value)) };
}

/** The largest item of a mime bundle shown (bytes); a larger one is left out and that is said. */
const ITEM_LIMIT = 5_000_000;

/**
 * The items of a mime bundle (`data` of execute_result, display_data, update_display_data). An item over
 * `limit` bytes is left out; then a text/plain item saying so (`tooBig(mime, bytes)`) comes first.
 */
export function mimeItems(
  data: Readonly<Record<string, unknown>>,
  tooBig: (mime: string, bytes: number) => string,
  limit = ITEM_LIMIT,
): MimeItem[] {
  const mimes = Object.keys(data);
  const rank = (m: string) => {
    const i = ORDER.indexOf(m);
    return i < 0 ? ORDER.length - 0.5 : i;
  };
  const all = mimes.sort((a, b) => rank(a) - rank(b)).map((m) => item(m, data[m]));
  const big = all.filter((i) => i.data.byteLength > limit);
  if (!big.length) return all;
  const note = big.map((i) => tooBig(i.mime, i.data.byteLength)).join('\n');
  const kept = all.filter((i) => i.data.byteLength <= limit && i.mime !== 'text/plain');
  return [{ mime: 'text/plain', data: utf8.encode(note) }, ...kept];
}

/** How much of a stream one cell keeps (characters); the rest is cut and the cut is said. */
const STREAM_LIMIT = 1_000_000;

/**
 * One stream of a cell (stdout or stderr): what it printed so far, up to `limit` characters. A carriage return
 * starts its line again, as in a terminal and in Jupyter's own front ends: the text after it replaces the line
 * (a progress bar such as tqdm's redraws one line instead of adding one per update; `\r\n` is a line end, also
 * split across two chunks). Once the limit is reached, later text is counted but not kept; `text` then ends
 * with a line saying how much was cut.
 */
export class BoundedStream {
  /** Whole lines. */
  private kept = '';
  /** The line being written. */
  private line = '';
  /** A carriage return came: the next text replaces the line. */
  private restart = false;
  private dropped = 0;

  constructor(private readonly limit = STREAM_LIMIT) {}

  /** Add text; whether what is shown changed. */
  append(chunk: string): boolean {
    if (this.dropped > 0) {
      this.dropped += chunk.length;
      return false;
    }
    // Whole lines with no carriage return and room for all of them (what a fast printing loop sends): taken
    // at once, not line by line.
    if (
      !this.restart &&
      !chunk.includes('\r') &&
      this.kept.length + this.line.length + chunk.length <= this.limit
    ) {
      const end = chunk.lastIndexOf('\n');
      if (end < 0) this.line += chunk;
      else {
        this.kept += this.line + chunk.slice(0, end + 1);
        this.line = chunk.slice(end + 1);
      }
      return chunk.length > 0;
    }
    const shown = this.kept.length;
    const line = this.line;
    for (const token of chunk.split(/(\r\n|\r|\n)/)) {
      if (this.dropped > 0) this.dropped += token.length;
      else if (token === '\n' || token === '\r\n') this.keep(`${this.line}\n`);
      else if (token === '\r') this.restart = true;
      else if (token !== '') {
        this.line = this.restart ? token : this.line + token;
        this.restart = false;
        // A line longer than the room left is cut whole (no line shows half), unless it is all there is (a
        // stream of one long line): then what fits is kept.
        const room = this.limit - this.kept.length;
        if (this.line.length > room) {
          const fits = this.kept === '' ? this.line.slice(0, room) : '';
          this.kept += fits;
          this.dropped = this.line.length - fits.length;
          this.line = '';
        }
      }
    }
    return this.kept.length !== shown || this.line !== line || this.dropped > 0;
  }

  /** A finished line: kept whole if it fits, else cut (no line shows half). */
  private keep(text: string): void {
    this.line = '';
    this.restart = false;
    if (text.length <= this.limit - this.kept.length) this.kept += text;
    else this.dropped = text.length;
  }

  get cut(): number {
    return this.dropped;
  }

  /** What the cell shows (the cut said once at the end). */
  text(cutLine: (chars: number) => string): string {
    return this.dropped > 0
      ? `${this.kept}${this.kept.endsWith('\n') ? '' : '\n'}${cutLine(this.dropped)}\n`
      : this.kept + this.line;
  }
}
