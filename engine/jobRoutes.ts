// The job REST routes (spec "Jobs"); the two WebSockets are in jobSockets.ts, the state in jobs.ts.
//   GET /job/init                      {empty_tp_config, message}
//   GET /job/list?include_org          {message (text table), jobs: [...]}   (answers.jobList picks the shape)
//   GET /job/info/{id}                 {message, job_info}
//   POST /job/cancel/{id}              202 {message}; canceling, then canceled
//   DELETE /job/delete/{id}            200 {message}; 409 unless the job is terminal
//   GET /job/pull/{id}?system&dry_run  {message, download_map, file_sizes} for an ended job,
//                                      {message, command, command_show_stdout, download_map: {}} for a
//                                      running one
//   GET /job/output/{id}/{n}?sig=      the bytes of output file n (no token: a presigned URL)

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { detail, json, type Reply } from './http';
import { TERMINAL_JOB, serviceCommand, type Job } from './jobs';
import { del, flag, get, post, shaped, shapeOf, type PublicCtx, type Route, type UserCtx } from './routes';
import { iso } from './ids';
import { styledTable } from './text';
import type { TextStyle } from './types';
import { issue, validationReply } from './validate';

const EMPTY_TP_CONFIG = `# TensorPool job file: run it with \`tp job push <this file> <cluster id>\`.
# Commands run in order on the cluster, in a fresh Python virtual environment.
commands = [
  "pip install -r requirements.txt",
  "python main.py",
]

# Files or folders (globs allowed) to keep when the job ends; get them with \`tp job pull\`.
outputs = [
  "checkpoints/",
  "results.json",
]

# What not to upload.
ignore = [
  ".venv",
  "__pycache__",
  "*.pyc",
]
`;

/** Signs output URLs; a new key per engine process. */
const URL_KEY = randomBytes(16);
const sign = (jobId: string, n: number) =>
  createHmac('sha256', URL_KEY).update(`${jobId}/${n}`).digest('hex').slice(0, 32);

function jobJson(ctx: PublicCtx, j: Job): Record<string, unknown> {
  const jobs = ctx.state.jobs;
  const ended = jobs.endedMs(j, ctx.now);
  return {
    job_id: j.id,
    status: jobs.status(j, ctx.now),
    cluster_id: j.clusterId,
    created_at: iso(j.createdMs),
    started_at: j.submittedMs === null ? null : iso(j.submittedMs),
    ended_at: ended === null ? null : iso(ended),
    exit_code: jobs.exitCode(j, ctx.now),
    teardown_cluster: j.teardown,
    owner_email: ctx.state.identity.users.get(j.ownerUid)?.email ?? j.ownerUid,
  };
}

function listText(ctx: PublicCtx, list: Job[], includeOrg: boolean, style: TextStyle): string {
  const scope = includeOrg ? 'organization' : 'account';
  if (list.length === 0)
    return `No jobs found in your ${scope}. Submit one with: tp job push job.tp.toml <cluster id>`;
  const header = ['JOB ID', 'STATUS', 'CLUSTER ID', 'CREATED'];
  if (includeOrg) header.push('OWNER');
  const rows = list.map((j) => {
    const f = jobJson(ctx, j);
    const row = [j.id, String(f.status), j.clusterId, iso(j.createdMs).slice(0, 19) + 'Z'];
    if (includeOrg) row.push(String(f.owner_email));
    return row;
  });
  return `${list.length} job${list.length === 1 ? '' : 's'} in your ${scope}:\n${styledTable(style, header, rows)}`;
}

function infoText(ctx: PublicCtx, j: Job): string {
  const f = jobJson(ctx, j);
  return [
    `Job ${j.id}`,
    `  Status:     ${String(f.status)}`,
    `  Cluster:    ${j.clusterId}${j.teardown ? ' (destroyed when the job ends)' : ''}`,
    `  Created:    ${String(f.created_at)}`,
    `  Exit code:  ${f.exit_code === null ? '-' : String(f.exit_code)}`,
    `  Commands:   ${j.commands.length}`,
    `  Outputs:    ${j.outputs.join(', ') || '-'}`,
  ].join('\n');
}

function found(ctx: UserCtx, fn: (j: Job) => Reply): Reply {
  const j = ctx.state.jobs.find(ctx.user, ctx.params.job_id);
  if (!j) return detail(404, `Job '${ctx.params.job_id}' not found`);
  ctx.state.jobs.sweep(j, ctx.now);
  return fn(j);
}

