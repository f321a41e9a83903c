/**
 * The log levels the whole extension speaks (the transport's lines and the output channel), and the
 * one rule for whether a line at some level shows under a threshold.
 */

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogSink = (level: LogLevel, message: string) => void;

const LEVEL_ORDER: Record<LogLevel | 'off', number> = {
  trace: 0,
  debug: 1,
  info: 2,
  warn: 3,
  error: 4,
  off: 5,
};

/** Whether a line at `level` shows when the least severe level shown is `threshold`. */
export function levelShows(level: LogLevel, threshold: LogLevel | 'off'): boolean {
  return LEVEL_ORDER[level] >= LEVEL_ORDER[threshold];
}
