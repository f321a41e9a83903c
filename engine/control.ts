// The control surface for tests under /_engine/ (no auth, loopback only, never logged):
//   GET    /_engine/log[?since=<seq>]   DELETE /_engine/log
//   GET    /_engine/faults              POST /_engine/faults     DELETE /_engine/faults[/<id>]
//   POST   /_engine/reset {seed?}       GET|POST /_engine/config (answers: per-endpoint shape and text style;
//                                        prices, quotes: engine/quotes.ts)
//   POST   /_engine/seed {clusters, token?, prefix?, instanceType?, numNodes?}
//   POST   /_engine/objects {bucket, key}
//   GET    /_engine/state               POST /_engine/priority {nice} (./priority.ts)
//   GET|POST /_engine/nodes {ports?, down?}  real cluster nodes (./nodeControl.ts)
// Errors are 400/404 `{"error": "..."}`.

import type { EngineCore } from './core';
import { parseFault } from './faults';
import { json, type Reply } from './http';
import { parseJobConfig } from './jobs';
import { clusterJson, requestJson, sshKeyJson } from './present';
import { parseVersion } from './offered';
import { setPriority } from './priority';
import { parsePrices } from './quotes';
import { nodesControl } from './nodeControl';
import { bulkSeed } from './seed';
import { iso } from './ids';
import type { AnswerEndpoint, AnswerShape, EngineConfig, ListMode, TextStyle } from './types';
import { objectCount } from './types';
import { INSTANCE_TYPE_PATTERN, MAX_NUM_NODES } from './validate';
import { volumeJson } from './volumeWire';

const bad = (message: string): Reply => json(400, { error: message });
const notFound = (message: string): Reply => json(404, { error: message });

function parseBody(raw: string): { value: Record<string, unknown> } | { reply: Reply } {
  if (raw.trim() === '') return { value: {} };
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      return { value: v as Record<string, unknown> };
  } catch {
    // fall through
  }
  return { reply: bad('body must be a JSON object') };
}

const ENDPOINTS = [
  'GET /_engine/log?since=<seq>',
  'DELETE /_engine/log',
  'GET /_engine/faults',
  'POST /_engine/faults',
  'DELETE /_engine/faults',
  'DELETE /_engine/faults/<id>',
  'POST /_engine/reset',
  'GET /_engine/config',
  'POST /_engine/config',
  'POST /_engine/seed',
  'POST /_engine/objects',
  'GET /_engine/state',
  'GET /_engine/s3',
  'POST /_engine/priority',
  'GET /_engine/nodes',
  'POST /_engine/nodes',
];

export function handleControl(
  core: EngineCore,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
): Reply {
  const sub = path.slice('/_engine'.length) || '/';
  const route = `${method} ${sub}`;
  const withBody = (fn: (b: Record<string, unknown>) => Reply): Reply => {
    const b = parseBody(rawBody);
    return 'reply' in b ? b.reply : fn(b.value);
  };

  switch (route) {
    case 'GET /':
      return json(200, { endpoints: ENDPOINTS });
    case 'GET /log': {
      const since = Number(query.get('since') ?? 0);
      return json(200, { entries: core.log.list(Number.isFinite(since) ? since : 0) });
    }
    case 'DELETE /log':
      core.log.clear();
      return json(200, { ok: true });
    case 'GET /faults':
      return json(200, { faults: core.faults.list() });
    case 'POST /faults':
      return withBody((b) => {
        const fault = parseFault(b);
        if (typeof fault === 'string') return bad(fault);
        core.faults.add(fault);
        return json(200, { id: fault.id, fault });
      });
    case 'DELETE /faults':
      return json(200, { ok: true, removed: core.faults.clear() });
    case 'POST /reset':
      return withBody((b) => {
        const seed = b.seed ?? 'none';
        if (seed !== 'demo' && seed !== 'none') return bad("seed must be 'demo' or 'none'");
        core.reset(seed);
        return json(200, { ok: true, seed });
      });
    case 'GET /config':
      return json(200, { config: core.state.config });
    case 'POST /config':
      return withBody((b) => {
        const error = applyConfig(core.state.config, b);
        return error ? bad(error) : json(200, { config: core.state.config });
      });
    case 'POST /seed':
      return withBody((b) => seed(core, b));
    case 'POST /objects':
      return withBody((b) => putObject(core, b));
    case 'GET /state':
      return json(200, dump(core));
    case 'POST /priority':
      return withBody(setPriority);
    case 'GET /nodes':
    case 'POST /nodes':
      return withBody((b) => nodesControl(core.options.nodes, method, b));
    case 'GET /s3': {
      const store = core.options.objectStore;
      if (!store) return notFound('the engine runs no S3 server (start it with --s3)');
      return json(200, {
        endpoint: store.endpoint,
        region: store.region,
        pendingUploads: store.pendingUploads(),
      });
    }
  }
  if (method === 'DELETE' && sub.startsWith('/faults/')) {
    const id = decodeURIComponent(sub.slice('/faults/'.length));
    return core.faults.remove(id) ? json(200, { ok: true }) : notFound(`no fault ${id}`);
  }
  return notFound(`unknown control route ${route}; see GET /_engine/`);
}

