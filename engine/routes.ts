// The service's public routes: each one turns a parsed request into a Reply using the domain state.
// Auth (401/403), faults and logging are the server's business (server.ts), not the handlers'.

import { bucketJson, clusterJson, requestJson, sshAddress, sshKeyJson, userJson } from './present';
import { healthReply } from './health';
import { detail, json, noContent, queryBool, type Reply } from './http';
import { unofferedType } from './offered';
import type { EngineState } from './state';
import {
  bucketsText,
  clusterInfoText,
  clusterListText,
  meText,
  sshKeysText,
  table,
  userInfoText,
} from './text';
import type { AnswerEndpoint, AnswerShape, ObjectStorageRecord, User } from './types';
import { volumeRoutes } from './volumeRoutes';
import { jobRoutes } from './jobRoutes';
import { quoteRoutes } from './quotes';
import { attachedVolumesJson, attachedVolumesText } from './volumeWire';
import {
  issue,
  parseJsonBody,
  validateBucketName,
  validateCreate,
  validateEdit,
  validateSshKeyAdd,
  validationReply,
  parseSshPublicKey,
  type Parsed,
} from './validate';

export interface PublicCtx {
  state: EngineState;
  params: Record<string, string>;
  query: URLSearchParams;
  rawBody: string;
  now: number;
  /** http://<Host header>: where this engine is reached (output URLs point back to it). */
  baseUrl: string;
}

export interface UserCtx extends PublicCtx {
  user: User;
}

export type Route =
  | { method: string; pattern: string; auth: false; handle: (ctx: PublicCtx) => Reply }
  | { method: string; pattern: string; auth: true; handle: (ctx: UserCtx) => Reply };

export const get = (pattern: string, handle: (ctx: UserCtx) => Reply): Route => ({
  method: 'GET',
  pattern,
  auth: true,
  handle,
});
export const post = (pattern: string, handle: (ctx: UserCtx) => Reply): Route => ({
  method: 'POST',
  pattern,
  auth: true,
  handle,
});
const put = (pattern: string, handle: (ctx: UserCtx) => Reply): Route => ({
  method: 'PUT',
  pattern,
  auth: true,
  handle,
});
export const patch = (pattern: string, handle: (ctx: UserCtx) => Reply): Route => ({
  method: 'PATCH',
  pattern,
  auth: true,
  handle,
});
export const del = (pattern: string, handle: (ctx: UserCtx) => Reply): Route => ({
  method: 'DELETE',
  pattern,
  auth: true,
  handle,
});

/** Read a boolean query flag; null means "answer 422". */
export function flag(ctx: PublicCtx, name: string): { value: boolean } | { reply: Reply } {
  const v = queryBool(ctx.query, name);
  if (v === null) {
    return {
      reply: validationReply([
        issue(
          'bool_parsing',
          ['query', name],
          'Input should be a valid boolean, unable to interpret input',
          ctx.query.get(name),
        ),
      ]),
    };
  }
  return { value: v ?? false };
}

export function body<T>(
  ctx: PublicCtx,
  validate: (b: unknown) => Parsed<T>,
): { value: T } | { reply: Reply } {
  const parsed = parseJsonBody(ctx.rawBody);
  if (!parsed.ok) return { reply: validationReply(parsed.issues) };
  const valid = validate(parsed.value);
  return valid.ok ? { value: valid.value } : { reply: validationReply(valid.issues) };
}

/** The shape a test chose for an endpoint's answer (POST /_engine/config `answers`). */
export function shapeOf(state: EngineState, endpoint: AnswerEndpoint): AnswerShape {
  const chosen = state.config.answers[endpoint];
  if (chosen) return chosen;
  const listed = endpoint === 'clusterList' || endpoint === 'clusterInfo';
  return { mode: listed ? state.config.listMode : 'both', style: 'plain' };
}

/** Text `message`, structured fields, or both, as the endpoint's shape says. */
export function shaped(
  shape: AnswerShape,
  message: () => string,
  fields: () => Record<string, unknown>,
): Reply {
  const out: Record<string, unknown> = {};
  if (shape.mode !== 'structured') out.message = message();
  if (shape.mode !== 'text') Object.assign(out, fields());
  return json(200, out);
}

// --- health & account --------------------------------------------------------------------------------

const health: Route[] = [
  { method: 'GET', pattern: '/healthz', auth: false, handle: () => json(200, { status: 'ok' }) },
  // The official CLI POSTs {package_version, uname, ...} here before every command and prints
  // `message` when the status is not 200 (engine/health.ts).
  {
    method: 'POST',
    pattern: '/health',
    auth: false,
    handle: (ctx) => healthReply(ctx.rawBody, ctx.state.config.minClientVersion),
  },
];

