/**
 * Cost arithmetic from prices the service gave (never guessed): a running cluster's cost so far, the
 * burn rate of everything running, and the runway the balance gives at that rate. All figures are
 * estimates (the service bills; we multiply). Pure: the clock is a parameter. Amounts in the
 * service's currency (USD in practice; the quote routes do not say).
 */
import * as l10n from '@vscode/l10n';

const HOUR_MS = 3_600_000;

/** Estimated cost of running at `hourlyRate` from `startMs` to `nowMs` (0 before the start). */
export function costSoFar(hourlyRate: number, startMs: number, nowMs: number): number {
  if (!Number.isFinite(hourlyRate) || hourlyRate < 0) return 0;
  return (Math.max(0, nowMs - startMs) / HOUR_MS) * hourlyRate;
}

/** Something that costs money while it exists: a running cluster or a volume. */
export interface Billable {
  /** Per hour; undefined when the service gave no price. */
  readonly hourlyRate: number | undefined;
}

export interface BurnRate {
  /** Sum of the known hourly rates. */
  readonly perHour: number;
  /** Items that cost something unknown: the burn is at least `perHour`. */
  readonly unpriced: number;
  readonly priced: number;
}

export function burnRate(items: readonly Billable[]): BurnRate {
  let perHour = 0;
  let unpriced = 0;
  let priced = 0;
  for (const item of items) {
    const r = item.hourlyRate;
    if (r === undefined || !Number.isFinite(r) || r < 0) unpriced++;
    else {
      perHour += r;
      priced++;
    }
  }
  return { perHour, unpriced, priced };
}

/** Hours the balance lasts at `perHour`; undefined when nothing burns or the balance is unknown.
 *  A balance at or below zero is 0 hours. */
export function runwayHours(balance: number | undefined, perHour: number): number | undefined {
  if (balance === undefined || !Number.isFinite(balance) || !(perHour > 0)) return undefined;
  return Math.max(0, balance) / perHour;
}

/** "about 19 h at this rate" / "about 35 min at this rate" / "about 4 days at this rate". */
export function runwayPhrase(hours: number): string {
  if (hours <= 0) return l10n.t('no balance left at this rate');
  if (hours < 1) return l10n.t('about {0} min at this rate', Math.max(1, Math.round(hours * 60)));
  if (hours < 72) return l10n.t('about {0} h at this rate', Math.round(hours));
  return l10n.t('about {0} days at this rate', Math.round(hours / 24));
}

/** `$12.34` (whole cents), or `$0.0042` below ten cents so small volume rates are not shown as $0.00. */
export function formatMoney(amount: number): string {
  const abs = Math.abs(amount);
  const digits = abs !== 0 && abs < 0.1 ? 4 : 2;
  return `${amount < 0 ? '-' : ''}$${abs.toFixed(digits)}`;
}

/** `$19.92/h`. */
export function formatHourly(rate: number): string {
  return l10n.t('{0}/h', formatMoney(rate));
}
