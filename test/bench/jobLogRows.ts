// The job-log rows of the bench table (test/bench/host/jobLog.ts measures them in the extension host).
//   Each figure is over several jobs of 100,000 lines streamed one after the other (STREAMS in the host's
//   jobLog.ts): median, lowest and highest, like every other row over its runs;
//   event-loop delay p99 while streaming, over the same host's p99 idle for 2 s just before each job (the
//   gate, a ratio: <= 5, which is the 50 ms aim of the jobs issue over the ~10 ms an idle loop reads at the
//   monitor's 10 ms resolution; the machine's load moves both sides); the absolute p99 is information against
//   its 50 ms aim (fails only past 3x). The log is read in a worker
//   thread (src/api/listenThread.ts; on Linux 10 nice steps below the host's), which parses the socket's
//   bursts; the extension host's thread gets a batch of messages every 20 ms (log lines in runs, one string
//   each) and writes the terminal at most every 50 ms, at most the lines the terminal keeps (its scrollback
//   plus a screen); the window ends 500 ms after the follower, so the last write is in it. Every line
//   arriving is checked;
//   heap growth while streaming: <= 8 MB, the heap a job's 100,000 lines leave behind: heapUsed after a full
//   GC once they have streamed (terminal still open) minus heapUsed after a full GC when the push returned;
//   the note adds the heap after the last job's terminal closed against the first push.
//   What the extension holds for a job's log is bounded by construction: the LogBuffer at most ~1 MB of
//   text waiting for the terminal (empty between writes), the test API's tap (outside production only)
//   the last ~2 MB. Keeping the log instead would cost at least 100,000 strings of ~60 characters (about
//   8 MB), so 8 MB separates "bounded" from "keeps the log". The peak heapUsed while streaming (sampled
//   every 100 ms, no forced GC) is in the note: it includes garbage V8 has not collected yet (its young
//   generation alone may hold tens of MB), so it says more about V8's GC schedule than about the extension.
//   time to stream: information.
import { FOLLOW_LINES, type FollowedJob, type FollowLogSample } from './followLog';
import type { JobLogSample, StreamSample } from './host/jobLog';
import type { RowTable } from './rowTable';
import { median } from './stats';

// metricsAim: the issue's "extraction adds at most 10%", against the median p99 of the jobs with extraction on
// over the median p99 of the jobs with it off, at 1 ms resolution (at 10 ms a stream's p99 is its second or
// third longest stall and moves by about half from one stream to the next); metricsRatio: the gate, 2x
// (extraction doubling the stalls), the aim beside it. followRatio: the same comparison for the follower alone in
// a process of its own (./followLog.ts), where one run of 20 pairs reads 1.01x with a standard deviation of 0.09
// (27 runs on the 2-core machine): a quarter more is a regression, not noise; the aim beside it.
const JOB_LOG_BUDGET = {
  loopDelayP99Ms: 50,
  delayRatio: 5,
  heapGrowthMB: 8,
  metricsAim: 1.1,
  metricsRatio: 2,
  followRatio: 1.25,
};

