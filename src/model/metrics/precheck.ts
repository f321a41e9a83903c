/**
 * The cheap test every log line takes before the metric parser looks at it (parseLine.ts): no allocation,
 * and it visits only the few places that could hold a pair (found with indexOf: each `=`, each `:`, each
 * run of blanks), true when the line may hold a named value:
 * - `=` or `:` then (after spaces) a number, `nan`/`inf` or a wrapper (`tensor(`), after a name (a
 *   letter, `_`, a quote or a bracket, maybe then digits: `top1:`; or a count `n/N` before `=`), so
 *   `10:14:22`, `10.0.0.1:29500` and `torch==2.1.0` do not count;
 * - or a word, spaces, and a number that ends a segment (`loss 4.2,`, `| ppl 550 |`, `iter 100:`, the
 *   line's end) or is followed by another word and number, the nanoGPT and fairseq style;
 * and in both, a number that is a number: not a time (`10:14`), a date (`2026-11-27`), an address or a
 * version (`10.0.0.1`, `3.11.4`), a count with thousands separators, a progress bar's own `45%|`.
 * False for the ordinary line (`2026-11-27 10:14:22,123 INFO Starting training on 8 GPUs`). A true
 * answer only sends the line on; the parser decides. No `vscode` import.
 */

/** Character classes, by code below 128. */
const LETTER = 1; // a-z A-Z _
const DIGIT = 2;
const NAME_END = 4; // what may end a name before a separator: letter, digit, quote, ), ], %
const SEGMENT_END = 8; // , | ; : ] ) and white space: what may follow a space pair's number

const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let k = 0;
  if (/[A-Za-z_]/.test(ch)) k |= LETTER | NAME_END;
  if (/[0-9]/.test(ch)) k |= DIGIT;
  if (/['")\]%]/.test(ch)) k |= NAME_END;
  if (/[,|;:\])\s]/.test(ch)) k |= SEGMENT_END;
  CLASS[c] = k;
}

const cls = (c: number) => (c < 128 ? CLASS[c] : 0);

/** Whether s[i] (after spaces) starts a value: a number, nan, inf, or a wrapper (`tensor(`, `np.float64(`)
 *  around one. */
function valueAt(s: string, i: number): boolean {
  let c = s.charCodeAt(i);
  while (c === 32) c = s.charCodeAt(++i);
  if (c === 45 || c === 43) c = s.charCodeAt(++i);
  if (c === 46) c = s.charCodeAt(++i);
  if (cls(c) & DIGIT) {
    const j = numberEnd(s, i);
    return j >= 0 && !isBarPercent(s, j);
  }
  if (!(cls(c) & LETTER)) return false;
  const c1 = s.charCodeAt(i + 1) | 32;
  const c2 = s.charCodeAt(i + 2) | 32;
  if (((c | 32) === 110 && c1 === 97 && c2 === 110) || ((c | 32) === 105 && c1 === 110 && c2 === 102))
    return true;
  let j = i + 1;
  while (j - i < 24 && (cls(s.charCodeAt(j)) & (LETTER | DIGIT) || s.charCodeAt(j) === 46)) j++;
  return s.charCodeAt(j) === 40 && valueAt(s, j + 1);
}

/** Where the number starting at s[i] (a digit) ends, or -1 when it goes on as something else (see the
 *  file comment). */
function numberEnd(s: string, i: number): number {
  let dots = 0;
  let c = s.charCodeAt(i);
  for (;;) {
    if (cls(c) & DIGIT) c = s.charCodeAt(++i);
    else if (c === 46 && cls(s.charCodeAt(i + 1)) & DIGIT) {
      if (++dots > 1) return -1;
      c = s.charCodeAt(++i);
    } else if ((c === 101 || c === 69) && exponentAt(s, i + 1)) {
      i += 2;
      c = s.charCodeAt(i);
    } else break;
  }
  if (cls(s.charCodeAt(i + 1)) & DIGIT && (c === 58 || c === 45 || c === 47 || c === 46 || c === 44))
    return -1;
  return i;
}

function exponentAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return (cls(c) & DIGIT) !== 0 || ((c === 45 || c === 43) && (cls(s.charCodeAt(i + 1)) & DIGIT) !== 0);
}

