// The frame every harness entry point runs in: guard the process (signals, uncaught errors, watchdog),
// run the body, clean up every process it started, verify with `ps` that nothing is left, print the
// `N passed, N failed` line and exit non-zero on any failure.
import { writeCounts } from './counts';
import { cleanupAll, countLeftovers, guardProcess, leftovers, type Guard, type Tally } from './processes';
import { log, summaryLine } from './util';

export interface SuiteContext {
  tally: Tally;
  /** Strings unique to this run (scratch folders, tokens) that appear in the command lines of the
   *  processes it starts; used to find leftovers after cleanup. */
  markers: string[];
  /** Bound the next phase: the whole run is stopped (and fails) if it takes longer. */
  watchdog: Guard;
  /** Tests that failed and then passed when tried again, by name (the UI suite's retried flows). */
  flaky: string[];
  /** The failed tests with the start of their errors, said again just before the summary line (a CI log's
   *  tail then shows why, not only how many). */
  failures?: string[];
}

/** Note a failed test for the summary: where it ran, its name, the first lines of its error. */
export function noteFailure(ctx: SuiteContext, where: string, title: string, error = ''): void {
  ctx.failures?.push(`${where}: ${title}\n  ${error.split('\n').slice(0, 4).join('\n  ')}`);
}

/** Register how to stop something a part started; it is stopped when the part ends, however it ends. */
export type Own = (stop: () => Promise<void>) => void;

/**
 * Run one part of a suite (e.g. one VS Code version). What it started (registered with `own`) is
 * stopped when it ends; an error counts as a failure and the suite goes on with the next part.
 */
export async function part(ctx: SuiteContext, label: string, fn: (own: Own) => Promise<void>): Promise<void> {
  const stops: Array<() => Promise<void>> = [];
  try {
    await fn((stop) => stops.push(stop));
  } catch (err) {
    ctx.tally.failed++;
    console.log(`${label}: error: ${(err as Error)?.stack ?? err}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

/**
 * Run a suite's body in the guarded frame. Unless `recordCounts` is false (the benchmarks count budgets,
 * not tests), the tally goes to test-results/tests-<name>.json for `npm run report`.
 */
export function runSuite(
  name: string,
  body: (ctx: SuiteContext) => Promise<void>,
  /** `retries`: the suite runs a failed test again (the UI suite), so its flaky tests are recorded. */
  opts: { recordCounts?: boolean; retries?: boolean } = {},
): void {
  const tally = { passed: 0, failed: 0 };
  const ctx: SuiteContext = {
    tally,
    markers: [],
    watchdog: guardProcess(name, { tally }),
    flaky: [],
    failures: [],
  };
  const started = Date.now();
  void (async () => {
    try {
      await body(ctx);
    } catch (err) {
      ctx.tally.failed++;
      console.error(`[${name}] error: ${(err as Error)?.stack ?? err}`);
    }
    ctx.watchdog.disarm();
    await cleanupAll();
    // Counted, not assumed: the engines' nodes (sshd) and jobs (processes in their data folders) included.
    const left = leftovers(ctx.markers);
    const { sshd, other } = countLeftovers(left);
    if (left.length > 0) {
      ctx.tally.failed++;
      console.error(
        `[${name}] processes left behind after cleanup (now killed; ${sshd} sshd, ${other} other):\n  ${left.join('\n  ')}`,
      );
    } else {
      log('cleanup verified: 0 sshd, 0 job processes, no process of this run is left');
    }
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    log(`${name} took ${seconds.toFixed(1)} s`);
    if (opts.recordCounts !== false)
      writeCounts({
        suite: name,
        ...ctx.tally,
        pending: 0,
        seconds,
        options: process.argv.slice(2).join(' ') || process.env.VSCODE_TARGETS || '',
        ...(opts.retries ? { flaky: ctx.flaky } : {}),
      });
    if (ctx.flaky.length > 0)
      console.log(`[${name}] flaky (failed, then passed when tried again):\n  ${ctx.flaky.join('\n  ')}`);
    if (ctx.failures?.length)
      console.log(`[${name}] failed:\n  ${ctx.failures.join('\n  ').split('\n').join('\n  ')}`);
    process.stdout.write(`${summaryLine(ctx.tally.passed, ctx.tally.failed)}\n`);
    process.exit(ctx.tally.failed > 0 || ctx.tally.passed === 0 ? 1 : 0);
  })();
}