const account: Route[] = [
  get('/me', ({ state, user }) => {
    const fields = () => ({
      ...userJson(user, state.identity.org.name),
      balance: state.identity.org.balanceUsd,
    });
    const shape = state.config.answers.me;
    return shape ? shaped(shape, () => meText(user), fields) : json(200, fields());
  }),
  get('/user/info', ({ state, user }) =>
    json(200, {
      message: userInfoText(user, state.identity.org),
      ...userJson(user, state.identity.org.name),
      balance: state.identity.org.balanceUsd,
    }),
  ),
  get('/user/organization/info', ({ state, user }) => {
    const members = state.identity
      .members(user.orgId)
      .map((m) => ({ uid: m.uid, email: m.email, name: m.name }));
    const message =
      `${state.identity.org.name} (${state.identity.org.id}), balance $${state.identity.org.balanceUsd.toFixed(2)}\n` +
      table(
        ['UID', 'EMAIL', 'NAME'],
        members.map((m) => [m.uid, m.email, m.name]),
      );
    return json(200, {
      message,
      org_id: state.identity.org.id,
      org_name: state.identity.org.name,
      members,
      balance: state.identity.org.balanceUsd,
    });
  }),
  post('/user/ssh-key/add', (ctx) => {
    const b = body(ctx, validateSshKeyAdd);
    if ('reply' in b) return b.reply;
    const added = ctx.state.sshKeys.addSshKey(ctx.user, b.value, ctx.now);
    if (!added.ok) return detail(added.code, added.message);
    return json(200, {
      key_id: added.value.id,
      message: `SSH key '${added.value.name}' added (${added.value.fingerprint})`,
    });
  }),
  get('/user/ssh-key/list', (ctx) => {
    const f = flag(ctx, 'include_org');
    if ('reply' in f) return f.reply;
    const keys = ctx.state.sshKeys.listSshKeys(ctx.user, f.value);
    const shape = shapeOf(ctx.state, 'sshKeyList');
    return shaped(
      shape,
      () => sshKeysText(keys, ctx.state.identity.users, f.value, shape.style),
      () => ({ keys: keys.map((k) => sshKeyJson(k, ctx.state.identity.users.get(k.ownerUid))) }),
    );
  }),
  del('/user/ssh-key/remove/:key_id', ({ state, user, params }) => {
    const removed = state.sshKeys.removeSshKey(user, params.key_id);
    return removed.ok
      ? json(200, { message: `SSH key '${removed.value.name}' (${removed.value.id}) removed` })
      : detail(removed.code, removed.message);
  }),
];

// --- clusters ------------------------------------------------------------------------------------------

