// The real-job rows of the bench table (test/bench/host/realJobs.ts measures them in the extension host, on a
// real node of the engine's, with the user's key):
//   - Run on Cluster… to the job's first output line in its terminal, over the official CLI's `tp job push`
//     then `tp job listen` of the same job on the same engine to the same line (a ratio of medians; the CLI
//     starts a Python interpreter twice, the extension is already running): information, reported;
//   - a 1,000-file, ~100 MB project: Run on Cluster…'s whole push (its upload is the service's rsync over
//     ssh) over a plain `rsync -az` over the same ssh of the same folder in the same run, the median of the
//     per-pair ratios: reported against the aim (<= 1.1: the push adds only its WebSocket exchange and
//     the consent, answered at once), gated at 1.5. The pairs' ratios moved from 1.09 to 1.32 in one run on
//     the 2-core machine shared with other work, so a 1.1 gate fails on load rather than on the code.
import type { RealJobSample } from './host/realJobs';
import type { RowTable } from './rowTable';
import { median } from './stats';

const UPLOAD_AIM = 1.1;
const UPLOAD_RATIO = 1.5;

export function realJobRows(
  table: RowTable,
  where: string,
  r: RealJobSample | undefined,
  failure: string | undefined,
): void {
  const firstRow = 'Real job: Run on Cluster to the first output line / tp job push + listen (same engine)';
  const uploadRow = 'Real job: upload of 1,000 files (~100 MB), Run on Cluster / plain rsync (same run)';
  if (!r) {
    for (const row of [firstRow, uploadRow]) table.missing(row, where, failure ?? 'the real-job step failed');
    return;
  }
  const f = r.firstLine;
  const ms = (v: number) => `${Math.round(v)} ms`;
  // Information either way: without python3 and its packages the CLI cannot run, which says nothing of ours.
  if (f.cliSkipped || f.cliMs.length === 0)
    table.add(firstRow, where, 'x', [], undefined, {
      note: `the official CLI did not run: ${f.cliSkipped ?? 'no run'}; extension median ${ms(median(f.extensionMs))}`,
    });
  else
    table.add(
      firstRow,
      where,
      'x',
      f.extensionMs.map((v, i) => v / (f.cliMs[i] ?? f.cliMs[0])),
      undefined,
      {
        note: `extension median ${ms(median(f.extensionMs))} (${f.extensionMs.map(ms).join(', ')}), tp median ${ms(median(f.cliMs))} (${f.cliMs.map(ms).join(', ')}); information`,
      },
    );
  const u = r.upload;
  table.add(
    uploadRow,
    where,
    'x',
    u.extensionMs.map((v, i) => v / (u.rsyncMs[i] ?? u.rsyncMs[0])),
    UPLOAD_RATIO,
    {
      limitText: `aim <= ${UPLOAD_AIM}x (${median(u.extensionMs.map((v, i) => v / (u.rsyncMs[i] ?? u.rsyncMs[0]))) <= UPLOAD_AIM ? 'met' : 'missed'}); fails > ${UPLOAD_RATIO}x`,
      note: `${u.files} files, ${Math.round(u.bytes / 1e6)} MB: Run on Cluster median ${ms(median(u.extensionMs))}, rsync median ${ms(median(u.rsyncMs))}`,
    },
  );
}
