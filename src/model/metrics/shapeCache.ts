/**
 * Line shapes: a training loop prints the same line again and again with other numbers in it
 * (`step=1200 loss=0.2314 lr=3e-4`, `line 500 of 100000`). Once the parser (parseLine.ts) has read such a
 * line, its shape is kept: the text around its numbers, and which number is the x and which each metric,
 * or that the line holds none. A later line of the same shape is read by comparing that text and scanning
 * the numbers, with no tokenizer, no pair rules and nothing allocated; any other line goes to the parser.
 * In the job-log reader's thread that matters beyond its own time: a thread that allocates a lot delays
 * the extension host's event loop in the same process (the collector's work is shared).
 *
 * A shape is kept only where it gives the parser's own answer (test/unit/metrics-shapes.test.ts reads
 * every line of the parser's tests and thousands of variants both ways): no `{...}` object and no quote or
 * escape in the text; the numbers are plain number tokens (no unit, no counter `n/N`, no thousands
 * separators, finite); the characters on both sides of each end a number whatever its digits (a
 * separator, a space, the line's end: not `.`, `/`, `%`, a letter or a digit, nor `,` before a digit); and
 * a point's values are those numbers as read (no epoch fraction, no unnamed rate). A new number must be
 * written the same way (numberForm: its sign, point and exponent; no `+` before it), so the tokenizer
 * would cut the line into the same tokens and the pair rules, which look at tokens and never at finite
 * values, would decide the same. No `vscode` import.
 */
import { end, kind, NUM, start, unitAt } from './tokens';
import type { MetricPoint } from './types';

export interface Shape {
  /** The text before the first number, between numbers, after the last (numbers + 1 parts). */
  readonly texts: readonly string[];
  /** Per number: how it is written (numberForm). */
  readonly forms: readonly number[];
  /** A line of this shape holds no metrics. */
  readonly none: boolean;
  /** The number that is the x (-1: none), its key; each metric's name and number, in the point's order. */
  readonly x: number;
  readonly xKey: string | undefined;
  readonly names: readonly string[];
  readonly of: readonly number[];
}

/** Shapes kept, most recently used first: a log interleaves a few (train, eval and progress lines). */
const MAX_SHAPES = 8;
/** Longer lines are not kept (the parser cuts a line at MAX_LINE, which a longer number could move). */
const MAX_SHAPE_LINE = 1000;
const MAX_NUMBERS = 64;
const shapes: Shape[] = [];
/** The numbers of the line matchShape last matched, in the shape's order. */
export const shapeNumbers = new Float64Array(MAX_NUMBERS);
/** Lines read by a shape (tests). */
let hits = 0;

/** What plainNumber read. */
const read = { value: 0, form: 0 };
const isDigit = (c: number) => c >= 48 && c <= 57;
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Whether s[i] may come right before a number of a shape (`=`, `:`, a space, `(`, `[`, `|`, `;`, and `,`
 *  after no digit: `12,5` would read as one count once the 5 became 567). */
function opensNumber(s: string, i: number): boolean {
  if (i < 0) return true;
  const c = s.charCodeAt(i);
  if (c === 44) return !isDigit(s.charCodeAt(i - 1));
  return c === 61 || c === 58 || c === 32 || c === 9 || c === 40 || c === 91 || c === 124 || c === 59;
}

/** Whether s[i] ends a number whatever its digits (a space, `,` before no digit, `;`, `|`, `)`, `]`). */
function closesNumber(s: string, i: number): boolean {
  if (i >= s.length) return true;
  const c = s.charCodeAt(i);
  if (c === 44) return !isDigit(s.charCodeAt(i + 1));
  return c === 32 || c === 9 || c === 59 || c === 124 || c === 41 || c === 93;
}

// How a number is written (read.form): what the tokenizer's and the first look's rules look at around its
// digits, which a number of a shape must keep: a sign, digits before the point, a point, an exponent and
// the exponent's sign (`1e5` and `1e-5` end in a letter and a `-` before their last digits).
const NEGATIVE = 1;
const INT_DIGITS = 2;
const DOT = 4;
const EXP = 8;
const EXP_MINUS = 16;
const EXP_PLUS = 32;

/** Where the plain number at s[i] ends (`[-]digits[.digits][e[-+]digits]`, or `.digits`; a digit right
 *  after `-`, as the parser's first look takes a number after a blank), or -1; its value (as the tokenizer
 *  computes it) and its form in `read`. */
function plainNumber(s: string, i: number): number {
  const from = i;
  let c = s.charCodeAt(i);
  let form = 0;
  if (c === 45) {
    form |= NEGATIVE;
    c = s.charCodeAt(++i);
    if (!isDigit(c)) return -1;
  }
  let m = 0;
  let digits = 0;
  let e = 0;
  if (isDigit(c)) form |= INT_DIGITS;
  while (isDigit(c)) {
    m = m * 10 + c - 48;
    digits++;
    c = s.charCodeAt(++i);
  }
  if (c === 46) {
    if (!isDigit(s.charCodeAt(i + 1))) return -1;
    form |= DOT;
    c = s.charCodeAt(++i);
    while (isDigit(c)) {
      m = m * 10 + c - 48;
      digits++;
      e--;
      c = s.charCodeAt(++i);
    }
  } else if (digits === 0) return -1;
  if (c === 101 || c === 69) {
    form |= EXP;
    c = s.charCodeAt(++i);
    const sign = c === 45 ? -1 : 1;
    if (c === 45) form |= EXP_MINUS;
    if (c === 43) form |= EXP_PLUS;
    if (c === 45 || c === 43) c = s.charCodeAt(++i);
    if (!isDigit(c)) return -1;
    let p = 0;
    while (isDigit(c)) {
      p = p * 10 + c - 48;
      c = s.charCodeAt(++i);
    }
    e += sign * Math.min(p, 9999);
  }
  read.form = form;
  // Exact in one step (at most 15 digits, |e| <= 22): the one rounding is the correct one, as Number() gives.
  if (digits <= 15 && e <= 22 && e >= -22) {
    const v = e < 0 ? m / POW10[-e] : m * POW10[e];
    read.value = form & NEGATIVE ? -v : v;
  } else read.value = Number(s.slice(from, i));
  return i;
}

