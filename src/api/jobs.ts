/**
 * Jobs over REST (spec "Jobs"): init, list, info, cancel, delete, pull. Reached as `client.jobs`. The two
 * WebSockets (push, listen) are in jobSocket.ts; downloading a pull's files in downloads.ts. Answers are
 * read leniently: the official client only reads `message`, so a list may be text only (its table is read
 * with textRecords.ts), and `job_info` may be missing. Cancel and delete are never retried.
 */
import * as l10n from '@vscode/l10n';
import type { Job, JobListing, PullPlan } from '../model/job';
import { requireId } from './requestChecks';
import { downloadOutputs, type DownloadOptions, type DownloadResult } from './downloads';
import { followJob, type FollowOptions, type FollowOutcome } from './jobFollow';
import {
  listenJob,
  pushJob,
  type ListenMessage,
  type ListenOutcome,
  type PushHandlers,
  type PushOutcome,
  type PushRequest,
  type SocketOptions,
} from './jobSocket';
import { BadResponseError } from './errors';
import type { CallOptions, Transport } from './http';
import { first, isRecord, num, str } from './loose';
import { cell } from './normalizeText';
import { snippet } from './parse';
import * as S from './schemas';
import { JOB_COLUMNS, recordsFromText } from './textRecords';

const seg = (v: string) => encodeURIComponent(v);

export type JobSystem = 'linux' | 'darwin' | 'windows';

/** The `system` a pull sends (lower case, as the official client's REST calls) for a Node platform. */
export function pullSystem(platform: NodeJS.Platform = process.platform): JobSystem {
  return platform === 'win32' ? 'windows' : platform === 'darwin' ? 'darwin' : 'linux';
}

export interface JobInfo {
  /** undefined when the answer had no readable job_info (then show `message`). */
  readonly job: Job | undefined;
  readonly message: string | undefined;
}

export class JobApi {
  constructor(private readonly transport: Transport) {}

  private async get(path: string, query?: S.LooseRecord, opts?: CallOptions): Promise<S.LooseRecord> {
    const q = query as Record<string, string | undefined> | undefined;
    const call = { method: 'GET' as const, path, query: q, schema: S.LooseRecord() };
    return (await this.transport.call(call, opts)).data;
  }

  /** GET /job/init: the job file template (TOML text). */
  async init(opts?: CallOptions): Promise<{ template: string; message: string | undefined }> {
    const body = await this.get('/job/init', undefined, opts);
    const template = typeof body.empty_tp_config === 'string' ? body.empty_tp_config : undefined;
    if (!template?.trim())
      throw new BadResponseError(
        l10n.t("The server's answer to GET /job/init has no job file template (empty_tp_config)."),
        { method: 'GET', path: '/job/init', status: 200 },
        snippet(JSON.stringify(body)),
      );
    return { template, message: str(body.message) };
  }

  /** GET /job/list. `jobs` is undefined when the server sent only its text (see textJobs). */
  async list(options: { includeOrg?: boolean } = {}, opts?: CallOptions): Promise<JobListing> {
    const body = await this.get('/job/list', { include_org: options.includeOrg ? 'true' : undefined }, opts);
    const list = first(body, 'jobs', 'job_list');
    const message = str(body.message);
    if (!Array.isArray(list) && !message?.trim())
      throw new BadResponseError(
        l10n.t("The server's answer to GET /job/list has neither jobs nor a message."),
        { method: 'GET', path: '/job/list', status: 200 },
        snippet(JSON.stringify(body)),
      );
    if (!Array.isArray(list)) return { jobs: undefined, message, textJobs: jobsFromText(message) };
    return { jobs: list.map(toJob).filter((j): j is Job => j !== undefined), message };
  }

  /** GET /job/info/{id}: {message, job_info?}. */
  async info(jobId: string, opts?: CallOptions): Promise<JobInfo> {
    requireId(jobId, 'job_id', 'GET', '/job/info');
    const body = await this.get(`/job/info/${seg(jobId)}`, undefined, opts);
    const record = isRecord(body.job_info) ? { id: jobId, ...body.job_info } : undefined;
    return { job: toJob(record), message: str(body.message) };
  }

  /** POST /job/cancel/{id}: 200/202 {message}. Asynchronous: follow info until `canceled`. Never retried. */
  async cancel(jobId: string, opts?: CallOptions): Promise<{ message: string | undefined }> {
    requireId(jobId, 'job_id', 'POST', '/job/cancel');
    const call = { method: 'POST' as const, path: `/job/cancel/${seg(jobId)}`, schema: S.LooseRecord() };
    return { message: str((await this.transport.call(call, opts)).data.message) };
  }

