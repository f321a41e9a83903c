// The one typed client of the local engine's control surface (/_engine/*, engine/control.ts; the contract
// is notes/CONTRACTS.md): one method per route, typed body and answer, given the engine's base URL. Every
// suite (unit, system, integration, reliability, UI) talks to the control surface through it. A non-2xx
// answer throws with the route, the status and the engine's error text; `unchecked` is for the tests of the
// control surface's own refusals.
import type { JobConfig } from '../../engine/jobs';
import type { AnswerEndpoint, EngineConfig, ListMode, TextStyle } from '../../engine/types';

// Answers carry arbitrary JSON the tests read field by field; `any` keeps those reads short.
export type Json = Record<string, any>;

export interface LogEntry {
  seq: number;
  time?: string;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  rawBody?: string;
  status: number | null;
  user?: string | null;
  authorization: string | null;
  userAgent?: string | null;
  clientType?: string | null;
  /** The fault action that applied to this call, if any. */
  fault?: string | null;
  /** WebSocket events (method 'WS'): upgrade (with url), message, close (status = close code). */
  ws?: 'upgrade' | 'message' | 'close';
  url?: string;
}

export interface Fault {
  method?: string;
  path: string;
  times?: number;
  action?: 'respond' | 'drop' | 'drop-after' | 'truncate' | 'hang' | 'delay' | WsFaultAction;
  status?: number;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** WebSocket faults (method 'WS'): after how many server messages; close code and reason. */
  afterMessages?: number;
  closeCode?: number;
  reason?: string;
}
type WsFaultAction = 'terminate' | 'close' | 'slow' | 'silent';

/** POST /_engine/config: merged over the current config; `jobs` and `answers` merge too (an answer's
 *  null: back to the default). */
export type ConfigPatch = Partial<Omit<EngineConfig, 'jobs' | 'answers'>> & {
  jobs?: Partial<JobConfig>;
  answers?: Partial<Record<AnswerEndpoint, { mode?: ListMode; style?: TextStyle } | null>>;
};

export interface SeedBody {
  clusters: number;
  token?: string;
  prefix?: string;
  instanceType?: string;
  numNodes?: number;
}

export interface EngineNode {
  instance_id: string;
  cluster_id: string;
  state: 'booting' | 'up' | 'down' | 'failed';
  host: string;
  port: number;
  user: string;
  dir: string;
  pid: number | null;
  error: string | null;
}

export interface NodesAnswer {
  mode: string;
  enabled: boolean;
  data_dir: string | null;
  user: string;
  pinned_ports: number[];
  nodes: EngineNode[];
  /** POST { drop }: how many processes ended. */
  dropped?: number;
}

export interface S3Answer {
  endpoint: string;
  region: string;
  pendingUploads: Array<{ bucket: string; key: string; uploadId: string }>;
}

/** GET /_engine/state: everything the engine holds, no tokens. */
export interface StateDump {
  config: EngineConfig;
  org: { org_id: string; org_name: string; balance: number };
  users: Array<{ uid: string; email: string; name: string; readonly: boolean; has_token: boolean }>;
  clusters: Json[];
  requests: Json[];
  ssh_keys: Json[];
  object_storage: Json | null;
  buckets: Array<{ name: string; created_at: string; object_count: number; objects: string[] }>;
  volumes: Json[];
  faults: Json[];
  log_entries: number;
}

export class EngineControl {
  /** `baseUrl`: the engine's URL (http://127.0.0.1:<port>), or a function read at each call. */
  constructor(private readonly baseUrl: string | (() => string)) {}

  get url(): string {
    return typeof this.baseUrl === 'string' ? this.baseUrl : this.baseUrl();
  }

  /** GET /_engine/: the routes. */
  async endpoints(): Promise<string[]> {
    return (await this.send<{ endpoints: string[] }>('GET', '')).endpoints;
  }

  /** GET /_engine/log[?since=]: the request log, oldest first (control calls are never in it). */
  async log(since?: number): Promise<LogEntry[]> {
    const q = since === undefined ? '' : `?since=${since}`;
    return (await this.send<{ entries: LogEntry[] }>('GET', `log${q}`)).entries;
  }

  /** The log entries of one route. */
  async calls(method: string, path: string): Promise<LogEntry[]> {
    return (await this.log()).filter((e) => e.method === method && e.path === path);
  }

  async clearLog(): Promise<void> {
    await this.send('DELETE', 'log');
  }

  /** POST /_engine/faults. */
  fault(f: Fault): Promise<{ id: string; fault: Fault & { id: string } }> {
    return this.send('POST', 'faults', f);
  }

  async faults(): Promise<Array<Fault & { id: string; times: number }>> {
    return (await this.send<{ faults: Array<Fault & { id: string; times: number }> }>('GET', 'faults'))
      .faults;
  }

  /** DELETE /_engine/faults: how many were removed. */
  async clearFaults(): Promise<number> {
    return (await this.send<{ removed: number }>('DELETE', 'faults')).removed;
  }

  async removeFault(id: string): Promise<void> {
    await this.send('DELETE', `faults/${encodeURIComponent(id)}`);
  }

  /** POST /_engine/reset: state, log, faults, config and the S3 store back to start-up. */
  async reset(seed: 'demo' | 'none' = 'none'): Promise<void> {
    await this.send('POST', 'reset', { seed });
  }

  async getConfig(): Promise<EngineConfig> {
    return (await this.send<{ config: EngineConfig }>('GET', 'config')).config;
  }

  /** POST /_engine/config: the merged config. */
  async config(patch: ConfigPatch): Promise<EngineConfig> {
    return (await this.send<{ config: EngineConfig }>('POST', 'config', patch)).config;
  }

  /** POST /_engine/seed: running clusters `<prefix>-<n>`. */
  seed(body: SeedBody): Promise<{ created: number; owner: string; total: number }> {
    return this.send('POST', 'seed', body);
  }

  /** POST /_engine/objects: an object in a bucket (so it is not empty). */
  putObject(bucket: string, key: string): Promise<{ bucket: string; key: string; object_count: number }> {
    return this.send('POST', 'objects', { bucket, key });
  }

  state(): Promise<StateDump> {
    return this.send('GET', 'state');
  }

  /** GET /_engine/s3 (404 without --s3). */
  s3(): Promise<S3Answer> {
    return this.send('GET', 's3');
  }

  priority(nice: number): Promise<{ ok: true; nice: number }> {
    return this.send('POST', 'priority', { nice });
  }

  nodes(): Promise<NodesAnswer> {
    return this.send('GET', 'nodes');
  }

  /** POST /_engine/nodes: pin the next ports, take a node down, or drop its sessions. */
  setNodes(body: { ports?: number[]; down?: string; drop?: string }): Promise<NodesAnswer> {
    return this.send('POST', 'nodes', body);
  }

  /** Any control route as it answers, refusals included: `route` is the part after /_engine/. */
  async unchecked(method: string, route: string, body?: unknown): Promise<{ status: number; json: Json }> {
    const res = await this.fetch(method, route, body);
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
  }

  private fetch(method: string, route: string, body: unknown): Promise<Response> {
    return fetch(`${this.url}/_engine/${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  private async send<T>(method: string, route: string, body?: unknown): Promise<T> {
    const res = await this.fetch(method, route, body);
    const text = await res.text();
    if (!res.ok) throw new Error(`engine control ${method} /_engine/${route} -> ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
}