/** The kept shape `s` has, its numbers in shapeNumbers; undefined when none fits. Allocates nothing. */
export function matchShape(s: string): Shape | undefined {
  for (let k = 0; k < shapes.length; k++) {
    const shape = shapes[k];
    if (!fits(shape, s)) continue;
    if (k > 0) {
      shapes.copyWithin(1, 0, k);
      shapes[0] = shape;
    }
    hits++;
    return shape;
  }
  return undefined;
}

function fits(shape: Shape, s: string): boolean {
  const { texts } = shape;
  const n = texts.length - 1;
  let i = 0;
  for (let k = 0; k < n; k++) {
    const t = texts[k];
    if (!s.startsWith(t, i)) return false;
    i += t.length;
    const e = plainNumber(s, i);
    if (e < 0 || read.form !== shape.forms[k] || !Number.isFinite(read.value)) return false;
    shapeNumbers[k] = read.value;
    i = e;
  }
  const last = texts[n];
  return s.length === i + last.length && s.endsWith(last);
}

/** The point of a line matchShape just matched (undefined: a shape of no metrics). */
export function shapePoint(shape: Shape): MetricPoint | undefined {
  if (shape.none) return undefined;
  const metrics = new Map<string, number>();
  for (let m = 0; m < shape.names.length; m++) metrics.set(shape.names[m], shapeNumbers[shape.of[m]]);
  return shape.x < 0 ? { metrics } : { x: shapeNumbers[shape.x], xKey: shape.xKey, metrics };
}

/** Recent lines' outlines (their text with each run of digits as one mark, hashed): a shape is learnt the
 *  second time an outline comes, so a log whose lines never repeat pays for no learning. */
const outlines = new Int32Array(16);
let nextOutline = 0;

/** Whether a line with the outline of `s` came among the last few the parser read; notes this one. */
export function seenOutline(s: string): boolean {
  let h = 0x811c9dc5 | 0;
  let inDigits = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c)) {
      if (inDigits) continue;
      inDigits = true;
      h = Math.imul(h ^ 48, 0x01000193);
    } else {
      inDigits = false;
      h = Math.imul(h ^ c, 0x01000193);
    }
  }
  if (outlines.includes(h)) return true;
  outlines[nextOutline] = h;
  nextOutline = (nextOutline + 1) % outlines.length;
  return false;
}

/**
 * Keep the shape of `s`, which the pair rules just read from the tokens still in tokens.ts: into `point`
 * with each value from the token `tokens` names (collect.ts pointTokens), or (no point) into nothing. Not
 * kept when a value's token, or every token, is no plain number (see the file comment).
 */
export function learnShape(
  s: string,
  point: MetricPoint | undefined,
  tokens: { readonly x: number; readonly metrics: readonly number[] } | undefined,
  count: number,
): void {
  if (s.length > MAX_SHAPE_LINE || (point && !tokens)) return;
  const texts: string[] = [];
  const forms: number[] = [];
  const index = new Map<number, number>();
  let from = 0;
  for (let t = 0; t < count && index.size < MAX_NUMBERS; t++) {
    const a = start[t];
    const b = end[t];
    if (kind[t] !== NUM || unitAt[t] !== b || !opensNumber(s, a - 1) || !closesNumber(s, b)) continue;
    if (plainNumber(s, a) !== b || !Number.isFinite(read.value)) continue;
    index.set(t, index.size);
    texts.push(s.slice(from, a));
    forms.push(read.form);
    from = b;
  }
  texts.push(s.slice(from));
  // A quote may pair with one beyond a number (the tokenizer's strings), an escape run over it: not kept.
  if (index.size === 0 || texts.some((t) => /['"\x1b]/.test(t))) return;
  const at = (t: number) => index.get(t) ?? -1;
  const of = tokens && point ? tokens.metrics.map(at) : [];
  const x = tokens && tokens.x >= 0 ? at(tokens.x) : -1;
  if (of.includes(-1) || (tokens && tokens.x >= 0 && x < 0)) return;
  const names = point ? [...point.metrics.keys()] : [];
  if (names.length !== of.length) return;
  shapes.unshift({ texts, forms, none: !point, x, xKey: point?.xKey, names, of });
  if (shapes.length > MAX_SHAPES) shapes.pop();
}

/** Forget every shape (tests); returns how many lines were read by a shape since the last time. */
export function forgetShapes(): number {
  shapes.length = 0;
  outlines.fill(0);
  const n = hits;
  hits = 0;
  return n;
}
