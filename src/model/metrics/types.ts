/** What the metric-line parser (parseLine.ts) makes of one log line. No `vscode` import. */
export interface MetricPoint {
  /** The line's own x (its step, iteration, epoch...), when it has one. */
  readonly x?: number;
  /** Which key x came from, normalised: `global_step`, `num_updates`, `step`, `iter`, `iteration`, `it`,
   *  `batch`, `epoch` (also as the last part of a longer name: `train/global_step`). */
  readonly xKey?: string;
  /** Metric name (normalised, see names.ts) -> finite value, in the line's order; never empty. */
  readonly metrics: Map<string, number>;
}
