/** Live metrics from a job's log: the line parser, the bounded series and their CSV. No `vscode` import. */
export type { MetricPoint } from './types';
export { parseMetricLine, MAX_LINE } from './parseLine';
export { MetricSeries, DEFAULT_CAP, type SeriesPoints } from './series';
export { MetricStore, TIME_KEY, DEFAULT_MAX_SERIES, type MetricStoreOptions } from './store';
export { toCsv, parseCsv, csvField, CSV_HEADER } from './csv';