const clusters: Route[] = [
  post('/cluster/create', (ctx) => {
    const b = body(ctx, validateCreate);
    if ('reply' in b) return b.reply;
    const input = b.value;
    const unoffered = unofferedType(input.instanceType, ctx.state.config.instanceTypes);
    if (unoffered) return unoffered;
    const created = ctx.state.clusters.createCluster(ctx.user, input, ctx.now);
    if (!created.ok) return detail(created.code, created.message);
    if (input.saveKeys) {
      // save_keys: remember the given keys on the user's profile (duplicates are simply skipped).
      for (const text of input.publicKeys) {
        const parsed = parseSshPublicKey(text);
        if (parsed)
          ctx.state.sshKeys.addSshKey(ctx.user, { publicKey: text.trim(), name: null, ...parsed }, ctx.now);
      }
    }
    const { cluster, request } = created.value;
    return json(202, {
      cluster_id: cluster.id,
      message:
        `Cluster creation initiated: ${cluster.name} (${cluster.id}), ${cluster.numNodes} x ${cluster.instanceType}. ` +
        `Track it with request ${request.id}.`,
      instance_ids: cluster.instances.map((i) => i.id),
      request_id: request.id,
    });
  }),

  patch('/cluster/edit/:cluster', (ctx) => {
    const b = body(ctx, validateEdit);
    if ('reply' in b) return b.reply;
    const edited = ctx.state.clusters.editCluster(ctx.user, ctx.params.cluster, b.value, ctx.now);
    if (!edited.ok) return detail(edited.code, edited.message);
    const { cluster, changes } = edited.value;
    return json(202, {
      message: changes.length
        ? `Cluster ${cluster.id}: ${changes.join(', ')}`
        : `Cluster ${cluster.id}: nothing to change`,
    });
  }),

  get('/cluster/list', (ctx) => {
    const org = flag(ctx, 'include_org');
    if ('reply' in org) return org.reply;
    const inst = flag(ctx, 'instances');
    if ('reply' in inst) return inst.reply;
    const views = ctx.state.clusters.listClusters(ctx.user, org.value, ctx.now);
    const shape = shapeOf(ctx.state, 'clusterList');
    // Storage volumes: each cluster's attached volumes (engine/volumeRoutes.ts).
    const vols = views.map((v) => ({
      clusterId: v.cluster.id,
      list: ctx.state.volumes.forCluster(v.cluster.id, ctx.now),
    }));
    return shaped(
      shape,
      () =>
        clusterListText(views, { includeOrg: org.value, instances: inst.value, style: shape.style }) +
        attachedVolumesText(vols),
      () => ({
        clusters: views.map((v, i) => ({
          ...clusterJson(v, inst.value),
          attached_volumes: attachedVolumesJson(vols[i].list),
        })),
      }),
    );
  }),

  get('/cluster/info/:cluster', (ctx) => {
    const cluster = ctx.state.clusters.findCluster(ctx.user, ctx.params.cluster, ctx.now);
    if (!cluster) return detail(404, `Cluster '${ctx.params.cluster}' not found`);
    const v = ctx.state.clusters.view(cluster, ctx.now);
    const shape = shapeOf(ctx.state, 'clusterInfo');
    const vols = ctx.state.volumes.forCluster(cluster.id, ctx.now); // storage volumes
    return shaped(
      shape,
      () => clusterInfoText(v, shape.style) + attachedVolumesText([{ clusterId: cluster.id, list: vols }]),
      () => ({ ...clusterJson(v, true), attached_volumes: attachedVolumesJson(vols) }),
    );
  }),

  get('/cluster/operations/:cluster', (ctx) => {
    const cluster = ctx.state.clusters.findCluster(ctx.user, ctx.params.cluster, ctx.now);
    if (!cluster) return detail(404, `Cluster '${ctx.params.cluster}' not found`);
    const type = (ctx.query.get('request_type') ?? ctx.query.get('type'))?.toUpperCase();
    const status = ctx.query.get('status')?.toUpperCase();
    const ops = ctx.state.clusters
      .operations(cluster)
      .map((r) => requestJson(ctx.state.requests, r, ctx.now))
      .filter((r) => (!type || r.request_type === type) && (!status || r.status === status));
    const message = ops.length
      ? table(
          ['REQUEST ID', 'TYPE', 'STATUS', 'CREATED'],
          ops.map((r) => [
            String(r.request_id),
            String(r.request_type),
            String(r.status),
            String(r.created_at),
          ]),
        )
      : `No operations for cluster ${cluster.id}`;
    return json(200, { message, cluster_id: cluster.id, operations: ops });
  }),

  del('/cluster/:cluster', (ctx) => {
    const destroyed = ctx.state.clusters.destroyCluster(ctx.user, ctx.params.cluster, ctx.now);
    if (!destroyed.ok) return detail(destroyed.code, destroyed.message);
    const { cluster, request, already } = destroyed.value;
    const message = already
      ? `Cluster ${cluster.id} (${cluster.name}) is already being destroyed. Track it with request ${request.id}.`
      : `Cluster destruction initiated: ${cluster.name} (${cluster.id}). Track it with request ${request.id}.`;
    return json(202, { message, request_id: request.id });
  }),

  get('/request/info/:request_id', (ctx) => {
    const r = ctx.state.requests.find(ctx.user, ctx.params.request_id);
    if (!r) return detail(404, `Request '${ctx.params.request_id}' not found`);
    const info = requestJson(ctx.state.requests, r, ctx.now);
    const terminal = info.status === 'COMPLETED' || info.status === 'FAILED';
    return json(
      200,
      info,
      terminal ? undefined : { 'Retry-After': String(ctx.state.config.retryAfterSeconds) },
    );
  }),

  get('/ssh/:instance_id', (ctx) => {
    // The official CLI sends platform.system() verbatim ("Linux", "Darwin", "Windows").
    const system = (ctx.query.get('system') ?? 'linux').toLowerCase();
    if (system !== 'linux' && system !== 'darwin' && system !== 'windows') {
      return validationReply([
        issue(
          'enum',
          ['query', 'system'],
          "Input should be 'linux', 'darwin' or 'windows'",
          ctx.query.get('system'),
          {
            expected: "'linux', 'darwin' or 'windows'",
          },
        ),
      ]);
    }
    const found = ctx.state.clusters.findInstance(ctx.user, ctx.params.instance_id, ctx.now);
    if (!found) return detail(404, `Instance '${ctx.params.instance_id}' not found`);
    const v = ctx.state.clusters.view(found.cluster, ctx.now);
    if (!v.addressed || v.status === 'FAILED') {
      return detail(
        409,
        `Instance ${found.instance.id} is not reachable yet (cluster ${found.cluster.id} is ${v.status})`,
      );
    }
    const knownHosts = system === 'windows' ? 'NUL' : '/dev/null';
    // A real node (engine/nodes.ts): its own port and the engine's OS user; otherwise the cloud's defaults.
    const real = sshAddress(found.instance);
    const port = real && real.port !== 22 ? ` -p ${real.port}` : '';
    const at = `${real?.user ?? 'ubuntu'}@${found.instance.publicIp}`;
    return json(200, {
      command: `ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=${knownHosts}${port} ${at}`,
      message: `Connecting to ${found.instance.id} (${found.instance.publicIp}${real ? `, port ${real.port}` : ''}) of cluster ${found.cluster.name}...`,
    });
  }),
];

