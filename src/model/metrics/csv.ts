/**
 * A metric store as CSV (RFC 4180), in long format: one row per kept point, `metric,x_key,x,value`,
 * the series in the order they appeared, each in x order. Long rather than wide (`step,loss,acc,...`)
 * because series do not share their x values (a loss every step, an eval every 500, a per-epoch line, the
 * time for a line without a step) and a wide table would be mostly empty cells; `x_key` says what x is
 * (`step`, `epoch`... or `time`, milliseconds since 1970). Numbers are written as JavaScript writes them
 * (the shortest text that reads back as the same number). Fields holding a comma, a quote, a CR or an LF
 * are quoted, quotes doubled; lines end with CRLF. Metric names from the parser never start with `=`, `+`,
 * `-` or `@` (names.ts), so no cell reads as a spreadsheet formula. No `vscode` import.
 */
import type { MetricStore } from './store';

export const CSV_HEADER = ['metric', 'x_key', 'x', 'value'] as const;

const NEEDS_QUOTES = /[",\r\n]/;

function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(store: MetricStore): string {
  const out: string[] = [CSV_HEADER.join(',')];
  for (const series of store.series()) {
    const name = csvField(series.name);
    const key = csvField(series.xKey);
    const { xs, ys } = series.points();
    for (let i = 0; i < xs.length; i++) out.push(`${name},${key},${xs[i]},${ys[i]}`);
  }
  return out.join('\r\n') + '\r\n';
}

/** Rows of RFC 4180 text (CRLF or LF line ends; a last line end optional); undefined when it is not
 *  (a stray or unterminated quote). */
export function parseCsv(text: string): string[][] | undefined {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return undefined;
        field += text.slice(i, q);
        i = q + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    } else {
      let j = i;
      while (j < n && text[j] !== ',' && text[j] !== '\r' && text[j] !== '\n') {
        if (text[j] === '"') return undefined;
        j++;
      }
      field = text.slice(i, j);
      i = j;
    }
    row.push(field);
    if (text[i] === ',') {
      i++;
      if (i === n) row.push('');
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') i += 2;
    else if (text[i] === '\n' || text[i] === '\r') i++;
    else if (i < n) return undefined;
    rows.push(row);
    row = [];
  }
  if (row.length > 0) rows.push(row);
  return rows;
}