export function jobLogRows(
  table: RowTable,
  where: string,
  j: JobLogSample | undefined,
  failure: string | undefined,
): void {
  const delayRow = 'Job log: 100,000 lines, event-loop delay p99';
  const heapRow = 'Job log: heap growth while streaming';
  const ratioRow = 'Job log: event-loop delay p99, streaming / idle (same host, same launch)';
  const metricsRow = 'Job log: metric extraction on / off, event-loop p99';
  const chartRow = 'Chart update: 10 series × 100,000 points, per 1,000-point round';
  if (!j) {
    for (const row of [ratioRow, delayRow, heapRow, metricsRow, chartRow])
      table.missing(row, where, failure ?? 'the job-log step failed');
    return;
  }
  const streams = j.streams;
  const arrivedIn = (x: StreamSample) =>
    x.outcome === 'success' &&
    x.listenConnections === 1 &&
    x.tail.consecutive &&
    x.tail.last === j.lines &&
    x.tail.kept > 0;
  const arrived = streams.length > 0 && streams.every(arrivedIn);
  const delivery = streams
    .map(
      (x, i) =>
        `job ${i + 1}: follow ended ${x.outcome}, ${x.listenConnections} listen connection(s), the terminal tap's last 2 MB holds lines ${x.tail.first}..${x.tail.last} (${x.tail.kept}, ${x.tail.consecutive ? 'consecutive' : 'NOT consecutive'})`,
    )
    .join('; ');
  table.add(
    'Job log: 100,000 lines reach the follower, in order, on one connection',
    where,
    'lines',
    streams.map(() => j.lines),
    undefined,
    { ok: arrived, note: delivery },
  );
  // Reported against its target as information. One stream gives 100-300 delay samples, so its p99 is its
  // second or third longest stall, and streams of the same build range from about 20 to 80 ms on the 2-core
  // machines (a single stream per version read 58 and 97 ms in the fresh-clone CI run of 5351ace); so the
  // row is over several streams (the median of their p99s, like every other row's median over its runs),
  // the lowest and highest beside it.
  const p99s = streams.map((x) => x.loopDelayMs.p99);
  const idle = j.idle ?? [];
  if (idle.length !== streams.length)
    table.missing(ratioRow, where, 'no idle window was measured beside each job');
  else
    table.add(
      ratioRow,
      where,
      'x',
      streams.map((x, i) => x.loopDelayMs.p99 / idle[i].p99),
      JOB_LOG_BUDGET.delayRatio,
      {
        ok: arrived ? undefined : false,
        note: `per job, its p99 over the p99 of the same host idle for 2 s just before it: idle p99 ${idle.map((x) => x.p99.toFixed(1)).join(', ')} ms (the 10 ms resolution is in both)`,
      },
    );
  table.add(delayRow, where, 'ms', p99s, JOB_LOG_BUDGET.loopDelayP99Ms, {
    ok: arrived ? undefined : false,
    note: `monitorEventLoopDelay (10 ms resolution, included), ${streams.length} jobs one after the other: p99 per job ${p99s.map((v) => v.toFixed(1)).join(', ')} ms (${streams.map((x) => x.loopDelayMs.samples).join(', ')} samples over ${streams.map((x) => (x.streamMs / 1000).toFixed(1)).join(', ')} s); longest stall per job ${streams.map((x) => x.loopDelayMs.max.toFixed(0)).join(', ')} ms; the engine (the service's stand-in) at nice ${j.engineNice}`,
  });
  // Metric extraction: each job with it on beside one with it off (which first alternating), the same log
  // (four lines in five are metric lines); the event-loop delay p99 at 1 ms resolution, the median of the on
  // jobs' over the median of the off jobs'.
  const off = j.metricsOff ?? [];
  if (j.compared === false) {
    // On the first version only: the follower-alone rows (fresh Node processes) compare both runtimes.
  } else if (off.length !== streams.length || streams.length === 0)
    table.missing(metricsRow, where, 'no job streamed with extraction off beside each one with it on');
  else {
    const extracted = streams.every((x) => x.metrics?.state === 'ended' && x.metrics.lossPoints > 0);
    const p99 = (xs: StreamSample[]) => xs.map((x) => x.fineDelayMs.p99);
    const ratio = median(p99(streams)) / median(p99(off));
    const list = (xs: StreamSample[]) =>
      `${p99(xs)
        .map((v) => v.toFixed(1))
        .join(', ')} ms (${xs.map((x) => x.fineDelayMs.samples).join(', ')} samples)`;
    table.add(metricsRow, where, 'x', [ratio], JOB_LOG_BUDGET.metricsRatio, {
      limitText: `aim <= ${JOB_LOG_BUDGET.metricsAim}x (${ratio <= JOB_LOG_BUDGET.metricsAim ? 'met' : 'missed'}); fails > ${JOB_LOG_BUDGET.metricsRatio}x`,
      ok: arrived && off.every(arrivedIn) && extracted ? undefined : false,
      note: `event-loop delay p99 at 1 ms resolution per job, with extraction ${list(streams)}, without ${list(off)}; the medians' ratio; with it on, the job's series were complete at its end (${streams.map((x) => `${x.metrics?.state ?? 'none'}, ${x.metrics?.lossPoints ?? 0} loss points kept`).join('; ')})${off.every(arrivedIn) ? '' : '; a job with extraction off lost lines'}`,
    });
  }
  const c = j.chartUpdate;
  if (!c) table.missing(chartRow, where, 'not measured');
  else
    table.add(chartRow, where, 'ms', c.roundMs, undefined, {
      note: `the extension host's side: ${c.series} series fed ${c.points} points each in rounds of 1,000 per series, then the page's update (appends or a downsampled series again) serialised; largest message ${c.largestMessageKB.toFixed(1)} KB; the page holds ${c.heldPerSeries} points per series at the end (bounded); uPlot's drawing in the page is not in it`,
    });
  const first = streams[0]?.heapMB;
  const last = streams[streams.length - 1]?.heapMB;
  table.add(
    heapRow,
    where,
    'MB',
    streams.map((x) => x.heapMB.after - x.heapMB.before),
    JOB_LOG_BUDGET.heapGrowthMB,
    {
      ok: j.gcAvailable,
      note:
        first && last
          ? `heapUsed after a full GC, per job: when the push returned and once the lines had streamed (terminal open), ${streams.map((x) => `${x.heapMB.before.toFixed(1)} -> ${x.heapMB.after.toFixed(1)}`).join(', ')} MB; after closing the last terminal ${last.afterClose.toFixed(1)} MB (${(last.afterClose - first.before).toFixed(1)} MB against the first push); peak while streaming (no forced GC) ${Math.max(...streams.map((x) => x.heapMB.peak)).toFixed(1)} MB${j.gcAvailable ? '' : '; no GC was available, so the figures are not comparable'}`
          : 'no job streamed',
    },
  );
  table.add(
    'Job log: time to stream 100,000 lines',
    where,
    'ms',
    streams.map((x) => x.streamMs),
    undefined,
    {
      note: 'from the push returning (the follower starts) to the follower ending with the final status',
    },
  );
}

