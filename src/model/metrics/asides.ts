/**
 * Values named by what stands beside them on a line (read by pairs.ts, from the tokens tokens.ts keeps): a
 * number in parentheses after a named value (its running average, or the same quantity in another unit), and
 * a value at a segment's start named by the words after it; and the `(` that opens a call's arguments (values
 * inside are settings, not metrics). No `vscode` import.
 */
import * as C from './collect';
import { nameKind, normaliseName, parseUnit, withUnit, type Unit } from './names';
import {
  COMMA,
  end,
  EQ,
  GAP,
  kind,
  LPAREN,
  num,
  NUM,
  PIPE,
  RPAREN,
  SPACE,
  start,
  unitAt,
  WORD,
} from './tokens';

const isWs = (k: number) => kind[k] === SPACE || kind[k] === GAP;

/** A number in parentheses right after a named value k: its running average in the same unit (`Loss 6.9 (7.1)`,
 *  `Acc@1: 82.0 ( 81.5)`: `loss_avg`), or the same quantity in another unit (`memory: 45.2GiB(57.1%)`:
 *  `memory_pct`). */
export function inParentheses(s: string, name: string, k: number, unit: Unit | undefined): void {
  let j = k + 1;
  if (kind[j] === SPACE) j++;
  if (kind[j] !== LPAREN) return;
  j++;
  if (isWs(j)) j++;
  if (kind[j] !== NUM || kind[isWs(j + 1) ? j + 2 : j + 1] !== RPAREN) return;
  const own = unitAt[j] < end[j] ? parseUnit(s.slice(unitAt[j], end[j])) : undefined;
  if (own?.suffix === unit?.suffix) C.addNamed(`${withUnit(name, unit)}_avg`, num[j], j);
  else if (own && own.kind !== 'rate' && own.kind !== 'bareRate') C.addNamed(withUnit(name, own), num[j], j);
}

/** A value that starts a segment and is named by the words after it, to the segment's end (llm.c's
 *  `| 1304.21 ms | 21.4% bf16 MFU | 402030 tok/s`: `ms`, `bf16_mfu_pct`, `tok_per_s`); a lone time or rate
 *  unit names the value by its unit. Returns whether it was so named. */
export function namedAfter(s: string, count: number, k: number, unit: Unit | undefined): boolean {
  if (kind[k + 1] !== SPACE || kind[k + 2] !== WORD) return false;
  let e = k + 2;
  let words = 1;
  while (words < 3 && kind[e + 1] === SPACE && kind[e + 2] === WORD) {
    e += 2;
    words++;
  }
  let after = e + 1;
  while (after < count && isWs(after)) after++;
  if (!(after >= count || kind[after] === PIPE || kind[after] === RPAREN || kind[after] === COMMA))
    return false;
  const written = s.slice(start[k + 2], end[e]);
  const own = words === 1 && !unit ? parseUnit(written) : undefined;
  if (own && (own.kind === 'time' || own.kind === 'rate' || own.kind === 'sizeRate')) {
    C.addNamed(own.suffix, num[k], k);
    return true;
  }
  if (own) return false; // `(0.00 B)`: a size alone names nothing
  const name = normaliseName(written);
  if (name === undefined || nameKind(name) !== -1) return false;
  C.addNamed(withUnit(name, unit), num[k], k);
  return true;
}

/** Whether the `(` at k opens a call's arguments: right after a name and before `name=` (`AdamW(lr=`), so not
 *  a value's wrapper (`loss=tensor(0.3)`) nor an x word (`Epoch(train)`). */
export function isCall(k: number): boolean {
  if (k < 1 || kind[k - 1] !== WORD || end[k - 1] !== start[k]) return false;
  return kind[k + 1] === WORD && kind[k + 2] === EQ;
}
