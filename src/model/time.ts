/**
 * Times as people read them: relative ("3 minutes ago") in rows, exact and local in tooltips.
 * Pure: the clock, the locale and the time zone are parameters (the VS Code layer passes its own).
 */
import * as l10n from '@vscode/l10n';

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** Intl formatters are slow to make (tens of microseconds): one per locale and zone, reused. */
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const exactFormats = new Map<string, Intl.DateTimeFormat>();

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let f = relativeFormats.get(locale);
  if (!f) relativeFormats.set(locale, (f = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
  return f;
}

function exactFormat(locale: string, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone ?? ''}`;
  let f = exactFormats.get(key);
  if (!f)
    exactFormats.set(
      key,
      (f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'long', timeZone })),
    );
  return f;
}

/** Parse a service timestamp; undefined for anything that is not a date. */
function parseTime(text: string | undefined): Date | undefined {
  if (!text || text.trim() === '') return undefined;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * "3 minutes ago", "in 2 hours", "yesterday", "just now". Undefined when `text` is not a date (the
 * caller then shows the text as it came).
 */
export function relativeTime(text: string | undefined, now: number, locale = 'en'): string | undefined {
  const date = parseTime(text);
  if (!date) return undefined;
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return l10n.t('just now');
  const format = relativeFormat(locale);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return format.format(Math.round(seconds / size), unit);
    }
  }
  return undefined;
}

/** The exact time in the user's time zone, with the zone named: "Nov 23, 2026, 6:02:35 PM UTC". */
export function exactTime(text: string | undefined, locale = 'en', timeZone?: string): string | undefined {
  const date = parseTime(text);
  if (!date) return undefined;
  return exactFormat(locale, timeZone).format(date);
}

/** Row text for a timestamp: relative when it is a date, else the text as the service sent it. */
export function timeForRow(text: string, now: number, locale = 'en'): string {
  return relativeTime(text, now, locale) ?? text;
}
