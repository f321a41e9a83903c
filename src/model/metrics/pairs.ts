/**
 * Reads a line that is not a `{...}` object: the name/value pairs people print, whatever joins them.
 * A value (a number token, tokens.ts) takes its name from what is left of it:
 * - `name = v`, `name: v`, `name=tensor(v)`, `name=[v]`, `'name': v`: a separator, then the words before
 *   it (several words make one name: `lm loss: 4.5` is `lm_loss`, `elapsed time per iteration (ms): 512`
 *   is `elapsed_time_per_iteration_ms`); pairs may be joined by spaces, `,`, `|`, `;`, ` - ` or gaps;
 * - `name v` (nanoGPT `loss 4.2345, time 12.34ms`, fairseq `| loss 9.5 |`, `Loss 6.9 (7.1)` with its
 *   running average): only as a whole segment between separators, or in a chain of such pairs whose
 *   names look like metrics, so prose (`Downloading 3 files`, `Epoch 3 of 10`) is no pair;
 * - an x key before a value or counter (`iter 100:`, `Epoch 1/5`, `iteration 100/ 1000`, `Epoch [1][..]`,
 *   `Iter(train) [50/90000]`), or a number right before a bracketed counter (timm's `Train: 0 [100/1251`):
 *   the x; an unnamed counter after an epoch makes the x that epoch plus the fraction done, one right after
 *   a progress bar (tqdm `| 450/1000`) is the step;
 * - nothing (a value after a number, in parentheses, a bar's own `45%|`): no metric, except an unnamed
 *   rate such as tqdm's `36.2it/s` or Keras's `3ms/step` (`it_per_s`, `ms_per_step`) on a metric line.
 * No `vscode` import.
 */
import { inParentheses, isCall, namedAfter } from './asides';
import * as C from './collect';
import { IGNORED_KIND, nameKind, normaliseName, parseUnit, withUnit, xRank, type Unit } from './names';
import { isLogLevelAt, isMetricWord, isProseAt, isWarningAt } from './words';
import {
  COLON,
  COMMA,
  COUNTER,
  DASH,
  EQ,
  GAP,
  LBRACK,
  LPAREN,
  NUM,
  OTHER,
  PIPE,
  RBRACK,
  RPAREN,
  SEMI,
  SPACE,
  STRING,
  WORD,
  end,
  kind,
  num,
  den,
  start,
  tokenize,
  unitAt,
} from './tokens';

let s = '';
let count = 0;
/** The last token taken as a pair's value (a space pair may follow it directly: `step 5 loss 0.3`). */
let lastValue = -1;

const text = (k: number) => s.slice(start[k], end[k]);
const isWs = (k: number) => kind[k] === SPACE || kind[k] === GAP;

function back(j: number): number {
  while (j >= 0 && isWs(j)) j--;
  return j;
}

function ahead(j: number): number {
  while (j < count && isWs(j)) j++;
  return j;
}

/** Where the name ending at token `last` starts: words joined by single spaces (at most `max`), with an
 *  optional `(unit)` at the end; -1 when there is none. */
function nameStart(last: number, max: number): number {
  let j = last;
  let first = -1;
  if (
    j >= 3 &&
    kind[j] === RPAREN &&
    kind[j - 1] === WORD &&
    kind[j - 2] === LPAREN &&
    kind[j - 3] === SPACE
  ) {
    j -= 4;
  }
  let words = 0;
  while (j >= 0 && kind[j] === WORD && words < max) {
    if (isLogLevelAt(s, start[j], end[j]) || isProseAt(s, start[j], end[j])) break;
    first = j;
    words++;
    if (j >= 2 && kind[j - 1] === SPACE && kind[j - 2] === WORD) j -= 2;
    else break;
  }
  return first;
}

/** The x key named right before token `j` (`Epoch`, `Iter(train)`), else undefined. */
function xWordAt(j: number): string | undefined {
  j = back(j);
  if (
    j >= 3 &&
    kind[j] === RPAREN &&
    kind[j - 1] === WORD &&
    kind[j - 2] === LPAREN &&
    kind[j - 3] === WORD
  ) {
    if (end[j - 3] === start[j - 2]) j -= 3;
  }
  if (j < 0 || kind[j] !== WORD) return undefined;
  const name = normaliseName(text(j));
  return name !== undefined && xRank(name) >= 0 ? name : undefined;
}

const SEGMENT_EDGE = new Set([COMMA, PIPE, SEMI, DASH, GAP, LBRACK, RBRACK]);

