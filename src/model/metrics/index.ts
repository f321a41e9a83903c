/** Live metrics from a job's log: the line parser, the bounded series and their CSV. No `vscode` import. */
export { parseMetricLine, MAX_LINE } from './parseLine';
export { MetricSeries } from './series';
export { MetricStore, TIME_KEY } from './store';
export { toCsv, parseCsv, CSV_HEADER } from './csv';
