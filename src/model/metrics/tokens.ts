/**
 * The metric-line tokenizer: one pass over a line's characters into module-level typed arrays (no
 * objects, no strings per token; the caller slices only what becomes a name). It runs in the job-log
 * worker thread, one line at a time, so the scratch arrays are shared and every call starts afresh.
 *
 * What a number is matters most: a number must stand alone, or end in a unit we know (units in
 * names.ts). A run starting with a digit that goes on with something else (`2026-11-27`, `10:14:22`,
 * `10.0.0.1:29500`, `3.11.4`, `3fa2b1c`, `34C`) is JUNK, never a value; so is a count with thousands
 * separators (`11,689,512`) except right after `:` or `=`. `n/N` with
 * whole numbers (also `100 / 1000`) is a COUNTER. No `vscode` import, no I/O.
 */
import { parseUnit } from './names';
import { afterSeparator, digitsValue, fastNumber, groupsEnd } from './numbers';

export const WORD = 1;
export const NUM = 2;
export const COUNTER = 3;
const JUNK = 4;
export const STRING = 5;
export const EQ = 6;
export const COLON = 7;
export const COMMA = 8;
export const PIPE = 9;
export const SEMI = 10;
export const LBRACK = 11;
export const RBRACK = 12;
export const LPAREN = 13;
export const RPAREN = 14;
/** One space. */
export const SPACE = 15;
/** Two or more spaces, or a tab: a column gap. */
export const GAP = 16;
/** ` - ` (Keras, some loggers): a separator. */
export const DASH = 17;
export const OTHER = 18;

const MAX_TOKENS = 2048;
/** The kind of each token; after the last, three 0s (END), so looking a few tokens ahead needs no bounds
 *  check and never sees an earlier line's tokens. */
export const kind = new Uint8Array(MAX_TOKENS + 3);
const END = 0;
export const start = new Int32Array(MAX_TOKENS);
export const end = new Int32Array(MAX_TOKENS);
/** NUM: its value; COUNTER: n. */
export const num = new Float64Array(MAX_TOKENS);
/** COUNTER: N. */
export const den = new Float64Array(MAX_TOKENS);
/** NUM: where its unit starts (`end` when it has none). */
export const unitAt = new Int32Array(MAX_TOKENS);

let n = 0;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isAlnum = (c: number) => isDigit(c) || isLetter(c);
const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 10 || c === 11 || c === 12;
const isWordChar = (c: number) => isAlnum(c) || c === 95 || c === 46 || c === 45 || c === 47 || c === 64; // _ . - / @
const isUnitChar = (c: number) => isLetter(c) || c === 181 || c === 956; // µ μ

/** Characters that end a junk run (what separates things on a line). */
function endsJunk(c: number): boolean {
  return (
    Number.isNaN(c) ||
    isSpace(c) ||
    c === 44 || // ,
    c === 124 || // |
    c === 59 || // ;
    c === 40 || // (
    c === 41 || // )
    c === 91 || // [
    c === 93 || // ]
    c === 123 || // {
    c === 125 || // }
    c === 39 || // '
    c === 34 || // "
    c === 60 || // <
    c === 62 || // >
    c === 61 // =
  );
}

/** Whether a number may end before s[i]: `.`, `:`, `-`, `+` end it only when no digit or letter follows
 *  (`4.2.` ends a sentence; `3.11.4`, `10:14`, `2026-11` do not). */
function endsNumber(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c === 46 || c === 45 || c === 43) return !isAlnum(s.charCodeAt(i + 1));
  if (c === 58) return !isDigit(s.charCodeAt(i + 1));
  if (c === 47 || c === 95 || c === 37) return false;
  return !isUnitChar(c) && !isDigit(c);
}

function push(k: number, from: number, to: number): void {
  kind[n] = k;
  start[n] = from;
  end[n] = to;
  n++;
}

function junk(s: string, from: number, i: number): number {
  while (!endsJunk(s.charCodeAt(i))) i++;
  push(JUNK, from, i);
  return i;
}