/** Whether a word, a space and a number start at token `j` (the next pair of a `name v name v` chain). */
function spacePairAt(j: number): boolean {
  return kind[j] === WORD && kind[j + 1] === SPACE && kind[j + 2] === NUM;
}

function unnamed(k: number, unit: Unit | undefined): void {
  if (unit?.kind === 'rate') C.addRate(unit.suffix, num[k]);
}

function pair(name: string | undefined, k: number, unit: Unit | undefined, eq: boolean): void {
  if (name === undefined) return unnamed(k, unit);
  if (eq) C.addNumber();
  const what = nameKind(name);
  lastValue = k;
  if (what === IGNORED_KIND || (unit && what >= 0)) return; // `eta: 3s`; `step: 5s` is no step
  C.addNamed(withUnit(name, unit), num[k], k);
  inParentheses(s, name, k, unit);
}

/** Token k's value as the x `key`; `of`: the N of a counter n/N. */
function x(key: string, k: number, of = 0): void {
  lastValue = k;
  C.addX(key, num[k], xRank(key), k, of);
}

/** Whether token b is a bullet starting the line (` * Acc@1 76.130 Acc@5 92.862`). */
function isBullet(b: number): boolean {
  return kind[b] === OTHER && (b === 0 || (b === 1 && isWs(0)));
}

/** After a running average in parentheses right after a value (`Loss 6.9 (7.1)`): the token after `)`;
 *  else `j` itself. */
function afterAverage(j: number): number {
  if (kind[j] !== SPACE || kind[j + 1] !== LPAREN) return j;
  let k = j + 2;
  if (isWs(k)) k++;
  if (kind[k] !== NUM) return j;
  k++;
  if (isWs(k)) k++;
  return kind[k] === RPAREN ? k + 1 : j;
}

/** Whether the value at k, right after a colon at j, is a source location (`[... nemo_logging:349]`). */
function isLocation(j: number, k: number): boolean {
  return end[j] === start[k] && unitAt[k] === end[k] && kind[k + 1] === RBRACK;
}

function value(k: number): void {
  const unit = unitAt[k] < end[k] ? parseUnit(s.slice(unitAt[k], end[k])) : undefined;
  const next = ahead(k + 1);
  if (unit?.kind === 'pct' && kind[next] === PIPE) return; // a progress bar's own percentage
  if (!unit && kind[next] === LBRACK && kind[ahead(next + 1)] === COUNTER) return C.addEpoch(num[k], k);
  let j = k - 1;
  if (j >= 1 && kind[j] === LPAREN && kind[j - 1] === WORD && end[j - 1] === start[j]) j -= 2; // tensor(0.3)
  j = back(j);
  if (j < 0) return unnamed(k, unit);
  if (kind[j] === LBRACK && kind[next] === RBRACK && j > 0) {
    const p = back(j - 1); // lr=[0.0001] (DeepSpeed), Epoch: [0][100/5005] (the PyTorch ImageNet example)
    if (p >= 0 && (kind[p] === EQ || kind[p] === COLON)) j = p;
  }
  if (kind[j] === EQ || kind[j] === COLON) {
    if (kind[j] === COLON && isLocation(j, k)) return;
    let p = j - 1;
    if (p >= 0 && isWs(p)) p--; // `loss : 0.5`, `train_loss        =     0.5432` (Trainer's summary)
    if (p >= 0 && kind[p] === STRING) return pair(normaliseName(text(p)), k, unit, kind[j] === EQ);
    if (p >= 0 && kind[p] === COUNTER && kind[j] === EQ) {
      // `HellaSwag: 2935/10042 = 0.292272` (llm.c): the share, under the counter's name
      const c = back(p - 1);
      if (c < 1 || kind[c] !== COLON) return unnamed(k, unit);
      p = back(c - 1);
      C.addShare();
    }
    const first = p >= 0 ? nameStart(p, 6) : -1;
    return pair(
      first < 0 ? undefined : normaliseName(s.slice(start[first], end[p])),
      k,
      unit,
      kind[j] === EQ,
    );
  }
  if (kind[j] === LBRACK && kind[next] === RBRACK) {
    const key = xWordAt(j - 1);
    if (key !== undefined) return x(key, k); // Epoch [1][...], Iter [5]
  }
  if ((kind[j] === PIPE || kind[j] === LPAREN) && namedAfter(s, count, k, unit)) return;
  if (kind[j] !== WORD || j !== k - 2) return unnamed(k, unit);
  // name v
  const first = nameStart(j, 4);
  const name = first < 0 ? undefined : normaliseName(s.slice(start[first], end[j]));
  if (name === undefined) return unnamed(k, unit);
  if (!unit && xRank(name) >= 0) return x(name, k);
  const last = first === j ? name : normaliseName(text(j));
  if (!unit && last !== undefined && xRank(last) >= 0) return x(last, k);
  let b = first - 1;
  if (b >= 0 && kind[b] === SPACE) b--;
  // `step 5 loss 0.3 lr 0.001`: one word after the last value, named like a metric or going on (not the
  // `of` of `Epoch 3 of 10`)
  let e = afterAverage(k + 1);
  if (kind[e] === SPACE) e++;
  const chained = b >= 0 && b === lastValue && first === j && (isMetricWord(name) || spacePairAt(e));
  const startsSegment = b < 0 || chained || SEGMENT_EDGE.has(kind[b]) || kind[b] === COLON || isBullet(b);
  // a segment ends at a separator, the next pair, or an aside in parentheses (`train loss 5.3 (took 1452 ms)`)
  const endsSegment =
    e >= count || SEGMENT_EDGE.has(kind[e]) || kind[e] === LPAREN || (kind[e] === WORD && spacePairAt(e));
  // a column gap between name and value (`| loss  5.12 |`, `\tTime  0.512 ( 0.600)\t`), not in a chain
  if (startsSegment && endsSegment && (kind[k - 1] === SPACE || !chained)) pair(name, k, unit, false);
  else unnamed(k, unit);
}

