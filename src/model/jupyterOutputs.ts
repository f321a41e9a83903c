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
 * One stream of a cell (stdout or stderr): what it printed so far, up to `limit` characters. Once the limit
 * is reached, later text is counted but not kept; `text` then ends with a line saying how much was cut.
 */
export class BoundedStream {
  private kept = '';
  private dropped = 0;

  constructor(private readonly limit = STREAM_LIMIT) {}

  /** Add text; whether what is shown changed. */
  append(chunk: string): boolean {
    if (this.dropped > 0) {
      this.dropped += chunk.length;
      return false;
    }
    const room = this.limit - this.kept.length;
    if (chunk.length <= room) {
      this.kept += chunk;
      return chunk.length > 0;
    }
    // Cut at the last line end that fits, so no line shows half.
    const part = chunk.slice(0, room);
    const nl = part.lastIndexOf('\n');
    const keep = nl >= 0 ? part.slice(0, nl + 1) : part;
    this.kept += keep;
    this.dropped = chunk.length - keep.length;
    return true;
  }

  get cut(): number {
    return this.dropped;
  }

  /** What the cell shows (the cut said once at the end). */
  text(cutLine: (chars: number) => string): string {
    return this.dropped > 0
      ? `${this.kept}${this.kept.endsWith('\n') ? '' : '\n'}${cutLine(this.dropped)}\n`
      : this.kept;
  }
}