/** Whether s[j] is the `%|` (or `% |`) of a progress bar. */
function isBarPercent(s: string, j: number): boolean {
  if (s.charCodeAt(j) !== 37) return false;
  const c = s.charCodeAt(j + 1);
  return c === 124 || (c === 32 && s.charCodeAt(j + 2) === 124);
}

/** Whether a word, spaces and the number at s[i] make a pair (see the file comment). */
function spacePairAt(s: string, i: number): boolean {
  const j = numberEnd(s, s.charCodeAt(i) === 45 || s.charCodeAt(i) === 46 ? i + 1 : i);
  if (j < 0 || isBarPercent(s, j)) return false;
  let k = j;
  let d = s.charCodeAt(k);
  while (cls(d) & LETTER || d === 37 || d === 47) d = s.charCodeAt(++k); // a unit: ms, %, it/s
  if (k >= s.length) return true;
  const e = s.charCodeAt(k + 1);
  if (d === 32) return !(cls(e) & LETTER) || nextPair(s, k + 1);
  return (cls(d) & SEGMENT_END) !== 0 && (d !== 58 || !(cls(e) & DIGIT));
}

/** Whether a word, one space and a digit start at s[i] (the next pair of a chain). */
function nextPair(s: string, i: number): boolean {
  while (cls(s.charCodeAt(i)) & (LETTER | DIGIT) || s.charCodeAt(i) === 64) i++;
  return s.charCodeAt(i) === 32 && (cls(s.charCodeAt(i + 1)) & DIGIT) !== 0;
}

/** Separators (`=`, `:`) then a value, after a name. */
function separatedValue(s: string, sep: string): boolean {
  for (let i = s.indexOf(sep); i >= 0; i = s.indexOf(sep, i + 1)) {
    // not ==, after a name: not after a number (a time, a port), but after a name ending in digits (`top1:`)
    let j = i - 1;
    while (isBlank(s.charCodeAt(j))) j--;
    while (cls(s.charCodeAt(j)) & DIGIT) j--;
    const p = s.charCodeAt(j);
    // after a name, or after a count n/N (`HellaSwag: 2935/10042 = 0.2923`)
    const named =
      (cls(p) & NAME_END) !== 0 || (sep === '=' && p === 47 && (cls(s.charCodeAt(j - 1)) & DIGIT) !== 0);
    if (p !== 61 && s.charCodeAt(i + 1) !== 61 && named && valueAt(s, i + 1)) return true;
  }
  return false;
}

/** Whether s[p] ends a word that starts with a letter or `_` (`loss`, `Acc@1`; not `shards:`, `3fa2`). */
function wordEndsAt(s: string, p: number): boolean {
  let c = s.charCodeAt(p);
  if (!(cls(c) & (LETTER | DIGIT)) && c !== 64) return false;
  let first = c;
  while (p > 0) {
    c = s.charCodeAt(p - 1);
    if (!(cls(c) & (LETTER | DIGIT)) && c !== 64 && c !== 46 && c !== 45 && c !== 47) break;
    first = c;
    p--;
  }
  return (cls(first) & LETTER) !== 0;
}

/** A word, blanks, then a number that makes a pair; found by the blanks (a line has few). */
function blankSeparatedValue(s: string, blank: string): boolean {
  for (let i = s.indexOf(blank); i >= 0;) {
    let j = i + 1;
    while (isBlank(s.charCodeAt(j))) j++;
    const c = s.charCodeAt(j);
    const numberNext = cls(c) & DIGIT || ((c === 45 || c === 46) && cls(s.charCodeAt(j + 1)) & DIGIT);
    if (numberNext && i > 0 && wordEndsAt(s, i - 1) && spacePairAt(s, j)) return true;
    i = s.indexOf(blank, j);
  }
  return false;
}

export function mayHoldMetrics(s: string): boolean {
  return (
    separatedValue(s, '=') ||
    separatedValue(s, ':') ||
    blankSeparatedValue(s, ' ') ||
    (s.indexOf('\t') >= 0 && blankSeparatedValue(s, '\t'))
  );
}

const isBlank = (c: number) => c === 32 || c === 9;
