/**
 * Jobs as the extension sees them (spec "Jobs"). States: pending, running, completed, error, failed,
 * canceling, canceled; terminal: completed, error, failed, canceled. Compared case-insensitively; a
 * value the service invents later is "still going" (never terminal), so following never stops early.
 */

export type KnownJobState =
  'pending' | 'running' | 'completed' | 'error' | 'failed' | 'canceling' | 'canceled';

/** What a job is doing, for icons and actions; `unknown` = a state this version does not know. */
export type JobStateKind = KnownJobState | 'unknown';

const TERMINAL_JOB_STATES: ReadonlySet<KnownJobState> = new Set(['completed', 'error', 'failed', 'canceled']);

const KNOWN: ReadonlySet<string> = new Set([
  'pending',
  'running',
  'completed',
  'error',
  'failed',
  'canceling',
  'canceled',
]);

/** The state in lower case; British/older spellings (`cancelled`) read as the service's. */
export function jobStateKind(status: string | undefined | null): JobStateKind {
  const s = (status ?? '')
    .trim()
    .toLowerCase()
    .replace('cancelled', 'canceled')
    .replace('cancelling', 'canceling');
  return KNOWN.has(s) ? (s as KnownJobState) : 'unknown';
}

export function isTerminalJobState(status: string | undefined | null): boolean {
  const k = jobStateKind(status);
  return k !== 'unknown' && TERMINAL_JOB_STATES.has(k);
}

/** Did the job end well? undefined while it is not terminal. */
export function jobSucceeded(status: string | undefined | null): boolean | undefined {
  if (!isTerminalJobState(status)) return undefined;
  return jobStateKind(status) === 'completed';
}

/** Signal numbers as on Linux, where jobs run (a shell reports a command killed by signal n as exit 128+n). */
const LINUX_SIGNALS: Readonly<Record<number, string>> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  4: 'SIGILL',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  14: 'SIGALRM',
  15: 'SIGTERM',
};

/** The signal an exit code 128+n stands for (e.g. 137 -> SIGKILL), undefined for any other code. */
export function exitSignal(exitCode: number | undefined): string | undefined {
  return exitCode !== undefined && exitCode > 128 ? LINUX_SIGNALS[exitCode - 128] : undefined;
}

export interface Job {
  readonly id: string;
  /** The service's status text as sent (compare through jobStateKind). */
  readonly status: string | undefined;
  readonly clusterId: string | undefined;
  readonly name: string | undefined;
  readonly createdAt: string | undefined;
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly exitCode?: number;
  readonly owner?: string;
  /** 'text' when read from the service's text table rather than structured fields. */
  readonly source?: 'text';
}

export interface JobListing {
  /** undefined when the service sent only its text (then see textJobs and message). */
  readonly jobs: Job[] | undefined;
  readonly message: string | undefined;
  /** The jobs the text table names, when the answer was text only. */
  readonly textJobs?: Job[];
}

/** What a pull answer asks for: files to download, or a command to run locally (a running job). */
export type PullPlan =
  | {
      readonly kind: 'download';
      /** Relative path -> URL, as sent (check every path with safeOutputPath before writing). */
      readonly files: ReadonlyMap<string, string>;
      /** Sizes in bytes when the service said them. */
      readonly sizes: ReadonlyMap<string, number>;
      readonly message: string | undefined;
    }
  | {
      readonly kind: 'command';
      readonly command: string;
      readonly showStdout: boolean;
      readonly message: string | undefined;
    }
  | { readonly kind: 'nothing'; readonly message: string | undefined };
