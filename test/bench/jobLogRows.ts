// The job-log rows of the bench table (test/bench/host/jobLog.ts measures them in the extension host).
//   event-loop delay p99 while streaming 100,000 lines: target <= 50 ms (the jobs issue), reported as
//   information with whether it was met (not yet on every VS Code version). The log is read in a worker
//   thread (src/api/listenThread.ts; on Linux 10 nice steps below the host's), which parses the socket's
//   bursts; the extension host's thread gets a batch of messages every 20 ms (log lines in runs, one string
//   each) and writes the terminal at most every 50 ms, at most the lines the terminal keeps (its scrollback
//   plus a screen); the window ends 500 ms after the follower, so the last write is in it. Every line
//   arriving is checked;
//   heap growth while streaming: <= 8 MB, the heap the 100,000 lines leave behind: heapUsed after a full GC
//   once they have streamed (terminal still open) minus heapUsed after a full GC when the push returned.
//   What the extension holds for a job's log is bounded by construction: the LogBuffer at most ~1 MB of
//   text waiting for the terminal (empty between writes), the test API's tap (outside production only)
//   the last ~2 MB. Keeping the log instead would cost at least 100,000 strings of ~60 characters (about
//   8 MB), so 8 MB separates "bounded" from "keeps the log". The peak heapUsed while streaming (sampled
//   every 100 ms, no forced GC) is in the note: it includes garbage V8 has not collected yet (its young
//   generation alone may hold tens of MB), so it says more about V8's GC schedule than about the extension.
//   time to stream: information.
import type { JobLogSample } from './host/jobLog';
import type { Table } from './run';

export const JOB_LOG_BUDGET = { loopDelayP99Ms: 50, heapGrowthMB: 8 };

export function jobLogRows(
  table: Table,
  where: string,
  j: JobLogSample | undefined,
  failure: string | undefined,
): void {
  const delayRow = 'Job log: 100,000 lines, event-loop delay p99';
  const heapRow = 'Job log: heap growth while streaming';
  if (!j) {
    for (const row of [delayRow, heapRow]) table.missing(row, where, failure ?? 'the job-log step failed');
    return;
  }
  const arrived =
    j.outcome === 'success' &&
    j.listenConnections === 1 &&
    j.tail.consecutive &&
    j.tail.last === j.lines &&
    j.tail.kept > 0;
  const delivery = `follow ended: ${j.outcome}; ${j.listenConnections} listen connection(s); the terminal tap's last 2 MB holds lines ${j.tail.first}..${j.tail.last} (${j.tail.kept}, ${j.tail.consecutive ? 'consecutive' : 'NOT consecutive'})`;
  table.add(
    'Job log: 100,000 lines reach the follower, in order, on one connection',
    where,
    'lines',
    [j.lines],
    undefined,
    {
      ok: arrived,
      note: delivery,
    },
  );
  // Reported against its target as information: a single stream gives 120-290 delay samples, so the p99 is the
  // second or third longest stall, and runs of the same build range from about 40 to 110 ms on the 2-core
  // machines (the fresh-clone CI run of 5351ace: 58 ms on VS Code 1.100, 97 ms on 1.139; 460-580 ms before
  // the worker thread).
  const met = j.loopDelayMs.p99 <= JOB_LOG_BUDGET.loopDelayP99Ms;
  table.add(delayRow, where, 'ms', [j.loopDelayMs.p99], undefined, {
    ok: arrived ? undefined : false,
    limitText: `target <= ${JOB_LOG_BUDGET.loopDelayP99Ms} ms (${met ? 'met' : 'not met yet'})`,
    note: `monitorEventLoopDelay (10 ms resolution, included) over ${(j.streamMs / 1000).toFixed(1)} s: p50 ${j.loopDelayMs.p50.toFixed(1)} ms, max ${j.loopDelayMs.max.toFixed(1)} ms, ${j.loopDelayMs.samples} samples; the engine (the service's stand-in) at nice ${j.engineNice}; ${delivery}`,
  });
  const h = j.heapMB;
  table.add(heapRow, where, 'MB', [h.after - h.before], JOB_LOG_BUDGET.heapGrowthMB, {
    ok: h.gcAvailable,
    note: `heapUsed after a full GC: ${h.before.toFixed(1)} MB when the push returned, ${h.after.toFixed(1)} MB once the lines had streamed (terminal open), ${h.afterClose.toFixed(1)} MB after closing the terminal; peak while streaming (no forced GC) ${h.peak.toFixed(1)} MB (+${(h.peak - h.before).toFixed(1)} MB)${h.gcAvailable ? '' : '; no GC was available, so the figures are not comparable'}`,
  });
  table.add('Job log: time to stream 100,000 lines', where, 'ms', [j.streamMs], undefined, {
    note: 'from the push returning (the follower starts) to the follower ending with the final status',
  });
}
