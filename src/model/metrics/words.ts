/**
 * The words the metric-line parser (parseLine.ts) recognises in names and lines: parts of names that say
 * "a training metric" or "a setting", words of prose that end a name, log levels, and the words that make a
 * line a warning or an error. No `vscode` import, no I/O.
 */

/** Parts of names that say "this is a training metric" (a line with one pair needs one of them, or an x). */
/* eslint-disable tensorpool/l10n -- parts of metric names the parser matches, never shown */
const METRIC_WORDS = new Set(
  (
    'loss losses acc accuracy lr learning ppl perplexity reward rewards return score f1 bleu rouge map auc ' +
    'precision recall grad gnorm norm error mse mae rmse iou miou dice psnr ssim fid kl entropy nll bpb bpc ' +
    'throughput mfu wer cer top1 top5 top1_acc tflops wps ups tps tokens samples'
  ).split(' '),
);
/* eslint-enable tensorpool/l10n */

/** Parts of names that say "this is a setting" (a size, a count of parameters, a capability): a line whose
 *  every metric is named so is a configuration summary (`num_parameters: 124475904 => bytes: 248951808`,
 *  `using world size: 64, data-parallel size: 8`), not metrics. */
/* eslint-disable tensorpool/l10n -- parts of setting names the parser matches, never shown */
const SETTING_WORDS = new Set(
  (
    'size sizes param params parameters num bytes capability capabilities processes len length workers ' +
    'threads world parallel vocab dim layers heads seq'
  ).split(' '),
);
/* eslint-enable tensorpool/l10n */

/** Names seen, and whether each is a setting's (a log prints the same few names on every line). */
const settings = new Map<string, boolean>();

export function isSettingName(name: string): boolean {
  let yes = settings.get(name);
  if (yes === undefined) {
    yes = hasPart(name, SETTING_WORDS);
    if (settings.size >= 1024) settings.clear();
    settings.set(name, yes);
  }
  return yes;
}

export function isMetricWord(name: string): boolean {
  return hasPart(name, METRIC_WORDS);
}

function hasPart(name: string, words: ReadonlySet<string>): boolean {
  let from = 0;
  for (let i = 0; i <= name.length; i++) {
    const c = i < name.length ? name.charCodeAt(i) : 95;
    if (c === 95 || c === 47 || c === 46 || c === 45 || c === 64) {
      // _ / . - @ (acc@1)
      if (i > from && words.has(name.slice(from, i))) return true;
      from = i + 1;
    }
  }
  return false;
}

/** Words of prose that end a multi-word name before them (`with local batch size 1` is `local_batch_size`). */
const PROSE = new Set([
  'and',
  'with',
  'using',
  'used',
  'at',
  'is',
  'are',
  'was',
  'will',
  'when',
  'to',
  'from',
]);

/** Whether s[from, to) is a word of prose (PROSE, any case). */
export function isProseAt(s: string, from: number, to: number): boolean {
  if (to - from < 2 || to - from > 5) return false;
  const c = s.charCodeAt(from) | 32; // a w u i t f: the first letters of PROSE, so most words cost no slice
  if (c !== 97 && c !== 119 && c !== 117 && c !== 105 && c !== 116 && c !== 102) return false;
  return PROSE.has(s.slice(from, to).toLowerCase());
}

/** Whether s[from, to) says the line is a warning or an error: WARNING, ERROR, CRITICAL, FATAL, OVERFLOW (in
 *  capitals: DeepSpeed's and apex's loss-scale messages), a Python warning's class (`UserWarning`), or a
 *  glog-style prefix of a warning or error (`W1127`, `E1127`: c10d, NCCL, torch.distributed). */
export function isWarningAt(s: string, from: number, to: number): boolean {
  const a = s.charCodeAt(from);
  if (a < 65 || a > 90) return false; // each starts with a capital: most words cost this one test
  const n = to - from;
  if (n === 5 && (a === 87 || a === 69 || a === 70)) {
    for (let i = from + 1; i < to; i++) if (s.charCodeAt(i) < 48 || s.charCodeAt(i) > 57) return false;
    return true;
  }
  if (n >= 7 && s.endsWith('Warning', to)) return true;
  return n >= 4 && n <= 8 && a >= 65 && a <= 90 && ALARMS.has(s.slice(from, to));
}

const ALARMS = new Set(['WARN', 'WARNING', 'ERROR', 'CRITICAL', 'FATAL', 'OVERFLOW']);

/** Log levels, in capitals: never part of a metric name (`INFO train loss: 0.5` is `train_loss`). */
const LEVELS = new Set(['INFO', 'DEBUG', 'WARN', 'WARNING', 'ERROR', 'CRITICAL', 'TRACE', 'FATAL', 'NOTICE']);

/** Whether s[from, to) is a log level word. */
export function isLogLevelAt(s: string, from: number, to: number): boolean {
  // written in capitals (INFO, WARNING): the first two letters say no to nearly every other word at once
  const a = s.charCodeAt(from);
  const b = s.charCodeAt(from + 1);
  if (to - from < 4 || to - from > 8 || a < 65 || a > 90 || b < 65 || b > 90) return false;
  return LEVELS.has(s.slice(from, to));
}