const FOLLOW_ROW = 'Job log, the follower alone: metric extraction on / off, event-loop p99';

/** The fresh-process row of ./followLog.ts: extraction on against off with nothing else on the machine's cores. */
export function followLogRows(
  table: RowTable,
  where: string,
  s: FollowLogSample | undefined,
  why?: string,
): void {
  const on = s?.jobs.filter((x) => x.extraction) ?? [];
  const off = s?.jobs.filter((x) => !x.extraction) ?? [];
  if (!s || on.length === 0 || off.length === 0) {
    table.missing(FOLLOW_ROW, where, why ?? 'no pair of jobs was followed');
    return;
  }
  const whole = (x: FollowedJob) => x.outcome === 'success' && x.lines === FOLLOW_LINES + 1;
  const complete =
    s.jobs.every(whole) && on.every((x) => x.records === (FOLLOW_LINES * 4) / 5 && x.lossPoints > 0);
  const p99 = (xs: FollowedJob[]) => xs.map((x) => x.p99);
  const ratio = median(p99(on)) / median(p99(off));
  const list = (xs: FollowedJob[]) =>
    p99(xs)
      .map((v) => v.toFixed(2))
      .join(', ');
  const ms = (xs: FollowedJob[]) => median(xs.map((x) => x.streamMs)).toFixed(0);
  // The run's own noise: the jobs without extraction of the even pairs against those of the odd ones.
  const halves =
    median(p99(off.filter((_, i) => i % 2 === 0))) / median(p99(off.filter((_, i) => i % 2 === 1)));
  table.add(FOLLOW_ROW, where, 'x', [ratio], JOB_LOG_BUDGET.followRatio, {
    limitText: `aim <= ${JOB_LOG_BUDGET.metricsAim}x (${ratio <= JOB_LOG_BUDGET.metricsAim ? 'met' : 'missed'}); fails > ${JOB_LOG_BUDGET.followRatio}x`,
    ok: complete ? undefined : false,
    note: `${on.length} pairs of jobs of ${FOLLOW_LINES.toLocaleString('en')} lines followed by the production API layer (its worker thread reads the log) in a process of their own, the engine at nice ${s.engineNice}; event-loop delay p99 at 1 ms resolution per job, with extraction ${list(on)} ms, without ${list(off)} ms; the medians' ratio (the jobs without extraction of the even pairs against those of the odd pairs read ${halves.toFixed(2)}x: this run's noise). Every job delivered every line${complete ? '' : ' (NOT: a job lost lines, records or its series)'}; with extraction, ${on[0].records.toLocaleString('en')} records a job reached the job's series; median stream ${ms(on)} ms with extraction, ${ms(off)} ms without`,
  });
}
