/**
 * What one line is found to hold, gathered by either reader (structured.ts for `{...}`, pairs.ts for the
 * rest) and judged in one place: `finish()` says whether it is a metric line and builds the MetricPoint.
 * Module-level scratch (the parser runs one line at a time in one thread); `reset()` starts a line.
 *
 * A line is a metric line when it holds at least one named metric and
 * - two or more, or the one is named like a metric (`loss`, `acc`, `lr`... see words.ts), or the line
 *   also has an x (step, epoch...): so `CUDA Version: 12.2`, `Get:1 http://...`, `rank 0` are not;
 * - and it is no warning or error (words.ts isWarningAt: `WARNING`, `UserWarning`, `[W1127 ...]`);
 * - and it is no summary of settings: not every metric is named as a setting (a size, a count of parameters:
 *   words.ts isSettingName), and not two or more text values (`model='resnet'`, `amp=True`, `None`) and no
 *   more than twice as many numbers (`Namespace(lr=0.1, model='resnet', amp=True, ...)`, a model config
 *   dict) are configuration, not metrics.
 * No `vscode` import.
 */
import type { MetricPoint } from './types';
import { EPOCH_RANK, nameKind } from './names';
import { isMetricWord, isSettingName } from './words';

// Parallel arrays with a count each (resetting a count is cheaper than `array.length = 0`).
const names: string[] = [];
const values: number[] = [];
/** Where each named value came from (its token, pairs.ts; 0 in an object). */
const namesAt: number[] = [];
let nNames = 0;
const xNames: string[] = [];
const xValues: number[] = [];
const xRanks: number[] = [];
const xAt: number[] = [];
/** The N of an x written as a counter n/N (`Step [100/600]`), else 0. */
const xOf: number[] = [];
let nX = 0;
const rateNames: string[] = [];
const rateValues: number[] = [];
let nRates = 0;
let named = 0;
let firstName = '';
let textValues = 0;
let warned = false;
let share = false;
let numberValues = 0;
let epoch = NaN;
let epochAt = -1;
let counterN = NaN;
let counterD = NaN;
let counterAt = -1;
let counterInBar = false;
/** Of the last finish(): the x taken (index into the x arrays, -1: none), and whether it was computed
 *  (an epoch's fraction) rather than read. */
let finishedX = -1;
let finishedComputed = false;

export function reset(): void {
  nNames = nX = nRates = 0;
  named = textValues = numberValues = 0;
  warned = share = false;
  firstName = '';
  epoch = counterN = counterD = NaN;
  epochAt = counterAt = -1;
  counterInBar = false;
}

function indexOf(list: readonly string[], count: number, name: string): number {
  for (let i = 0; i < count; i++) if (list[i] === name) return i;
  return -1;
}

/** A value under a name (normalised; unit already joined). `at` orders it against counters. Returns
 *  whether it was taken as a metric or an x. */
export function addNamed(name: string, value: number, at: number): boolean {
  const kind = nameKind(name);
  if (kind >= 0) {
    addX(name, value, kind, at);
    return true;
  }
  if (kind !== -1) return false; // an ignored name
  if (named++ === 0) firstName = name;
  if (Number.isFinite(value) && indexOf(names, nNames, name) < 0) {
    names[nNames] = name;
    namesAt[nNames] = at;
    values[nNames++] = value;
  }
  return true;
}

/** An x value (`step=5`, `Epoch 3`, `iteration 100/1000`); `of`: the N of a counter n/N, else 0. */
export function addX(name: string, value: number, rank: number, at: number, of = 0): void {
  if (!Number.isFinite(value)) return;
  xNames[nX] = name;
  xValues[nX] = value;
  xOf[nX] = of;
  xAt[nX] = at;
  xRanks[nX++] = rank;
  if (rank === EPOCH_RANK && epochAt < 0) {
    epoch = value;
    epochAt = at;
  }
}

/** An epoch told by position (`Train: 0 [ 100/1251`). */
export function addEpoch(value: number, at: number): void {
  addX('epoch', value, EPOCH_RANK, at);
}

/** An unnamed progress counter n/N; `inBar`: right after a progress bar's `|` (tqdm). */
export function addCounter(n: number, d: number, at: number, inBar: boolean): void {
  if (counterAt > epochAt) return; // the first after the epoch (a date's 11/27 before it does not count)
  counterN = n;
  counterD = d;
  counterAt = at;
  counterInBar = inBar;
}