  /** DELETE /job/delete/{id}: only a terminal job (409 otherwise). Never retried. */
  async delete(jobId: string, opts?: CallOptions): Promise<{ message: string | undefined }> {
    requireId(jobId, 'job_id', 'DELETE', '/job/delete');
    const call = { method: 'DELETE' as const, path: `/job/delete/${seg(jobId)}`, schema: S.LooseRecord() };
    return { message: str((await this.transport.call(call, opts)).data.message) };
  }

  /** Submit over the /job/push WebSocket (jobSocket.ts). Never retried; 1006 -> {kind: 'unknown'}. */
  push(req: PushRequest, handlers: PushHandlers, opts?: SocketOptions): Promise<PushOutcome> {
    return pushJob(this.transport, req, handlers, opts);
  }

  /** One /job/listen/{id} connection (jobSocket.ts). */
  listen(
    jobId: string,
    handlers: { onMessage: (m: ListenMessage) => void; signal?: AbortSignal },
    opts?: SocketOptions,
  ): Promise<ListenOutcome> {
    requireId(jobId, 'job_id', 'WS', '/job/listen');
    return listenJob(this.transport, jobId, handlers, opts);
  }

  /** Listen to the end, reconnecting with backoff while the job is not terminal (jobFollow.ts). */
  follow(jobId: string, opts: FollowOptions): Promise<FollowOutcome> {
    requireId(jobId, 'job_id', 'WS', '/job/listen');
    return followJob(this.transport, this, jobId, opts);
  }

  /** Download a pull's files into `folder` (downloads.ts), through the client's proxy settings. */
  async download(
    files: ReadonlyMap<string, string>,
    folder: string,
    opts: DownloadOptions = {},
  ): Promise<DownloadResult> {
    return downloadOutputs(files, folder, { dispatcher: await this.transport.outboundDispatcher(), ...opts });
  }

  /** GET /job/pull/{id}?system&dry_run: files to download (an ended job) or a command to run (a running one).
   *  The plan's paths are as sent: downloadOutputs (downloads.ts) refuses unsafe ones. */
  async pull(
    jobId: string,
    options: { system: JobSystem; dryRun?: boolean; files?: string[] },
    opts?: CallOptions,
  ): Promise<PullPlan> {
    requireId(jobId, 'job_id', 'GET', '/job/pull');
    const query: Record<string, string | undefined> = {
      system: options.system,
      dry_run: options.dryRun ? 'true' : 'false',
      files: options.files?.length ? options.files.join(',') : undefined,
    };
    return toPullPlan(await this.get(`/job/pull/${seg(jobId)}`, query, opts));
  }
}

function toPullPlan(body: S.LooseRecord): PullPlan {
  const message = str(body.message);
  const command = str(body.command);
  if (command?.trim())
    return { kind: 'command', command, showStdout: body.command_show_stdout === true, message };
  const map = isRecord(body.download_map) ? body.download_map : {};
  const files = new Map<string, string>();
  for (const [path, url] of Object.entries(map)) if (typeof url === 'string' && url) files.set(path, url);
  const sizes = new Map<string, number>();
  const sizeMap = isRecord(body.file_sizes) ? body.file_sizes : {};
  for (const [path, n] of Object.entries(sizeMap)) {
    const v = num(n);
    if (v !== undefined && files.has(path)) sizes.set(path, v);
  }
  return files.size ? { kind: 'download', files, sizes, message } : { kind: 'nothing', message };
}

function toJob(raw: unknown): Job | undefined {
  if (!isRecord(raw)) return undefined;
  const id = str(first(raw, 'job_id', 'id', 'jobId'));
  if (!id) return undefined;
  return {
    id,
    status: str(first(raw, 'status', 'state', 'job_status')),
    clusterId: str(first(raw, 'cluster_id', 'clusterId', 'cluster')),
    name: str(first(raw, 'name', 'job_name', 'tp_config_name')),
    createdAt: str(first(raw, 'created_at', 'createdAt', 'submitted_at')),
    startedAt: str(first(raw, 'started_at', 'startedAt')),
    endedAt: str(first(raw, 'ended_at', 'finished_at', 'completed_at')),
    exitCode: num(first(raw, 'exit_code', 'exitCode')),
    owner: str(first(raw, 'owner_email', 'owner', 'user_email')),
  };
}

/** A text-only list: the jobs its table names, marked as read from text. */
function jobsFromText(message: string | undefined): Job[] {
  return recordsFromText(message, JOB_COLUMNS, { key: 'id' }).records.flatMap(({ fields: f }) => {
    const id = cell(f.id);
    if (!id) return [];
    const job: Job = {
      id,
      status: cell(f.status),
      clusterId: cell(f.clusterId),
      name: cell(f.name),
      createdAt: cell(f.created),
      owner: cell(f.owner),
      source: 'text',
    };
    return [job];
  });
}
