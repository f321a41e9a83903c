// The object-storage step (./s3Bench.ts) runs while the first VS Code version's extension host sits in its
// hidden-idle window (30 s), instead of before the host runs: about half a minute of the bench's wall time.
// Why that is fair to both:
//   - the idle row counts the requests the host's engine receives; the S3 step has an engine and S3 server
//     of its own (a separate process), so nothing it does can reach that count, and the window stays 30 s;
//   - in that window the host, code-server and the browser are idle (every section hidden, nothing armed),
//     so the S3 figures (information against rclone's, measured side by side in the same step; the first
//     page an absolute time that fails only past 3x its aim) see about the load they saw alone.
// The host writes the signal file when the window starts (TENSORPOOL_BENCH_SIGNAL, ./host/index.ts). When no
// window starts (a host step failed first, or no host runs), the step runs once the host is done. Its rows go
// where they always were, after the Node rows, once the host's rows are in (Table.measure must not see rows
// arrive while it measures).
import * as fs from 'node:fs';
import { timed } from '../harness/util';
import { sleep } from '../shared/wait';
import { s3Benchmarks, type S3BenchSample } from './s3Bench';
import { s3Rows } from './s3Rows';
import type { Table } from './table';

export interface S3Step {
  /** Call once the host is done (or when none runs): the step starts then if the signal never came. */
  hostDone(): void;
  /** Waits for the step and puts its rows into `table` at `at`. */
  rowsInto(table: Table, at: number): Promise<S3BenchSample | undefined>;
}

export function s3DuringIdle(signal: string | undefined): S3Step {
  let done = false;
  const started = (async () => {
    while (signal && !done && !fs.existsSync(signal)) await sleep(200);
    const during = signal !== undefined && fs.existsSync(signal);
    return timed(`object storage benchmarks${during ? ' (during the hidden-idle window)' : ''}`, () =>
      s3Benchmarks().then(
        (sample) => ({ sample, error: undefined }),
        (e: unknown) => ({ sample: undefined, error: String(e) }),
      ),
    );
  })();
  return {
    hostDone: () => {
      done = true;
    },
    rowsInto: async (table, at) => {
      const { sample, error } = await started;
      const rows: Table['rows'] = [];
      const before = table.rows.length;
      s3Rows(table, sample, error);
      rows.push(...table.rows.splice(before));
      table.rows.splice(at, 0, ...rows);
      return sample;
    },
  };
}
