/**
 * Reads the `{...}` object on a line into the collector (collect.ts): a JSON object (`{"loss": 0.5}`), a
 * Python dict repr (Hugging Face Trainer's `{'loss': 0.4821, 'grad_norm': 1.9, 'epoch': 0.12}`, or its recent
 * console's `{'loss': '1.235', 'epoch': '0.04'}`: a quoted value that is only a number is that number), or a
 * JavaScript-style literal with bare keys, after any prefix (a logger's timestamp). Values may be numbers,
 * `nan`/`inf`/`NaN`/`Infinity` (seen, not kept), wrapped numbers (`np.float64(0.3)`, `tensor(0.3,
 * device='cuda:0')`), text, booleans, `None`/`null`, lists (skipped) and nested objects (their keys joined
 * with `/`: `{"train": {"loss": 1}}` is `train/loss`). Hand-written, allocation-light (names are sliced
 * only for numbers). No `vscode` import.
 */
import * as C from './collect';
import { normaliseName } from './names';

let s = '';
let i = 0;

const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;
const IDENT = /[A-Za-z_][\w.]*/y;

function ws(): void {
  let c = s.charCodeAt(i);
  while (c === 32 || c === 9 || c === 13 || c === 10) c = s.charCodeAt(++i);
}

/** A quoted string from s[i] (a quote); returns its text (escapes kept as written) or undefined. */
function quoted(): string | undefined {
  const q = s.charCodeAt(i);
  let j = i + 1;
  for (;;) {
    const c = s.charCodeAt(j);
    if (Number.isNaN(c)) return undefined;
    if (c === 92) j += 2;
    else if (c === q) break;
    else j++;
  }
  const t = s.slice(i + 1, j);
  i = j + 1;
  return t;
}

/** Skips a bracketed value (list, tuple, call arguments) from s[i], strings inside included. */
function skipBalanced(): boolean {
  let depth = 0;
  for (;;) {
    const c = s.charCodeAt(i);
    if (Number.isNaN(c)) return false;
    if (c === 39 || c === 34) {
      if (quoted() === undefined) return false;
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93 || c === 125) depth--;
    i++;
    if (depth === 0) return true;
  }
}

function number(): number | undefined {
  NUMBER.lastIndex = i;
  if (NUMBER.test(s)) {
    const v = Number(s.slice(i, NUMBER.lastIndex));
    i = NUMBER.lastIndex;
    return v;
  }
  const sign = s.charCodeAt(i) === 45 ? -1 : 1;
  const from = s.charCodeAt(i) === 45 || s.charCodeAt(i) === 43 ? i + 1 : i;
  IDENT.lastIndex = from;
  if (!IDENT.test(s)) return undefined;
  const word = s.slice(from, IDENT.lastIndex).toLowerCase();
  if (word === 'nan') return ((i = IDENT.lastIndex), NaN);
  if (word === 'inf' || word === 'infinity') return ((i = IDENT.lastIndex), sign * Infinity);
  return undefined;
}

const QUOTED_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** The number a quoted value holds when it is nothing but one (`'1.96e-05'`), else undefined. */
function quotedNumber(t: string): number | undefined {
  const c = t.charCodeAt(0);
  if (t.length === 0 || t.length > 32 || !((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46))
    return undefined;
  return QUOTED_NUMBER.test(t) ? Number(t) : undefined;
}

/** One value under `name` (undefined: a key that makes no name; its value is still read). */
function value(name: string | undefined, depth: number): boolean {
  const c = s.charCodeAt(i);
  if (c === 123) return depth < 3 ? object(name, depth + 1) : skipBalanced();
  if (c === 91 || c === 40) {
    C.addText();
    return skipBalanced();
  }
  if (c === 39 || c === 34) {
    const t = quoted();
    if (t === undefined) return false;
    const q = quotedNumber(t); // `'loss': '1.235'` (Transformers' console), `"loss": "9.876"` (fairseq's JSON)
    if (q === undefined) C.addText();
    else {
      C.addNumber();
      if (name !== undefined) C.addNamed(name, q, 0);
    }
    return true;
  }
  const from = i;
  let v = number();
  if (v === undefined) {
    IDENT.lastIndex = i;
    if (!IDENT.test(s)) return false;
    i = IDENT.lastIndex;
    if (s.charCodeAt(i) === 40) {
      // np.float64(0.3), tensor(0.3, device='cuda:0'): the first number inside
      const open = i++;
      ws();
      v = number();
      i = open;
      if (!skipBalanced()) return false;
    }
    if (v === undefined) {
      C.addText(); // True, None, null, a bare word
      return i > from;
    }
  }
  C.addNumber();
  if (name !== undefined) C.addNamed(name, v, 0);
  return true;
}

function key(): string | undefined | false {
  const c = s.charCodeAt(i);
  if (c === 39 || c === 34) {
    const t = quoted();
    return t === undefined ? false : normaliseName(t);
  }
  IDENT.lastIndex = i;
  if (!IDENT.test(s)) return false;
  const t = s.slice(i, IDENT.lastIndex);
  i = IDENT.lastIndex;
  return normaliseName(t);
}

/** An object from s[i] (`{`); `prefix`: the enclosing key, joined to these with `/` ('' at the top,
 *  undefined under a key that makes no name: then none of these is a metric either). */
function object(prefix: string | undefined, depth: number): boolean {
  i++;
  ws();
  if (s.charCodeAt(i) === 125) return (i++, true);
  for (;;) {
    ws();
    const k = key();
    if (k === false) return false;
    ws();
    if (s.charCodeAt(i) !== 58) return false;
    i++;
    ws();
    const name = k === undefined || prefix === undefined ? undefined : prefix === '' ? k : `${prefix}/${k}`;
    if (!value(name, depth)) return false;
    ws();
    const c = s.charCodeAt(i++);
    if (c === 125) return true;
    if (c !== 44) return false;
    ws();
    if (s.charCodeAt(i) === 125) return (i++, true); // a trailing comma
  }
}

/** Reads the object starting at `line[at]` (a `{`) into the collector; false when it is no object. */
export function readObject(line: string, at: number): boolean {
  s = line;
  i = at;
  const ok = object('', 1);
  s = '';
  return ok;
}