/** An unnamed rate (`36.2it/s`): a metric only on a line that has others. */
export function addRate(name: string, value: number): void {
  if (Number.isFinite(value) && indexOf(rateNames, nRates, name) < 0) {
    rateNames[nRates] = name;
    rateValues[nRates++] = value;
  }
}

/** The line's one metric is a share of a count (`HellaSwag: 2935/10042 = 0.292272`): a metric whatever its
 *  name. */
export function addShare(): void {
  share = true;
}

/** A word that makes the line a warning or an error (names.ts isWarningAt): no metric line. */
export function addWarning(): void {
  warned = true;
}

/** A value that is text (`model='resnet'`, `flag=True`). */
export function addText(): void {
  textValues++;
}

/** A number under `=` (with addText: tells an argument dump from metrics). */
export function addNumber(): void {
  numberValues++;
}

function allSettings(): boolean {
  for (let i = 0; i < nNames; i++) if (!isSettingName(names[i])) return false;
  return true;
}

export function finish(): MetricPoint | undefined {
  finishedX = -1;
  finishedComputed = true;
  if (named === 0 || warned || (textValues >= 2 && textValues * 2 >= numberValues)) return undefined;
  if (textValues > 0 && textValues >= numberValues && nX === 0) return undefined; // `max tokens = 4096 and ... = None`
  if (named === 1 && nX === 0 && !share && !isMetricWord(firstName)) return undefined;
  if (nNames > 0 && allSettings()) return undefined; // a configuration summary (words.ts isSettingName)
  let best = -1;
  for (let i = 0; i < nX; i++) if (best < 0 || xRanks[i] < xRanks[best]) best = i;
  let xKey: string | undefined;
  let xValue: number | undefined;
  let epochCounted = false;
  if (best >= 0) {
    xKey = xNames[best];
    xValue = xValues[best];
    if (xRanks[best] === EPOCH_RANK && counterAt > epochAt && counterD > 0 && counterN <= counterD) {
      xValue = epoch + counterN / counterD; // the fraction of the epoch done: Epoch 1 at 450/1000 is 1.45
    } else if (xRanks[best] !== EPOCH_RANK && xOf[best] > 0 && epochAt >= 0 && xValue <= xOf[best]) {
      // `Epoch [3/10], Step [100/600]`: a step counted within the epoch starts again each epoch
      xKey = 'epoch';
      xValue = epoch + xValue / xOf[best];
      epochCounted = true;
    }
  } else if (counterAt >= 0 && counterInBar) {
    xKey = 'step';
    xValue = counterN;
  }
  const metrics = new Map<string, number>();
  for (let i = 0; i < nNames; i++) metrics.set(names[i], values[i]);
  for (let i = 0; i < nX; i++) {
    if (i === best || metrics.has(xNames[i]) || (epochCounted && xRanks[i] === EPOCH_RANK)) continue;
    metrics.set(xNames[i], xValues[i]);
  }
  for (let i = 0; i < nRates; i++) if (!metrics.has(rateNames[i])) metrics.set(rateNames[i], rateValues[i]);
  if (metrics.size === 0) return undefined;
  finishedX = best;
  finishedComputed = xKey !== undefined && (best < 0 || xValue !== xValues[best]);
  return xKey === undefined ? { metrics } : { x: xValue, xKey, metrics };
}

/** What a line's MetricPoint was read from, when each of its values is one token's number as read (no
 *  counter, no epoch fraction, no rate, every value finite): the x's token and each metric's, in the
 *  point's order. Read right after the finish() that made the point (shapeCache.ts); else undefined. */
export function pointTokens(): { readonly x: number; readonly metrics: readonly number[] } | undefined {
  if (finishedComputed || nRates > 0 || counterAt >= 0) return undefined;
  const metrics: number[] = [];
  const taken = new Set<string>();
  for (let i = 0; i < nNames; i++) {
    metrics.push(namesAt[i]);
    taken.add(names[i]);
  }
  for (let i = 0; i < nX; i++) {
    if (i === finishedX || taken.has(xNames[i])) continue;
    taken.add(xNames[i]);
    metrics.push(xAt[i]);
  }
  return { x: finishedX < 0 ? -1 : xAt[finishedX], metrics };
}