function pull(ctx: UserCtx, j: Job, base: string): Reply {
  const system = (ctx.query.get('system') ?? 'linux').toLowerCase();
  if (!['linux', 'darwin', 'windows'].includes(system))
    return validationReply([
      issue('literal_error', ['query', 'system'], "Input should be 'linux', 'darwin' or 'windows'", system),
    ]);
  const dry = flag(ctx, 'dry_run');
  if ('reply' in dry) return dry.reply;
  const status = ctx.state.jobs.status(j, ctx.now);
  if (!TERMINAL_JOB.has(status)) {
    if (status !== 'running') return detail(409, `Job ${j.id} is ${status}: it has no outputs yet`);
    const identity = ctx.query.get('private_key_path') ?? undefined;
    const real = j.real?.pullCommand(identity);
    const login = j.real?.login ?? { user: 'root', host: '127.0.0.1', port: 22 };
    // The config now (a test turns the hostile pull on while the job runs), not the job's snapshot.
    const command = serviceCommand(
      ctx.state.config.jobs.pullCommand,
      real ?? `echo pulled ${j.id} > .tp-pull-marker`,
      {
        ...login,
        job: j.id,
      },
    );
    return json(200, {
      message: `Job ${j.id} is still running: syncing its outputs with rsync.`,
      command: dry.value ? '' : command,
      command_show_stdout: false,
      // Nothing to download besides the sync: the official CLI reads a missing map as a failed pull.
      download_map: {},
    });
  }
  const files = [...ctx.state.jobs.outputs(j)];
  const download_map: Record<string, string> = {};
  const file_sizes: Record<string, number> = {};
  files.forEach(([path, bytes], n) => {
    download_map[path] = `${base}/job/output/${j.id}/${n}?sig=${sign(j.id, n)}`;
    file_sizes[path] = bytes.length;
  });
  const listing = files.map(([p, b]) => `  ${p} (${b.length} bytes)`).join('\n');
  return json(200, {
    message: files.length
      ? `${dry.value ? 'Would pull' : 'Pulling'} ${files.length} file${files.length === 1 ? '' : 's'} of job ${j.id}:\n${listing}`
      : `Job ${j.id} has no outputs.`,
    download_map,
    file_sizes,
  });
}

function output(ctx: PublicCtx): Reply {
  const j = ctx.state.jobs.byId(ctx.params.job_id);
  const n = Number(ctx.params.n);
  const sig = Buffer.from(ctx.query.get('sig') ?? '');
  const good = j && Number.isInteger(n) ? Buffer.from(sign(j.id, n)) : undefined;
  if (!j || !good || sig.length !== good.length || !timingSafeEqual(sig, good))
    return detail(403, 'Request has expired or the signature does not match');
  const file = [...ctx.state.jobs.outputs(j).values()][n];
  if (!file) return detail(404, 'No such output');
  return { status: 200, raw: file, contentType: 'application/octet-stream' };
}

/** A function, not a constant: routes.ts imports this module and calls it once its helpers exist. */
export function jobRoutes(): Route[] {
  return [
    get('/job/init', () =>
      json(200, { empty_tp_config: EMPTY_TP_CONFIG, message: 'Created a job file template.' }),
    ),
    get('/job/list', (ctx) => {
      const org = flag(ctx, 'include_org');
      if ('reply' in org) return org.reply;
      const list = ctx.state.jobs.list(ctx.user, org.value, ctx.now);
      const shape = shapeOf(ctx.state, 'jobList');
      return shaped(
        shape,
        () => listText(ctx, list, org.value, shape.style),
        () => ({ jobs: list.map((j) => jobJson(ctx, j)) }),
      );
    }),
    get('/job/info/:job_id', (ctx) =>
      found(ctx, (j) => json(200, { message: infoText(ctx, j), job_info: { id: j.id, ...jobJson(ctx, j) } })),
    ),
    post('/job/cancel/:job_id', (ctx) =>
      found(ctx, (j) => {
        const done = ctx.state.jobs.cancel(j, ctx.now);
        if (!done.ok) return detail(409, done.message);
        return json(202, {
          message: done.already ? `Job ${j.id} is already being canceled.` : `Canceling job ${j.id}.`,
        });
      }),
    ),
    del('/job/delete/:job_id', (ctx) =>
      found(ctx, (j) => {
        const status = ctx.state.jobs.status(j, ctx.now);
        if (!TERMINAL_JOB.has(status))
          return detail(409, `Job ${j.id} is ${status}; only an ended job can be deleted. Cancel it first.`);
        ctx.state.jobs.delete(j.id);
        return json(200, { message: `Job ${j.id} deleted.` });
      }),
    ),
    get('/job/pull/:job_id', (ctx) => found(ctx, (j) => pull(ctx, j, ctx.baseUrl))),
    { method: 'GET', pattern: '/job/output/:job_id/:n', auth: false, handle: output },
  ];
}