// --- object storage ------------------------------------------------------------------------------------

const NOT_ENABLED =
  'Object storage is not enabled for your organization. Enable it first (POST /object-storage/enable).';

/** Run `fn` with the organisation's storage record, or answer 404 before enable. */
function withStorage(fn: (ctx: UserCtx, record: ObjectStorageRecord) => Reply): (ctx: UserCtx) => Reply {
  return (ctx) => {
    const record = ctx.state.objectStorage.storageRecord(ctx.user);
    return record ? fn(ctx, record) : detail(404, NOT_ENABLED);
  };
}

const objectStorage: Route[] = [
  post('/object-storage/enable', ({ state, user, now }) =>
    json(200, state.objectStorage.enableStorage(user, now).record),
  ),
  get(
    '/object-storage/credentials',
    withStorage((_ctx, record) => json(200, record)),
  ),
  post(
    '/object-storage/rotate-keys',
    withStorage(({ state, user, now }) => json(200, state.objectStorage.rotateStorageKeys(user, now))),
  ),
  del(
    '/object-storage/disable',
    withStorage(({ state, user }) => {
      state.objectStorage.disableStorage(user);
      return json(200, {
        message: 'Object storage disabled. Its access keys no longer work and its buckets were removed.',
      });
    }),
  ),
  get(
    '/object-storage/configure/aws',
    withStorage((_ctx, r) =>
      json(200, {
        profile_name: 'tp',
        credentials_file: `[tp]\naws_access_key_id = ${r.access_key_id}\naws_secret_access_key = ${r.secret_access_key}\n`,
        config_file: `[profile tp]\nregion = ${r.region}\nendpoint_url = ${r.endpoint}\ns3 =\n    addressing_style = path\n`,
        endpoint: r.endpoint,
      }),
    ),
  ),
  get(
    '/object-storage/configure/rclone',
    withStorage((_ctx, r) =>
      json(200, {
        rclone_config:
          `[tp]\ntype = s3\nprovider = Other\naccess_key_id = ${r.access_key_id}\nsecret_access_key = ${r.secret_access_key}\n` +
          `endpoint = ${r.endpoint}\nregion = ${r.region}\n`,
        remote_name: 'tp',
      }),
    ),
  ),
  get(
    '/object-storage/bucket/list',
    withStorage(({ state }) =>
      // Plain names: the official CLI prints each entry as is (the extension reads names or records).
      json(200, {
        buckets: state.objectStorage.listBuckets().map((b) => b.name),
        message: bucketsText(state.objectStorage.listBuckets()),
      }),
    ),
  ),
  put(
    '/object-storage/bucket/create/:bucket',
    withStorage(({ state, params, now }) => {
      const issues = validateBucketName(params.bucket);
      if (issues.length) return validationReply(issues);
      const created = state.objectStorage.createBucket(params.bucket, now);
      if (!created.ok) return detail(created.code, created.message);
      return json(201, { message: `Bucket '${created.value.name}' created`, ...bucketJson(created.value) });
    }),
  ),
  del(
    '/object-storage/bucket/delete/:bucket',
    withStorage(({ state, params }) => {
      const deleted = state.objectStorage.deleteBucket(params.bucket);
      return deleted.ok ? noContent() : detail(deleted.code, deleted.message);
    }),
  ),
];

export const ROUTES: Route[] = [
  ...health,
  ...account,
  ...clusters,
  ...objectStorage,
  ...volumeRoutes(),
  ...jobRoutes(),
  ...quoteRoutes(),
];

// --- matching ------------------------------------------------------------------------------------------

export type Match = { route: Route; params: Record<string, string> } | { allowed: string[] } | null;

/** Find the route for method + path. `{allowed}` when the path exists with other methods (405). */
export function matchRoute(routes: Route[], method: string, path: string): Match {
  const segments = path.split('/');
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length ? { allowed } : null;
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | null {
  const parts = pattern.split('/');
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p.startsWith(':')) {
      if (segments[i] === '') return null;
      try {
        params[p.slice(1)] = decodeURIComponent(segments[i]);
      } catch {
        return null;
      }
    } else if (p !== segments[i]) return null;
  }
  return params;
}
