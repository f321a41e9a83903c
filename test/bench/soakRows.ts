// The soak rows of the bench table (measured by ./host/soak.ts, which says how): heap growth after a full GC
// (<= 5 MB), timers of ours left (0), open sockets (no growth: end minus start <= 0), error notifications (0).
import type { SoakSample } from './host/soak';
import type { RowTable } from './rowTable';

export const SOAK_BUDGET = { heapGrowthMB: 5 };

const MISSING_ROW = 'Soak: every section visible, 30 min accelerated';
const SUB_ROWS = ['  timers of ours left', '  open sockets (growth)', '  error notifications'];

/** A row soakRows() adds (the bench measures a broken one again with the soak alone). */
export function isSoakRow(row: { budget: string }): boolean {
  return row.budget.startsWith('Soak ') || row.budget === MISSING_ROW || SUB_ROWS.includes(row.budget);
}

const counts = (all: Record<string, number>) =>
  Object.entries(all)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

export function soakRows(
  table: RowTable,
  where: string,
  s: SoakSample | undefined,
  failure: string | undefined,
): void {
  if (!s) {
    table.missing(MISSING_ROW, where, failure ?? 'the soak step failed');
    return;
  }
  const name = `Soak ${s.acceleratedMin.toFixed(0)} min accelerated (${(s.wallMs / 1000).toFixed(0)} s, x${s.scale})`;
  const churn = `${s.jobs.submitted}/${s.jobs.pushed} jobs submitted, ${s.volumes.created} volumes created, ${s.volumes.destroyed} destroyed; requests by section: ${counts(s.requests)}`;
  table.add(
    `${name}: heap growth after GC`,
    where,
    'MB',
    [s.heapMB.after - s.heapMB.before],
    SOAK_BUDGET.heapGrowthMB,
    {
      ok: s.heapMB.gcAvailable && s.jobs.submitted > 0 && s.volumes.created > 0,
      note: `heapUsed after a full GC ${s.heapMB.before.toFixed(1)} -> ${s.heapMB.after.toFixed(1)} MB${s.heapMB.gcAvailable ? '' : ' (no GC available)'}; ${churn}`,
    },
  );
  // Ours: made by the extension's or the bench's code (a frame in dist/ or out/), not by VS Code's host or another
  // extension (./host/timerOrigins.ts); the host's total count is in the note.
  const ours = s.newTimers.filter((t) => t.ours);
  const theirs = s.newTimers.filter((t) => !t.ours);
  table.add(SUB_ROWS[0], where, 'timers', [ours.length], 0, {
    limitText: '0 of ours left',
    note: `timers the extension or the bench made during the soak, alive at its end: ${ours.map((t) => t.where).join(', ') || 'none'}; VS Code's or other extensions': ${theirs.map((t) => t.where).join(', ') || 'none'}; all timers of the host ${s.before.timers} -> ${s.after.timers} (peak while visible ${s.peak.timers}); resources after: ${counts(s.after.all)}`,
  });
  table.add(SUB_ROWS[1], where, 'sockets', [s.after.sockets - s.before.sockets], 0, {
    limitText: '<= 0',
    note: `TCP sockets ${s.before.sockets} -> ${s.after.sockets} (peak while visible ${s.peak.sockets}); resources before: ${counts(s.before.all)}`,
  });
  const others = [...s.warnings.map((w) => `warning: ${w}`), ...s.problems];
  table.add(SUB_ROWS[2], where, 'errors', [s.errors.length], 0, {
    limitText: '0',
    note: [...s.errors.slice(0, 3), ...others.slice(0, 3)].join(' / ') || undefined,
  });
}
