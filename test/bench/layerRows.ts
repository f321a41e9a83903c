// The first use of each capability's lazy layer, in fresh Node processes (./node.ts), like the API layer's
// first-use row: what the first use costs over a warm one, with the API layer already loaded and warm (so
// each row is that layer's own cost). Budget: <= 100 ms each (median).
//   jobs     require(dist/jobFiles.js) (the job-file checker and smol-toml, loaded with the first job file)
//            + the first job WebSocket over a warm one (undici's WebSocket, loaded on the first push or
//            listen: a listen the engine answers with 4404, so the socket opens, authenticates and closes)
//   volumes  the first GET /storage/list over a warm one (its schemas built, the answer read)
//   S3       (the object browser's client, dist/s3.js when it lands: add its probe here, as a row of its own)
import { median } from './stats';
import type { RowTable } from './rowTable';

export const LAYER_BUDGET_MS = 100;
const PROCESSES = 9;

export interface LayerProbeArgs {
  api: string;
  jobFiles: string;
  url: string;
  token: string;
}

type Probe = <T>(args: string[]) => Promise<T>;

interface JobsFirstUse {
  tomlMs: number;
  wsFirstMs: number;
  wsWarmMs: number;
  wsExtraMs: number;
  outcome: string;
}
interface VolumesFirstUse {
  firstMs: number;
  warmMs: number;
  extraMs: number;
}

const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;

export async function layerRows(
  table: RowTable,
  where: string,
  probe: Probe,
  a: LayerProbeArgs,
): Promise<Record<string, unknown>> {
  const jobs: JobsFirstUse[] = [];
  const volumes: VolumesFirstUse[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    jobs.push(await probe<JobsFirstUse>(['first-use-jobs', a.api, a.jobFiles, a.url, a.token]));
    volumes.push(await probe<VolumesFirstUse>(['first-use-volumes', a.api, a.url, a.token]));
  }
  const socketOk = jobs.every((j) => j.outcome.includes('4404'));
  table.add(
    'Jobs layer first use: job files (TOML) + first WebSocket',
    where,
    'ms',
    jobs.map((j) => j.tomlMs + j.wsExtraMs),
    LAYER_BUDGET_MS,
    {
      ok: socketOk,
      note: `require(dist/jobFiles.js) ${ms(jobs.map((j) => j.tomlMs))}; first job WebSocket ${ms(jobs.map((j) => j.wsFirstMs))}, warm ${ms(jobs.map((j) => j.wsWarmMs))}${socketOk ? '' : `; the listen did not end with 4404: ${jobs[0]?.outcome}`}`,
    },
  );
  table.add(
    'Volumes first use: extra over a warm GET /storage/list',
    where,
    'ms',
    volumes.map((v) => v.extraMs),
    LAYER_BUDGET_MS,
    { note: `first ${ms(volumes.map((v) => v.firstMs))}, warm ${ms(volumes.map((v) => v.warmMs))}` },
  );
  return { jobs, volumes };
}