/** s[i] is a digit, `.digit` or a sign before one. Returns where the token ends. */
function scanNumber(s: string, i: number): number {
  const from = i;
  let c = s.charCodeAt(i);
  const negative = c === 45;
  if (c === 43 || c === 45) c = s.charCodeAt(++i);
  const intFrom = i;
  let m = 0;
  let digits = 0;
  let exp = 0;
  while (isDigit(c)) {
    m = m * 10 + c - 48;
    digits++;
    c = s.charCodeAt(++i);
  }
  const intDigits = i - intFrom;
  let whole = intDigits > 0;
  if (c === 46 && isDigit(s.charCodeAt(i + 1))) {
    whole = false;
    c = s.charCodeAt(++i);
    while (isDigit(c)) {
      m = m * 10 + c - 48;
      digits++;
      exp--;
      c = s.charCodeAt(++i);
    }
  }
  if ((c === 101 || c === 69) && digits > 0) {
    let j = i + 1;
    let d = s.charCodeAt(j);
    const sign = d === 45 ? -1 : 1;
    if (d === 43 || d === 45) d = s.charCodeAt(++j);
    if (isDigit(d)) {
      whole = false;
      let e = 0;
      while (isDigit((d = s.charCodeAt(j)))) {
        e = e * 10 + d - 48;
        j++;
      }
      exp += sign * Math.min(e, 9999);
      i = j;
      c = s.charCodeAt(i);
    }
  }
  const numEnd = i;
  // 11,689,512: a count with thousands separators, not a value followed by a comma: a value after `:` or `=`
  // (torchtitan's `tps: 12,345`), else JUNK (a count in prose).
  if (whole && intDigits <= 3 && c === 44 && isDigit(s.charCodeAt(i + 1)) && isDigit(s.charCodeAt(i + 3))) {
    if (isDigit(s.charCodeAt(i + 2)) && !isDigit(s.charCodeAt(i + 4))) {
      const j = groupsEnd(s, i);
      if (!afterSeparator(s, from) || !endsNumber(s, j) || isUnitChar(s.charCodeAt(j)))
        return junk(s, from, j);
      num[n] = Number(s.slice(from, j).replace(/,/g, ''));
      unitAt[n] = j;
      push(NUM, from, j);
      return j;
    }
  }
  if (c === 47 /* / */ || (c === 32 && whole)) {
    // n/N, n / N, n/ N: a counter; x/unit: a bare rate (`256/s`)
    let j = i;
    while (s.charCodeAt(j) === 32) j++;
    if (s.charCodeAt(j) === 47 && whole && (j === i || s.charCodeAt(j + 1) === 32)) {
      let k = j + 1;
      while (s.charCodeAt(k) === 32) k++;
      const denFrom = k;
      while (isDigit(s.charCodeAt(k))) k++;
      if (k > denFrom && endsNumber(s, k) && s.charCodeAt(k) !== 47) {
        num[n] = digits <= 15 ? m : Number(s.slice(intFrom, numEnd));
        den[n] =
          k - denFrom <= 15 ? fastNumber(digitsValue(s, denFrom, k), 0, 0) : Number(s.slice(denFrom, k));
        push(COUNTER, from, k);
        return k;
      }
      if (j === i && !isUnitChar(s.charCodeAt(i + 1))) return junk(s, from, i);
    } else if (c === 47 && !isUnitChar(s.charCodeAt(i + 1))) {
      return junk(s, from, i);
    }
  }
  if (c === 37 /* % */ || c === 47 || isUnitChar(c)) {
    let j = i + 1;
    if (c !== 37) {
      while (isUnitChar(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === 47 && c !== 47) {
        j++;
        while (isUnitChar(s.charCodeAt(j))) j++;
      }
    }
    if (!endsNumber(s, j) || !parseUnit(s.slice(i, j))) {
      // `epoch=0/micro_step=100` (DeepSpeed): a `/` and a word that is no unit end the number; right after a
      // `:` it is an address (`mlx5_0:1/IB`, NCCL's devices)
      if (c !== 47 || s.charCodeAt(from - 1) === 58) return junk(s, from, j);
      j = i;
    }
    i = j;
  } else if (!endsNumber(s, i)) {
    return junk(s, from, i);
  }
  const v = fastNumber(m, digits, exp);
  num[n] = Number.isNaN(v) ? Number(s.slice(from, numEnd)) : negative ? -v : v;
  unitAt[n] = numEnd;
  push(NUM, from, i);
  return i;
}

/** Tokenises `s` into the scratch arrays; returns how many tokens (at most MAX_TOKENS). */
export function tokenize(s: string): number {
  n = 0;
  const len = s.length;
  let i = 0;
  while (i < len && n < MAX_TOKENS) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      const from = i;
      let tab = c !== 32;
      while (isSpace(s.charCodeAt(++i))) tab = true;
      if (s.charCodeAt(i) === 45 && (i + 1 >= len || isSpace(s.charCodeAt(i + 1)))) {
        i++;
        while (isSpace(s.charCodeAt(i))) i++;
        push(DASH, from, i);
      } else push(tab || i - from > 1 ? GAP : SPACE, from, i);
    } else if (isLetter(c) || c === 95) {
      const from = i;
      while (isWordChar(s.charCodeAt(++i)));
      if (s.charCodeAt(i) === 58 && s.charCodeAt(i + 1) === 47 && s.charCodeAt(i + 2) === 47) {
        while (i < len && !isSpace(s.charCodeAt(i))) i++; // a URL
        push(OTHER, from, i);
        continue;
      }
      let to = i;
      while (to > from + 1 && (s.charCodeAt(to - 1) === 46 || s.charCodeAt(to - 1) === 45)) to--;
      push(WORD, from, to);
      i = to;
    } else if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
      i = scanNumber(s, i);
    } else if ((c === 45 || c === 43) && (isDigit(s.charCodeAt(i + 1)) || s.charCodeAt(i + 1) === 46)) {
      if (isDigit(s.charCodeAt(i + 1)) || isDigit(s.charCodeAt(i + 2))) i = scanNumber(s, i);
      else push(OTHER, i, ++i);
    } else if (c === 61 /* = */) {
      const p = s.charCodeAt(i - 1);
      const q = s.charCodeAt(i + 1);
      if (q === 61 || q === 62 || p === 60 || p === 62 || p === 33 || p === 126 || p === 91 || p === 61) {
        const from = i;
        while (s.charCodeAt(i) === 61 || s.charCodeAt(i) === 62) i++;
        push(OTHER, from, i);
      } else push(EQ, i, ++i);
    } else if (c === 39 || c === 34) {
      const close = isAlnum(s.charCodeAt(i - 1)) ? -1 : s.indexOf(s[i], i + 1);
      if (close > 0 && close - i < 200) {
        push(STRING, i + 1, close);
        i = close + 1;
      } else push(OTHER, i, ++i);
    } else if (c === 27 /* ESC */ && s.charCodeAt(i + 1) === 91) {
      i += 2; // a colour: ESC [ params letter
      while (i < len && !isLetter(s.charCodeAt(i))) i++;
      i++;
    } else {
      const k = punct(c);
      if (k === OTHER) {
        const from = i;
        while (i < len && punct(s.charCodeAt(i)) === OTHER && !startsToken(s, i)) i++;
        push(OTHER, from, Math.max(i, from + 1));
        i = Math.max(i, from + 1);
      } else push(k, i, ++i);
    }
  }
  kind[n] = kind[n + 1] = kind[n + 2] = END;
  return n;
}

/** Whether s[i] begins something other than punctuation (ends a run of OTHER characters). */
function startsToken(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return isSpace(c) || isAlnum(c) || c === 95 || c === 61 || c === 39 || c === 34 || c === 27 || c === 45;
}

const PUNCT = new Uint8Array(128).fill(OTHER);
PUNCT[58] = COLON;
PUNCT[44] = COMMA;
PUNCT[124] = PIPE;
PUNCT[59] = SEMI;
PUNCT[91] = LBRACK;
PUNCT[93] = RBRACK;
PUNCT[40] = LPAREN;
PUNCT[41] = RPAREN;

const punct = (c: number) => (c < 128 ? PUNCT[c] : OTHER);