/** Validate and apply a partial config. Unknown keys are refused so a typo does not pass silently. */
function applyConfig(config: EngineConfig, b: Record<string, unknown>): string | null {
  const next: EngineConfig = { ...config };
  for (const [key, value] of Object.entries(b)) {
    switch (key) {
      case 'pendingMs':
      case 'processingMs':
      case 'retryAfterSeconds':
      case 'failCreates':
      case 'failDestroys':
      case 'balanceUsd':
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
          return `${key} must be a number >= 0`;
        if (
          (key === 'failCreates' || key === 'failDestroys' || key === 'retryAfterSeconds') &&
          !Number.isInteger(value)
        )
          return `${key} must be an integer`;
        next[key] = value;
        break;
      case 'stuck':
      case 'retrying':
        if (typeof value !== 'boolean') return `${key} must be a boolean`;
        next[key] = value;
        break;
      case 'listMode':
        if (value !== 'both' && value !== 'text' && value !== 'structured')
          return "listMode must be 'both', 'text' or 'structured'";
        next.listMode = value;
        break;
      // --- what the engine offers and whom it serves (engine/offered.ts) ---
      case 'instanceTypes':
        if (!Array.isArray(value) || value.length === 0 || !value.every((t) => typeof t === 'string' && t))
          return 'instanceTypes must be a non-empty list of strings';
        next.instanceTypes = [...(value as string[])];
        break;
      case 'minClientVersion':
        if (value !== null && (typeof value !== 'string' || !parseVersion(value)))
          return 'minClientVersion must be a version such as 1.2.0, or null';
        next.minClientVersion = value;
        break;
      case 'jobs': {
        const jobs = parseJobConfig(next.jobs, value);
        if (typeof jobs === 'string') return jobs;
        next.jobs = jobs;
        break;
      }
      // --- price quotes (engine/quotes.ts): the table, and a switch that makes both routes 404 ---
      case 'prices': {
        const prices = parsePrices(value);
        if (typeof prices === 'string') return prices;
        next.prices = prices;
        break;
      }
      case 'quotes':
        if (typeof value !== 'boolean') return 'quotes must be a boolean';
        next.quotes = value;
        break;
      case 'answers': {
        const answers = parseAnswers(next.answers, value);
        if (typeof answers === 'string') return answers;
        next.answers = answers;
        break;
      }
      default:
        return `unknown config field ${key}`;
    }
  }
  Object.assign(config, next);
  return null;
}

const ANSWER_ENDPOINTS: readonly AnswerEndpoint[] = [
  'clusterList',
  'clusterInfo',
  'me',
  'sshKeyList',
  'jobList',
  'storageList',
];
const MODES: readonly ListMode[] = ['both', 'text', 'structured'];
const STYLES: readonly TextStyle[] = ['plain', 'markdown', 'grid', 'box', 'heavy', 'keyValue', 'fieldValue'];

/** `answers: { <endpoint>: { mode?, style? } | null }` merged over the current choices (null = back to
 *  the default). Returns a new object: config copies are shallow and must not share changes. */