function counterAt(k: number): void {
  const j = back(k - 1);
  if (j >= 0 && kind[j] === WORD) {
    const key = xWordAt(j);
    if (key !== undefined) return x(key, k, den[k]); // Epoch 1/5, iteration 100/ 1000
  }
  if (j >= 0 && kind[j] === LBRACK) {
    const key = xWordAt(j - 1);
    if (key !== undefined) return x(key, k, den[k]); // Iter(train) [50/90000], Step [100/600]
  }
  if (j >= 0 && (kind[j] === COLON || kind[j] === EQ)) {
    // `Accuracy: 9843/10000 (98%)` (the MNIST example): the share in parentheses, under the counter's name
    const first = j > 0 ? nameStart(back(j - 1), 6) : -1;
    const name = first < 0 ? undefined : normaliseName(s.slice(start[first], end[back(j - 1)]));
    if (name !== undefined && nameKind(name) === -1) inParentheses(s, name, k, undefined);
  }
  C.addCounter(num[k], den[k], k, j >= 0 && kind[j] === PIPE);
}

/** After `=`: a value that is text (`model='resnet'`, `amp=True`) counts against the line being metrics. */
function afterEq(k: number): void {
  const j = back(k - 1);
  if (j < 0 || kind[j] !== EQ) return;
  if (kind[k] === WORD) {
    const t = text(k).toLowerCase();
    if (t === 'nan' || t === 'inf' || t === 'infinity') {
      const p = back(j - 1);
      const first = p >= 0 ? nameStart(p, 6) : -1;
      const name = first < 0 ? undefined : normaliseName(s.slice(start[first], end[p]));
      if (name !== undefined) C.addNamed(name, NaN, k); // a metric that is not finite: seen, not kept
      C.addNumber();
      return;
    }
    if (kind[k + 1] === LPAREN && end[k] === start[k + 1]) return; // tensor(...): the number decides
  }
  C.addText();
}

/** The pairs of `line` into the collector (collect.ts); returns how many tokens the line has (their kinds
 *  and places stay in tokens.ts until the next line). */
export function readPairs(line: string): number {
  s = line;
  lastValue = -1;
  count = tokenize(line);
  let parens = 0; // open parentheses, and which of them open a call's arguments (bit per depth)
  let calls = 0;
  for (let k = 0; k < count; k++) {
    const t = kind[k];
    if (t === LPAREN) {
      if (parens < 31 && isCall(k)) calls |= 1 << parens;
      parens++;
    } else if (t === RPAREN && parens > 0) {
      parens--;
      calls &= ~(1 << parens);
    } else if (calls !== 0 && (t === NUM || t === WORD || t === STRING) && back(k - 1) >= 0) {
      // a call's arguments (`AdamW(lr=0.000119, momentum=0.9)`, `Namespace(...)`): settings, not metrics
      if (kind[back(k - 1)] === EQ) C.addText();
    } else if (t === NUM) value(k);
    else if (t === COUNTER) counterAt(k);
    else if (t === WORD || t === STRING) {
      if (t === WORD && isWarningAt(s, start[k], end[k])) C.addWarning();
      afterEq(k);
    }
  }
  s = '';
  return count;
}
