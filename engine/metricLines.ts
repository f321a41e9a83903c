// Metric lines for the engine's simulated job logs (POST /_engine/config {"jobs": {"metrics": "kv"}}):
// with a style set, output line k of a command prints a training step's numbers instead of
// "line k of N", except every EVERY-th line, which stays plain (a log mixes both). Deterministic, so
// tests compute what a job printed. Style "kv": `step=12 loss=0.4821 lr=0.0001 acc=0.91`.
export const METRIC_STYLES = ['', 'kv'] as const;
export type MetricStyle = (typeof METRIC_STYLES)[number];

const EVERY = 5;

export function isMetricStyle(v: unknown): v is MetricStyle {
  return typeof v === 'string' && (METRIC_STYLES as readonly string[]).includes(v);
}

/** The loss and accuracy step k prints (4 decimals, as training scripts print them). */
export function metricValues(k: number): { loss: number; acc: number; lr: number } {
  const loss = Number((2.5 / (1 + k / 10) + 0.05 * Math.sin(k)).toFixed(4));
  const acc = Number((1 - 0.9 / (1 + k / 20)).toFixed(4));
  return { loss, acc, lr: 0.0001 };
}

/** Whether output line k is a metric line. */
export function isMetricStep(k: number): boolean {
  return k % EVERY !== 0;
}

/** Output line k (1-based) of a job whose log prints metrics, or undefined for a plain line. */
export function metricLine(style: MetricStyle, k: number): string | undefined {
  if (style === '' || !isMetricStep(k)) return undefined;
  const v = metricValues(k);
  return `step=${k} loss=${v.loss} lr=${v.lr} acc=${v.acc}`;
}