function parseAnswers(current: EngineConfig['answers'], value: unknown): EngineConfig['answers'] | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'answers must be an object keyed by endpoint';
  const next = { ...current };
  for (const [endpoint, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!ANSWER_ENDPOINTS.includes(endpoint as AnswerEndpoint))
      return `answers: unknown endpoint ${endpoint} (one of ${ANSWER_ENDPOINTS.join(', ')})`;
    const ep = endpoint as AnswerEndpoint;
    if (raw === null) {
      delete next[ep];
      continue;
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) return `answers.${ep} must be an object or null`;
    const {
      mode = next[ep]?.mode ?? 'both',
      style = next[ep]?.style ?? 'plain',
      ...extra
    } = raw as Record<string, unknown>;
    if (Object.keys(extra).length) return `answers.${ep}: unknown field ${Object.keys(extra)[0]}`;
    if (!MODES.includes(mode as ListMode)) return `answers.${ep}.mode must be one of ${MODES.join(', ')}`;
    if (!STYLES.includes(style as TextStyle))
      return `answers.${ep}.style must be one of ${STYLES.join(', ')}`;
    next[ep] = { mode, style } as AnswerShape;
  }
  return next;
}

function seed(core: EngineCore, b: Record<string, unknown>): Reply {
  const count = b.clusters;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 100_000)
    return bad('clusters must be an integer between 0 and 100000');
  let owner = core.state.identity.primaryUser;
  if (b.token !== undefined) {
    const u = typeof b.token === 'string' ? core.state.identity.userForToken(b.token) : undefined;
    if (!u) return bad('token is not one of the engine tokens');
    owner = u;
  }
  const prefix = b.prefix ?? 'bulk';
  if (typeof prefix !== 'string' || prefix.trim() === '') return bad('prefix must be a non-empty string');
  const instanceType = b.instanceType ?? '1xH100';
  if (typeof instanceType !== 'string' || !new RegExp(INSTANCE_TYPE_PATTERN).test(instanceType))
    return bad('instanceType must look like 1xH100');
  const numNodes = b.numNodes ?? 1;
  if (typeof numNodes !== 'number' || !Number.isInteger(numNodes) || numNodes < 1 || numNodes > MAX_NUM_NODES)
    return bad(`numNodes must be 1..${MAX_NUM_NODES}`);
  const created = bulkSeed(core.state.clusters, { count, owner, prefix, instanceType, numNodes }, Date.now());
  return json(200, { created, owner: owner.uid, total: core.state.clusters.clusterCount() });
}

function putObject(core: EngineCore, b: Record<string, unknown>): Reply {
  if (typeof b.bucket !== 'string' || typeof b.key !== 'string' || b.key === '')
    return bad('bucket and key must be strings');
  if (!core.state.objectStorage.storageRecord(core.state.identity.primaryUser))
    return notFound('object storage is not enabled');
  const bucket = core.state.objectStorage.getBucket(b.bucket);
  if (!bucket) return notFound(`no bucket ${b.bucket}`);
  bucket.objects.add(b.key);
  return json(200, { bucket: bucket.name, key: b.key, object_count: objectCount(bucket) });
}

/** Everything the engine holds, for assertions and debugging. Tokens are not part of it. */
function dump(core: EngineCore): Record<string, unknown> {
  const state = core.state;
  const identity = state.identity;
  const now = Date.now();
  return {
    config: state.config,
    org: { org_id: identity.org.id, org_name: identity.org.name, balance: identity.org.balanceUsd },
    users: [...identity.users.values()].map((u) => ({
      uid: u.uid,
      email: u.email,
      name: u.name,
      readonly: u.readonly,
      has_token: u !== identity.teammate,
    })),
    clusters: state.clusters
      .allClusters(now)
      .map((v) => ({ ...clusterJson(v, true), request_ids: v.cluster.requestIds })),
    requests: [...state.requests.values()].map((r) => ({
      ...requestJson(state.requests, r, now),
      owner: r.ownerUid,
    })),
    ssh_keys: state.sshKeys
      .listSshKeys(identity.primaryUser, true)
      .map((k) => sshKeyJson(k, identity.users.get(k.ownerUid))),
    object_storage: state.objectStorage.storageRecord(identity.primaryUser),
    buckets: state.objectStorage.listBuckets().map((bk) => ({
      name: bk.name,
      created_at: iso(bk.createdMs),
      object_count: objectCount(bk),
      objects: [...bk.objects],
    })),
    volumes: state.volumes.all(now).map(volumeJson),
    faults: core.faults.list(),
    log_entries: core.log.list().length,
  };
}
