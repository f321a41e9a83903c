/**
 * Small helpers of the metric-line tokenizer (tokens.ts) for numbers: their value in one exact step, the
 * groups of a count with thousands separators, and what comes before one. No `vscode` import.
 */

const isDigit = (c: number) => c >= 48 && c <= 57;

export function digitsValue(s: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + s.charCodeAt(i) - 48;
  return v;
}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** The number of `digits` decimal digits `m` times 10^`exp`, when that is exact in one step (at most 15
 *  digits, |exp| <= 22: both operands exact, so the one rounding is the correct one); else NaN. */
export function fastNumber(m: number, digits: number, exp: number): number {
  if (digits > 15 || exp > 22 || exp < -22) return NaN;
  return exp < 0 ? m / POW10[-exp] : m * POW10[exp];
}

/** Whether a `:` or `=` (then blanks) comes right before s[from]. */
export function afterSeparator(s: string, from: number): boolean {
  let i = from - 1;
  while (s.charCodeAt(i) === 32) i--;
  const c = s.charCodeAt(i);
  return c === 58 || c === 61;
}

/** Where the `,ddd` groups from s[i] (a comma) end: `12,345,678` from its first comma to its end. */
export function groupsEnd(s: string, i: number): number {
  while (s.charCodeAt(i) === 44 && isDigit(s.charCodeAt(i + 1)) && isDigit(s.charCodeAt(i + 2))) {
    if (!isDigit(s.charCodeAt(i + 3)) || isDigit(s.charCodeAt(i + 4))) break;
    i += 4;
  }
  return i;
}
