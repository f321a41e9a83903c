/**
 * The cheap test every log line takes before the metric parser looks at it (parseLine.ts): one pass over
 * the characters, no allocation, true when the line may hold a named value:
 * - `=` or `:` then (after spaces) a number, `nan`/`inf` or a wrapper (`tensor(`), after a name (a
 *   letter, `_`, a quote or a bracket, maybe then digits: `top1:`), so `10:14:22`, `10.0.0.1:29500` and
 *   `torch==2.1.0` do not count;
 * - or a word, one space, and a number that ends a segment (`loss 4.2,`, `| ppl 550 |`, `iter 100:`, the
 *   line's end), the nanoGPT and fairseq style.
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

/** Whether s[i] (after spaces) starts a value: a digit, a sign or `.` before one, nan, inf, or a wrapper
 *  (`tensor(`, `np.float64(`) around one. */
function valueAt(s: string, i: number): boolean {
  let c = s.charCodeAt(i);
  while (c === 32) c = s.charCodeAt(++i);
  if (c === 45 || c === 43) c = s.charCodeAt(++i);
  if (c === 46) c = s.charCodeAt(++i);
  if (cls(c) & DIGIT) {
    // but not a progress bar's own percentage (`shards: 100%|███|`)
    while (cls(c) & DIGIT || c === 46) c = s.charCodeAt(++i);
    if (c !== 37) return true;
    c = s.charCodeAt(i + 1);
    return c !== 124 && (c !== 32 || s.charCodeAt(i + 2) !== 124);
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

export function mayHoldMetrics(s: string): boolean {
  const len = s.length;
  let prev = 0; // the character before this one
  let wordBeforeSpace = false; // prev is a space in a run of spaces right after a word character
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c === 61 || c === 58) {
      // = or :, not ==, after a name: not after a number (a time, a port), but after a name ending in
      // digits (`top1: 0.9`, `m0=1`)
      let j = prev === 32 ? i - 2 : i - 1;
      while (cls(s.charCodeAt(j)) & DIGIT) j--;
      const p = s.charCodeAt(j);
      if (p !== 61 && s.charCodeAt(i + 1) !== 61 && (cls(p) & NAME_END) !== 0 && valueAt(s, i + 1))
        return true;
    } else if (
      wordBeforeSpace &&
      (cls(c) & DIGIT || ((c === 45 || c === 46) && cls(s.charCodeAt(i + 1)) & DIGIT))
    ) {
      let j = i + 1;
      let d = s.charCodeAt(j);
      while (cls(d) & DIGIT || d === 46 || d === 101 || d === 69 || d === 45 || d === 43)
        d = s.charCodeAt(++j);
      while (cls(d) & LETTER || d === 37 || d === 47) d = s.charCodeAt(++j); // a unit: ms, %, it/s
      const e = s.charCodeAt(j + 1);
      if (
        j >= len ||
        (cls(d) & SEGMENT_END && (d !== 32 || !(cls(e) & LETTER)) && (d !== 58 || !(cls(e) & DIGIT)))
      ) {
        return true;
      }
      i = j - 1;
      prev = s.charCodeAt(i);
      wordBeforeSpace = false;
      continue;
    }
    wordBeforeSpace = c === 32 && (wordBeforeSpace || (cls(prev) & LETTER) !== 0);
    prev = c;
  }
  return false;
}
