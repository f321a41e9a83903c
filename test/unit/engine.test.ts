// The local engine over real HTTP: every route's status codes and body shapes, auth, validation,
// the lazy request lifecycle, scoping, object storage, the control surface (faults, log, seeds),
// performance of big listings, and the CLI.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { startEngine, type RunningEngine } from '../../engine/server';

const TOKEN = 'tp_unit_engine_token_aaaaaaaaaaaa';
const TOKEN2 = 'tp_unit_engine_token_bbbbbbbbbbbb';
const RO_TOKEN = 'tp_unit_engine_readonly_cccccccccc';
const UNKNOWN_TOKEN = 'tp_unit_engine_unknown_dddddddddd';

// Test code reads arbitrary JSON answers; `any` keeps the assertions readable.
type Json = Record<string, any>;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

let engine: RunningEngine;

async function call(
  method: string,
  p: string,
  opts: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? TOKEN : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(engine.url + p, { method, headers, body });
  const text = await res.text();
  let json: Json;
  try {
    json = text ? (JSON.parse(text) as Json) : {};
  } catch {
    json = {};
  }
  return { status: res.status, headers: res.headers, text, json };
}

async function control(method: string, p: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${engine.url}/_engine/${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `control ${method} ${p} -> ${res.status} ${text}`);
  return JSON.parse(text) as Json;
}

/** A raw node:http call on a fresh connection: fault tests need to see resets and hangs as they are. */
function rawCall(
  method: string,
  p: string,
  opts: { body?: unknown; timeoutMs?: number } = {},
): Promise<{ status: number; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = http.request(engine.url + p, {
      method,
      agent: false,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
      },
    });
    const timer = opts.timeoutMs
      ? setTimeout(() => req.destroy(new Error('client timeout')), opts.timeoutMs)
      : undefined;
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text });
      });
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      resolve({ error: e.message });
    });
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  get: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 4000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await sleep(10);
  }
}

async function create(body: Json = {}, token = TOKEN): Promise<Json> {
  const r = await call('POST', '/cluster/create', { token, body: { instance_type: '1xH100', ...body } });
  assert.equal(r.status, 202, r.text);
  return r.json;
}

async function requestStatus(id: string): Promise<string> {
  return (await call('GET', `/request/info/${id}`)).json.status as string;
}

async function waitRequest(id: string, status: string): Promise<void> {
  await until(
    `request ${id} ${status}`,
    () => requestStatus(id),
    (s) => s === status,
  );
}

function sshKey(comment = 'dev@laptop'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  const field = (b: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

function assertIssue(r: Answer, type: string, loc: (string | number)[]): void {
  assert.equal(r.status, 422, r.text);
  assert.ok(Array.isArray(r.json.detail), 'detail is a list');
  const found = (r.json.detail as Json[]).find(
    (d) => d.type === type && JSON.stringify(d.loc) === JSON.stringify(loc),
  );
  assert.ok(found, `expected ${type} at ${JSON.stringify(loc)} in ${r.text}`);
  assert.equal(typeof found.msg, 'string');
  assert.ok('input' in found, 'pydantic issues carry the input');
}

describe('local engine', function () {
  this.timeout(20_000);

  before(async () => {
    engine = await startEngine({
      port: 0,
      quiet: true,
      tokens: [TOKEN, TOKEN2],
      readonlyTokens: [RO_TOKEN],
      pendingMs: 30,
      processingMs: 60,
      retryAfterSeconds: 1,
    });
  });
  after(async () => {
    await engine.close();
  });
  beforeEach(async () => {
    await control('POST', 'reset', {});
  });

  describe('startEngine', () => {
    it('listens on a free loopback port and reports its tokens', () => {
      assert.match(engine.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(engine.port > 0);
      assert.equal(engine.url, `http://127.0.0.1:${engine.port}`);
      assert.deepEqual(engine.tokens, [TOKEN, TOKEN2]);
    });

    it('uses tp_local_dev_token by default, and close() ends hung connections', async () => {
      const other = await startEngine({ port: 0 });
      try {
        assert.deepEqual(other.tokens, ['tp_local_dev_token']);
        const me = await fetch(`${other.url}/me`, {
          headers: { authorization: 'Bearer tp_local_dev_token' },
        });
        assert.equal(me.status, 200);
        await fetch(`${other.url}/_engine/faults`, {
          method: 'POST',
          body: JSON.stringify({ path: '/me', action: 'hang' }),
        });
        const hung = fetch(`${other.url}/me`, {
          headers: { authorization: 'Bearer tp_local_dev_token' },
        }).then(
          () => 'answered',
          () => 'failed',
        );
        await sleep(50);
        const t0 = Date.now();
        await other.close();
        assert.ok(Date.now() - t0 < 1000, 'close does not wait for the hung call');
        assert.equal(await hung, 'failed');
      } finally {
        await other.close();
      }
    });

    it('refuses a token that is both full-access and read-only', async () => {
      await assert.rejects(
        startEngine({ port: 0, tokens: ['tp_same_token'], readonlyTokens: ['tp_same_token'] }),
      );
    });
  });

  describe('health and auth', () => {
    it('GET /healthz and POST /health need no token', async () => {
      const z = await call('GET', '/healthz', { token: null });
      assert.equal(z.status, 200);
      assert.equal(z.json.status, 'ok');
      // What the official CLI sends before each command.
      const h = await call('POST', '/health', {
        token: null,
        body: { package_version: '1.0.0', uname: ['Linux'] },
      });
      assert.equal(h.status, 200);
      assert.equal(typeof h.json.message, 'string');
    });

    it('401 {error} for a missing, unknown or non-bearer token', async () => {
      const variants: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${UNKNOWN_TOKEN}` },
        { authorization: `Basic ${TOKEN}` },
        { authorization: 'Bearer' },
      ];
      for (const headers of variants) {
        const r = await call('GET', '/cluster/list', { token: null, headers });
        assert.equal(r.status, 401, JSON.stringify(headers));
        assert.equal(typeof r.json.error, 'string');
        assert.ok(r.json.error.length > 0);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer');
      }
      // Every authenticated route, not just one.
      for (const [m, p] of [
        ['GET', '/me'],
        ['POST', '/cluster/create'],
        ['DELETE', '/cluster/x'],
        ['GET', '/object-storage/credentials'],
        ['PUT', '/object-storage/bucket/create/abc'],
      ]) {
        assert.equal((await call(m, p, { token: null })).status, 401, `${m} ${p}`);
      }
    });

    it('the bearer scheme is case-insensitive', async () => {
      const r = await call('GET', '/me', { token: null, headers: { authorization: `bearer ${TOKEN}` } });
      assert.equal(r.status, 200);
    });

    it('read-only token: reads work, every mutating call is 403 {error} and changes nothing', async () => {
      const mine = await create({ tp_cluster_name: 'ro-target' });
      assert.equal((await call('GET', '/cluster/list', { token: RO_TOKEN })).status, 200);
      assert.equal((await call('GET', '/me', { token: RO_TOKEN })).json.readonly, true);
      const attempts: [string, string, unknown][] = [
        ['POST', '/cluster/create', { instance_type: '1xH100' }],
        ['PATCH', `/cluster/edit/${mine.cluster_id}`, { deletion_protection: true }],
        ['DELETE', `/cluster/${mine.cluster_id}`, undefined],
        ['POST', '/user/ssh-key/add', { public_key: sshKey() }],
        ['DELETE', '/user/ssh-key/remove/key_x', undefined],
        ['POST', '/object-storage/enable', undefined],
        ['POST', '/object-storage/rotate-keys', undefined],
        ['DELETE', '/object-storage/disable', undefined],
        ['PUT', '/object-storage/bucket/create/ro-bucket', undefined],
        ['DELETE', '/object-storage/bucket/delete/ro-bucket', undefined],
      ];
      for (const [m, p, body] of attempts) {
        const r = await call(m, p, { token: RO_TOKEN, body });
        assert.equal(r.status, 403, `${m} ${p}: ${r.text}`);
        assert.equal(typeof r.json.error, 'string');
      }
      const list = await call('GET', '/cluster/list?include_org=true');
      assert.equal(list.json.clusters.length, 1);
      assert.equal(list.json.clusters[0].deletion_protection, false);
      assert.equal((await call('GET', '/object-storage/credentials')).status, 404);
    });

    it('unknown paths are 404 and wrong methods 405, FastAPI style', async () => {
      const r = await call('GET', '/no/such/route');
      assert.equal(r.status, 404);
      assert.deepEqual(r.json, { detail: 'Not Found' });
      const m = await call('POST', '/cluster/list');
      assert.equal(m.status, 405);
      assert.equal(m.json.detail, 'Method Not Allowed');
      assert.match(m.headers.get('allow') ?? '', /GET/);
    });
  });

  describe('account', () => {
    it('GET /me and GET /user/info describe the caller', async () => {
      const me = await call('GET', '/me');
      assert.equal(me.status, 200);
      assert.equal(me.json.uid, 'usr_1');
      assert.equal(me.json.email, 'dev1@tensorpool.local');
      assert.equal(me.json.org_id, 'org_local');
      assert.equal(typeof me.json.name, 'string');
      const other = await call('GET', '/me', { token: TOKEN2 });
      assert.equal(other.json.uid, 'usr_2');
      assert.equal(other.json.email, 'dev2@tensorpool.local');
      const info = await call('GET', '/user/info');
      assert.equal(info.status, 200);
      assert.match(info.json.message, /dev1@tensorpool\.local/);
      assert.match(info.json.message, /Local Dev Org/);
      assert.equal(info.json.uid, 'usr_1');
    });

    it('GET /user/organization/info lists every member and the balance', async () => {
      const r = await call('GET', '/user/organization/info');
      assert.equal(r.status, 200);
      assert.equal(r.json.org_name, 'Local Dev Org');
      assert.equal(typeof r.json.balance, 'number');
      const emails = (r.json.members as Json[]).map((m) => m.email);
      assert.ok(
        emails.includes('dev1@tensorpool.local') &&
          emails.includes('dev2@tensorpool.local') &&
          emails.includes('readonly1@tensorpool.local'),
      );
      for (const m of r.json.members as Json[]) assert.match(m.uid, /^usr_\d+$/);
      // The read-only user is a separate member of the same organisation.
      assert.equal((await call('GET', '/me', { token: RO_TOKEN })).json.org_id, 'org_local');
    });
  });

  describe('SSH keys', () => {
    it('add (200 {key_id, message}), list with include_org, remove (200), unknown (404)', async () => {
      const key = sshKey('me@box');
      const added = await call('POST', '/user/ssh-key/add', { body: { public_key: key, name: 'laptop' } });
      assert.equal(added.status, 200, added.text);
      assert.match(added.json.key_id, /^key_/);
      assert.equal(typeof added.json.message, 'string');

      const dup = await call('POST', '/user/ssh-key/add', { body: { public_key: key } });
      assert.equal(dup.status, 409);
      assert.equal(typeof dup.json.detail, 'string');

      const list = await call('GET', '/user/ssh-key/list');
      assert.equal(list.status, 200);
      assert.match(list.json.message, /laptop/);
      assert.equal(list.json.keys.length, 1);
      assert.equal(list.json.keys[0].key_id, added.json.key_id);
      assert.match(list.json.keys[0].fingerprint, /^SHA256:/);

      assert.equal((await call('GET', '/user/ssh-key/list', { token: TOKEN2 })).json.keys.length, 0);
      assert.equal(
        (await call('GET', '/user/ssh-key/list?include_org=true', { token: TOKEN2 })).json.keys.length,
        1,
      );
      // Somebody else's key cannot be removed.
      assert.equal(
        (await call('DELETE', `/user/ssh-key/remove/${added.json.key_id}`, { token: TOKEN2 })).status,
        404,
      );

      const removed = await call('DELETE', `/user/ssh-key/remove/${added.json.key_id}`);
      assert.equal(removed.status, 200);
      assert.equal(typeof removed.json.message, 'string');
      const again = await call('DELETE', `/user/ssh-key/remove/${added.json.key_id}`);
      assert.equal(again.status, 404);
      assert.equal(typeof again.json.detail, 'string');
    });

    it('422 for a body that is not an SSH public key', async () => {
      for (const public_key of [
        'hello',
        'ssh-ed25519',
        'ssh-ed25519 !!!notbase64',
        'ssh-ed25519 ' + Buffer.from('garbage-bytes-here').toString('base64'),
        'ssh-rsa ' + sshKey().split(' ')[1],
      ]) {
        assertIssue(await call('POST', '/user/ssh-key/add', { body: { public_key } }), 'value_error', [
          'body',
          'public_key',
        ]);
      }
      assertIssue(await call('POST', '/user/ssh-key/add', { body: {} }), 'missing', ['body', 'public_key']);
      assertIssue(await call('POST', '/user/ssh-key/add', { body: { public_key: 42 } }), 'string_type', [
        'body',
        'public_key',
      ]);
    });

    it('save_keys on create stores the given keys on the profile', async () => {
      const key = sshKey('saved@create');
      await create({ public_keys: [key] });
      const keys = (await call('GET', '/user/ssh-key/list')).json.keys as Json[];
      assert.equal(keys.length, 1);
      assert.equal(keys[0].public_key, key);
      await create({ public_keys: [sshKey('not-saved')], save_keys: false });
      assert.equal((await call('GET', '/user/ssh-key/list')).json.keys.length, 1);
    });
  });

  describe('cluster create and validation', () => {
    it('202 {cluster_id, message, instance_ids, request_id}', async () => {
      const r = await call('POST', '/cluster/create', {
        body: {
          instance_type: '8xH100',
          num_nodes: 3,
          tp_cluster_name: 'train',
          container: 'nvcr.io/nvidia/pytorch:25.01-py3',
          deletion_protection: true,
        },
      });
      assert.equal(r.status, 202, r.text);
      assert.match(r.json.cluster_id, /^c-[0-9a-f]+$/);
      assert.equal(typeof r.json.message, 'string');
      assert.equal(r.json.instance_ids.length, 3);
      for (const id of r.json.instance_ids) assert.match(id, /^i-[0-9a-f]+$/);
      assert.match(r.json.request_id, /^req_/);
      const info = await call('GET', `/cluster/info/${r.json.cluster_id}`);
      assert.equal(info.json.name, 'train');
      assert.equal(info.json.instance_type, '8xH100');
      assert.equal(info.json.num_nodes, 3);
      assert.equal(info.json.deletion_protection, true);
      assert.equal(info.json.container, 'nvcr.io/nvidia/pytorch:25.01-py3');
      assert.equal(info.json.owner, 'usr_1');
      assert.ok(!Number.isNaN(Date.parse(info.json.created_at)));
    });

    it('defaults: 1 node, a generated unique name, no protection; experimental_container is the image too', async () => {
      const a = await create({
        experimental_container: 'ghcr.io/x/y:1',
        num_nodes: null,
        public_keys: null,
        tp_cluster_name: null,
        deletion_protection: null,
        container: null,
      });
      const b = await create();
      const ia = (await call('GET', `/cluster/info/${a.cluster_id}`)).json;
      const ib = (await call('GET', `/cluster/info/${b.cluster_id}`)).json;
      assert.equal(ia.num_nodes, 1);
      assert.equal(ia.deletion_protection, false);
      assert.equal(ia.container, 'ghcr.io/x/y:1');
      assert.ok(ia.name.length > 0 && ib.name.length > 0);
      assert.notEqual(ia.name, ib.name);
      assert.equal(ib.container, null);
    });

    const bad: [string, unknown, string, (string | number)[]][] = [
      ['missing instance_type', { num_nodes: 1 }, 'missing', ['body', 'instance_type']],
      ['instance_type not a string', { instance_type: 8 }, 'string_type', ['body', 'instance_type']],
      [
        'instance_type without count',
        { instance_type: 'H100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with zero count',
        { instance_type: '0xH100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type without model',
        { instance_type: '8x' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with spaces',
        { instance_type: '8 x H100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with trailing newline',
        { instance_type: '8xH100\n' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with full-width digits',
        { instance_type: '１xH100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with non-ASCII letters',
        { instance_type: '8xH100é' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      ['num_nodes 0', { instance_type: '1xH100', num_nodes: 0 }, 'greater_than_equal', ['body', 'num_nodes']],
      [
        'num_nodes negative',
        { instance_type: '1xH100', num_nodes: -2 },
        'greater_than_equal',
        ['body', 'num_nodes'],
      ],
      ['num_nodes 1.5', { instance_type: '1xH100', num_nodes: 1.5 }, 'int_from_float', ['body', 'num_nodes']],
      [
        'num_nodes as a string',
        { instance_type: '1xH100', num_nodes: '2' },
        'int_type',
        ['body', 'num_nodes'],
      ],
      [
        'num_nodes as a boolean',
        { instance_type: '1xH100', num_nodes: true },
        'int_type',
        ['body', 'num_nodes'],
      ],
      [
        'num_nodes huge',
        { instance_type: '1xH100', num_nodes: 1e9 },
        'less_than_equal',
        ['body', 'num_nodes'],
      ],
      [
        'both image fields',
        { instance_type: '1xH100', container: 'a', experimental_container: 'b' },
        'value_error',
        ['body'],
      ],
      [
        'public_keys not a list',
        { instance_type: '1xH100', public_keys: 'ssh-ed25519 AAAA' },
        'list_type',
        ['body', 'public_keys'],
      ],
      [
        'public_keys item not a string',
        { instance_type: '1xH100', public_keys: ['ok', 7] },
        'string_type',
        ['body', 'public_keys', 1],
      ],
      [
        'deletion_protection not a bool',
        { instance_type: '1xH100', deletion_protection: 'yes' },
        'bool_type',
        ['body', 'deletion_protection'],
      ],
      ['save_keys null', { instance_type: '1xH100', save_keys: null }, 'bool_type', ['body', 'save_keys']],
      ['save_keys not a bool', { instance_type: '1xH100', save_keys: 1 }, 'bool_type', ['body', 'save_keys']],
      [
        'tp_cluster_name not a string',
        { instance_type: '1xH100', tp_cluster_name: 5 },
        'string_type',
        ['body', 'tp_cluster_name'],
      ],
      [
        'tp_cluster_name blank',
        { instance_type: '1xH100', tp_cluster_name: '  ' },
        'string_too_short',
        ['body', 'tp_cluster_name'],
      ],
      [
        'container not a string',
        { instance_type: '1xH100', container: ['img'] },
        'string_type',
        ['body', 'container'],
      ],
      [
        'experimental_container not a string',
        { instance_type: '1xH100', experimental_container: 3 },
        'string_type',
        ['body', 'experimental_container'],
      ],
      ['body is a list', [{ instance_type: '1xH100' }], 'model_attributes_type', ['body']],
      ['body is null', null, 'missing', ['body']],
    ];
    for (const [name, body, type, loc] of bad) {
      it(`422 ${type} at ${JSON.stringify(loc)}: ${name}`, async () => {
        assertIssue(await call('POST', '/cluster/create', { body }), type, loc);
        assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 0, 'nothing was created');
      });
    }

    it('422 json_invalid for a body that is not JSON, missing for an empty body', async () => {
      const r = await call('POST', '/cluster/create', { raw: '{"instance_type": "1xH100",' });
      assert.equal(r.status, 422);
      assert.equal(r.json.detail[0].type, 'json_invalid');
      assert.equal(r.json.detail[0].loc[0], 'body');
      assert.equal(typeof r.json.detail[0].loc[1], 'number');
      assertIssue(await call('POST', '/cluster/create', { raw: '' }), 'missing', ['body']);
    });

    it('reports every problem at once', async () => {
      const r = await call('POST', '/cluster/create', { body: { num_nodes: 0, deletion_protection: 'no' } });
      assert.equal(r.status, 422);
      assert.deepEqual((r.json.detail as Json[]).map((d) => d.loc.join('.')).sort(), [
        'body.deletion_protection',
        'body.instance_type',
        'body.num_nodes',
      ]);
      assert.deepEqual(r.json.detail.find((d: Json) => d.type === 'missing').input, {
        num_nodes: 0,
        deletion_protection: 'no',
      });
    });

    it('409 {detail} for a duplicate name in the owner scope; another user may reuse it', async () => {
      await create({ tp_cluster_name: 'shared-name' });
      const dup = await call('POST', '/cluster/create', {
        body: { instance_type: '1xH100', tp_cluster_name: 'shared-name' },
      });
      assert.equal(dup.status, 409);
      assert.match(dup.json.detail, /shared-name/);
      assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 1);
      await create({ tp_cluster_name: 'shared-name' }, TOKEN2);
    });
  });

  describe('cluster lifecycle (lazy, no timers)', () => {
    it('create walks PENDING -> PROCESSING -> COMPLETED with Retry-After until terminal; the cluster follows', async () => {
      await control('POST', 'config', { pendingMs: 400, processingMs: 300 });
      const c = await create({ num_nodes: 2 });
      const first = await call('GET', `/request/info/${c.request_id}`);
      assert.equal(first.status, 200);
      assert.equal(first.json.status, 'PENDING');
      assert.equal(first.json.request_id, c.request_id);
      assert.equal(first.json.request_type, 'CLUSTER_CLAIM');
      assert.equal(first.json.object_id, c.cluster_id);
      assert.ok(!Number.isNaN(Date.parse(first.json.created_at)));
      assert.equal(first.headers.get('retry-after'), '1');
      let info = (await call('GET', `/cluster/info/${c.cluster_id}`)).json;
      assert.equal(info.status, 'PENDING');
      assert.equal(info.instances[0].ip, null);

      const processing = await until(
        'PROCESSING',
        () => call('GET', `/request/info/${c.request_id}`),
        (r) => r.json.status !== 'PENDING',
      );
      assert.equal(processing.json.status, 'PROCESSING');
      assert.equal(processing.headers.get('retry-after'), '1');
      info = (await call('GET', `/cluster/info/${c.cluster_id}`)).json;
      assert.equal(info.status, 'PROVISIONING');

      const done = await until(
        'COMPLETED',
        () => call('GET', `/request/info/${c.request_id}`),
        (r) => r.json.status !== 'PROCESSING',
      );
      assert.equal(done.json.status, 'COMPLETED');
      assert.equal(done.headers.get('retry-after'), null, 'no Retry-After once terminal');
      assert.equal(done.json.external_message, undefined);
      info = (await call('GET', `/cluster/info/${c.cluster_id}`)).json;
      assert.equal(info.status, 'RUNNING');
      assert.equal(info.instances.length, 2);
      for (const i of info.instances as Json[]) {
        assert.equal(i.status, 'RUNNING');
        assert.match(i.ip, /^203\.0\.113\.\d+$/);
        assert.match(i.private_ip, /^198\.51\.100\.\d+$/);
      }
    });

    it('failCreates: the next N creations end FAILED with an external_message, then creations succeed again', async () => {
      await control('POST', 'config', { failCreates: 1, pendingMs: 0, processingMs: 0 });
      const bad = await create();
      const good = await create();
      const r = await call('GET', `/request/info/${bad.request_id}`);
      assert.equal(r.json.status, 'FAILED');
      assert.equal(typeof r.json.external_message, 'string');
      assert.ok(r.json.external_message.length > 0);
      assert.equal(r.headers.get('retry-after'), null);
      const info = (await call('GET', `/cluster/info/${bad.cluster_id}`)).json;
      assert.equal(info.status, 'FAILED');
      assert.equal(info.instances[0].ip, null);
      assert.equal(await requestStatus(good.request_id), 'COMPLETED');
      assert.equal((await call('GET', `/cluster/info/${good.cluster_id}`)).json.status, 'RUNNING');
      // A failed cluster can still be destroyed.
      const d = await call('DELETE', `/cluster/${bad.cluster_id}`);
      assert.equal(d.status, 202);
    });

    it('stuck: requests stay PROCESSING forever (with Retry-After)', async () => {
      await control('POST', 'config', { stuck: true, pendingMs: 0, processingMs: 5 });
      const c = await create();
      await sleep(80);
      const r = await call('GET', `/request/info/${c.request_id}`);
      assert.equal(r.json.status, 'PROCESSING');
      assert.equal(r.headers.get('retry-after'), '1');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.status, 'PROVISIONING');
    });

    it('retrying: requests pass through RETRYING once before they end', async () => {
      await control('POST', 'config', { retrying: true, pendingMs: 40, processingMs: 150 });
      const c = await create();
      const seen = new Set<string>();
      await until(
        'terminal',
        async () => {
          const s = await requestStatus(c.request_id);
          seen.add(s);
          return s;
        },
        (s) => s === 'COMPLETED',
      );
      assert.ok(seen.has('RETRYING'), `saw ${[...seen].join(',')}`);
      assert.ok(seen.has('PROCESSING'));
    });

    it('config changes apply to later requests only; Retry-After follows config', async () => {
      await control('POST', 'config', { pendingMs: 0, processingMs: 0 });
      const quick = await create();
      await control('POST', 'config', { pendingMs: 60_000, retryAfterSeconds: 7 });
      const slow = await create();
      assert.equal(await requestStatus(quick.request_id), 'COMPLETED');
      const r = await call('GET', `/request/info/${slow.request_id}`);
      assert.equal(r.json.status, 'PENDING');
      assert.equal(r.headers.get('retry-after'), '7');
    });

    it('destroy: 409 while protected (explains the edit), then 202 {message, request_id}, DESTROYING, gone (404)', async () => {
      await control('POST', 'config', { pendingMs: 0, processingMs: 0 });
      const c = await create({ tp_cluster_name: 'precious', deletion_protection: true });
      const refused = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.equal(refused.status, 409);
      assert.match(refused.json.detail, /deletion protection/i);
      assert.match(refused.json.detail, /edit/i);
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.status, 'RUNNING');

      const edit = await call('PATCH', `/cluster/edit/${c.cluster_id}`, {
        body: { deletion_protection: false },
      });
      assert.equal(edit.status, 202);
      assert.equal(typeof edit.json.message, 'string');

      await control('POST', 'config', { pendingMs: 250, processingMs: 250 });
      const d = await call('DELETE', '/cluster/precious'); // by name
      assert.equal(d.status, 202, d.text);
      assert.equal(typeof d.json.message, 'string');
      assert.match(d.json.request_id, /^req_/);
      const info = await call('GET', `/cluster/info/${c.cluster_id}`);
      assert.equal(info.json.status, 'DESTROYING');
      assert.match(info.json.instances[0].ip, /^203\.0\.113\./, 'still addressed while releasing');
      const req = await call('GET', `/request/info/${d.json.request_id}`);
      assert.equal(req.json.request_type, 'CLUSTER_RELEASE');
      assert.equal(req.json.object_id, c.cluster_id);

      // A second destroy while one is under way answers with the same request.
      const again = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.equal(again.status, 202);
      assert.equal(again.json.request_id, d.json.request_id);

      await waitRequest(d.json.request_id, 'COMPLETED');
      const gone = await call('GET', `/cluster/info/${c.cluster_id}`);
      assert.equal(gone.status, 404);
      assert.equal(typeof gone.json.detail, 'string');
      assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 0);
      assert.equal((await call('DELETE', `/cluster/${c.cluster_id}`)).status, 404);
      // The name is free again.
      await create({ tp_cluster_name: 'precious' });
    });

    it('failDestroys: the release ends FAILED and the cluster stays', async () => {
      await control('POST', 'config', { pendingMs: 0, processingMs: 0, failDestroys: 1 });
      const c = await create();
      const d = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.equal(d.status, 202);
      const r = await call('GET', `/request/info/${d.json.request_id}`);
      assert.equal(r.json.status, 'FAILED');
      assert.equal(typeof r.json.external_message, 'string');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.status, 'RUNNING');
      const retry = await call('DELETE', `/cluster/${c.cluster_id}`);
      assert.notEqual(retry.json.request_id, d.json.request_id);
      assert.equal(await requestStatus(retry.json.request_id), 'COMPLETED');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).status, 404);
    });

    it('404 {detail} for unknown clusters, requests and instances', async () => {
      for (const [m, p] of [
        ['GET', '/cluster/info/c-nope'],
        ['DELETE', '/cluster/c-nope'],
        ['GET', '/cluster/operations/c-nope'],
        ['GET', '/request/info/req_nope'],
        ['GET', '/ssh/i-nope'],
      ]) {
        const r = await call(m, p);
        assert.equal(r.status, 404, `${m} ${p}`);
        assert.equal(typeof r.json.detail, 'string');
      }
      const e = await call('PATCH', '/cluster/edit/c-nope', { body: { deletion_protection: true } });
      assert.equal(e.status, 404);
    });

    it('GET /cluster/operations lists the cluster requests, filterable by type and status', async () => {
      await control('POST', 'config', { pendingMs: 0, processingMs: 0 });
      const c = await create();
      await call('PATCH', `/cluster/edit/${c.cluster_id}`, { body: { cluster_name: 'renamed' } });
      const ops = await call('GET', `/cluster/operations/${c.cluster_id}`);
      assert.equal(ops.status, 200);
      assert.deepEqual(
        (ops.json.operations as Json[]).map((o) => o.request_type),
        ['CLUSTER_CLAIM', 'CLUSTER_EDIT'],
      );
      assert.equal(ops.json.operations[0].request_id, c.request_id);
      assert.equal(typeof ops.json.message, 'string');
      const filtered = await call(
        'GET',
        `/cluster/operations/renamed?request_type=cluster_edit&status=COMPLETED`,
      );
      assert.deepEqual(
        (filtered.json.operations as Json[]).map((o) => o.request_type),
        ['CLUSTER_EDIT'],
      );
    });
  });

  describe('cluster edit', () => {
    it('rename and protection apply at once (202 {message}); id or name both address the cluster', async () => {
      const c = await create({ tp_cluster_name: 'old-name' });
      const r = await call('PATCH', '/cluster/edit/old-name', {
        body: { cluster_name: 'new-name', deletion_protection: true },
      });
      assert.equal(r.status, 202, r.text);
      assert.match(r.json.message, /new-name/);
      const info = await call('GET', '/cluster/info/new-name');
      assert.equal(info.status, 200);
      assert.equal(info.json.id, c.cluster_id);
      assert.equal(info.json.deletion_protection, true);
      assert.equal((await call('GET', '/cluster/info/old-name')).status, 404);
      // Renaming to its own name is fine.
      assert.equal(
        (await call('PATCH', `/cluster/edit/${c.cluster_id}`, { body: { cluster_name: 'new-name' } })).status,
        202,
      );
    });

    it('409 for a rename onto another cluster name', async () => {
      await create({ tp_cluster_name: 'taken' });
      const c = await create({ tp_cluster_name: 'mine' });
      const r = await call('PATCH', `/cluster/edit/${c.cluster_id}`, { body: { cluster_name: 'taken' } });
      assert.equal(r.status, 409);
      assert.equal(typeof r.json.detail, 'string');
      assert.equal((await call('GET', `/cluster/info/${c.cluster_id}`)).json.name, 'mine');
    });

    it('422 for an edit with neither field, a blank name, or wrong types', async () => {
      const c = await create();
      const p = `/cluster/edit/${c.cluster_id}`;
      assertIssue(await call('PATCH', p, { body: {} }), 'value_error', ['body']);
      assertIssue(
        await call('PATCH', p, { body: { cluster_name: null, deletion_protection: null } }),
        'value_error',
        ['body'],
      );
      assertIssue(await call('PATCH', p, { body: { cluster_name: '' } }), 'string_too_short', [
        'body',
        'cluster_name',
      ]);
      assertIssue(await call('PATCH', p, { body: { cluster_name: ' \t ' } }), 'string_too_short', [
        'body',
        'cluster_name',
      ]);
      assertIssue(await call('PATCH', p, { body: { cluster_name: 12 } }), 'string_type', [
        'body',
        'cluster_name',
      ]);
      assertIssue(await call('PATCH', p, { body: { deletion_protection: 'true' } }), 'bool_type', [
        'body',
        'deletion_protection',
      ]);
      assertIssue(await call('PATCH', p, { raw: 'nope' }), 'json_invalid', ['body', 0]);
    });
  });

  describe('cluster list and info', () => {
    it('include_org scoping: own clusters by default, the organisation with include_org (Python True too)', async () => {
      const mine = await create({ tp_cluster_name: 'mine' });
      const theirs = await create({ tp_cluster_name: 'theirs' }, TOKEN2);
      const own = await call('GET', '/cluster/list');
      assert.deepEqual(
        (own.json.clusters as Json[]).map((c) => c.id),
        [mine.cluster_id],
      );
      assert.match(own.json.message, /mine/);
      assert.doesNotMatch(own.json.message, /theirs/);
      for (const q of ['include_org=true', 'include_org=True', 'include_org=1']) {
        const org = await call('GET', `/cluster/list?${q}`);
        assert.deepEqual(
          (org.json.clusters as Json[]).map((c) => c.id).sort(),
          [mine.cluster_id, theirs.cluster_id].sort(),
          q,
        );
        assert.match(org.json.message, /theirs/);
        assert.match(org.json.message, /dev2@tensorpool\.local/);
      }
      assert.equal((await call('GET', '/cluster/list?include_org=false')).json.clusters.length, 1);
      assertIssue(await call('GET', '/cluster/list?include_org=maybe'), 'bool_parsing', [
        'query',
        'include_org',
      ]);
      // Org members can see (and address) each other's clusters and requests.
      assert.equal((await call('GET', `/cluster/info/${theirs.cluster_id}`)).status, 200);
      assert.equal((await call('GET', `/request/info/${theirs.request_id}`)).status, 200);
    });

    it('structured items carry the documented fields; instances only with instances=true', async () => {
      await create({ num_nodes: 2, tp_cluster_name: 'shape' });
      const plain = (await call('GET', '/cluster/list')).json.clusters[0] as Json;
      for (const k of [
        'id',
        'name',
        'instance_type',
        'num_nodes',
        'status',
        'deletion_protection',
        'created_at',
        'owner',
        'container',
      ])
        assert.ok(k in plain, k);
      assert.equal(plain.instances, undefined);
      const withInst = await call('GET', '/cluster/list?instances=true');
      const item = withInst.json.clusters[0] as Json;
      assert.equal(item.instances.length, 2);
      for (const i of item.instances as Json[])
        assert.deepEqual(Object.keys(i).sort(), ['id', 'ip', 'private_ip', 'status']);
      assert.match(withInst.json.message, new RegExp(item.instances[1].id));
    });

    it('info answers with the message text and the same fields at top level', async () => {
      const c = await create({ tp_cluster_name: 'info-me' });
      const r = await call('GET', `/cluster/info/${c.cluster_id}`);
      assert.equal(r.status, 200);
      assert.match(r.json.message, new RegExp(c.cluster_id));
      assert.match(r.json.message, new RegExp(c.instance_ids[0]));
      assert.equal(r.json.id, c.cluster_id);
      assert.equal(r.json.name, 'info-me');
      assert.equal(r.json.instances[0].id, c.instance_ids[0]);
    });

    it("listMode 'text' answers with only the message; 'structured' with only the fields", async () => {
      await create({ tp_cluster_name: 'texty' });
      await control('POST', 'config', { listMode: 'text' });
      const list = await call('GET', '/cluster/list?include_org=true&instances=true');
      assert.deepEqual(Object.keys(list.json), ['message']);
      assert.match(list.json.message, /texty/);
      const info = await call('GET', '/cluster/info/texty');
      assert.deepEqual(Object.keys(info.json), ['message']);
      await control('POST', 'config', { listMode: 'structured' });
      const s = await call('GET', '/cluster/list');
      assert.deepEqual(Object.keys(s.json), ['clusters']);
      assert.equal((await call('GET', '/cluster/info/texty')).json.message, undefined);
    });

    it('an empty list still says something', async () => {
      const r = await call('GET', '/cluster/list');
      assert.deepEqual(r.json.clusters, []);
      assert.match(r.json.message, /No clusters/);
    });
  });

  describe('ssh command', () => {
    it('{command, message} for a running instance; the system may be capitalised like platform.system()', async () => {
      await control('POST', 'config', { pendingMs: 0, processingMs: 0 });
      const c = await create();
      const ip = (await call('GET', `/cluster/info/${c.cluster_id}`)).json.instances[0].ip as string;
      for (const system of ['linux', 'Darwin', 'windows']) {
        const r = await call('GET', `/ssh/${c.instance_ids[0]}?system=${system}`);
        assert.equal(r.status, 200, r.text);
        assert.ok(r.json.command.includes(`@${ip}`), r.json.command);
        assert.match(r.json.command, /^ssh /);
        assert.equal(typeof r.json.message, 'string');
      }
      assertIssue(await call('GET', `/ssh/${c.instance_ids[0]}?system=plan9`), 'enum', ['query', 'system']);
    });

    it('409 while the instance has no address yet', async () => {
      await control('POST', 'config', { pendingMs: 60_000 });
      const c = await create();
      const r = await call('GET', `/ssh/${c.instance_ids[0]}?system=linux`);
      assert.equal(r.status, 409);
      assert.match(r.json.detail, /not reachable yet/);
    });
  });

  describe('object storage', () => {
    it('everything is 404 before enable', async () => {
      for (const [m, p] of [
        ['GET', '/object-storage/credentials'],
        ['POST', '/object-storage/rotate-keys'],
        ['DELETE', '/object-storage/disable'],
        ['GET', '/object-storage/configure/aws'],
        ['GET', '/object-storage/configure/rclone'],
        ['GET', '/object-storage/bucket/list'],
        ['PUT', '/object-storage/bucket/create/my-bucket'],
        ['DELETE', '/object-storage/bucket/delete/my-bucket'],
      ]) {
        const r = await call(m, p);
        assert.equal(r.status, 404, `${m} ${p}`);
        assert.match(r.json.detail, /not enabled/);
      }
    });

    it('enable (idempotent), credentials, rotate, configure aws/rclone, disable', async () => {
      const first = await call('POST', '/object-storage/enable');
      assert.equal(first.status, 200);
      const rec = first.json;
      assert.equal(rec.org_id, 'org_local');
      assert.match(rec.access_key_id, /^[A-Z0-9]{20}$/);
      assert.equal(rec.secret_access_key.length, 40);
      assert.equal(rec.endpoint, 'https://storage.tensorpool.local');
      assert.equal(rec.region, 'us-east-1');
      assert.equal(rec.status, 'ACTIVE');
      assert.equal(typeof rec.profile_id, 'string');
      assert.equal(typeof rec.iam_username, 'string');
      assert.ok(!Number.isNaN(Date.parse(rec.created_at)) && !Number.isNaN(Date.parse(rec.updated_at)));

      const again = await call('POST', '/object-storage/enable');
      assert.deepEqual(again.json, rec, 'enable again returns the existing record');
      assert.deepEqual((await call('GET', '/object-storage/credentials')).json, rec);
      // Org-wide: another member sees the same record.
      assert.deepEqual((await call('GET', '/object-storage/credentials', { token: TOKEN2 })).json, rec);

      await sleep(5);
      const rotated = (await call('POST', '/object-storage/rotate-keys')).json;
      assert.notEqual(rotated.access_key_id, rec.access_key_id);
      assert.notEqual(rotated.secret_access_key, rec.secret_access_key);
      assert.ok(Date.parse(rotated.updated_at) > Date.parse(rec.updated_at));
      assert.equal(rotated.created_at, rec.created_at);
      assert.deepEqual((await call('GET', '/object-storage/credentials')).json, rotated);

      const aws = (await call('GET', '/object-storage/configure/aws')).json;
      assert.equal(aws.profile_name, 'tp');
      assert.ok(
        aws.credentials_file.includes(rotated.access_key_id) &&
          aws.credentials_file.includes(rotated.secret_access_key),
      );
      assert.match(aws.config_file, /\[profile tp\]/);
      assert.equal(aws.endpoint, 'https://storage.tensorpool.local');
      const rclone = (await call('GET', '/object-storage/configure/rclone')).json;
      assert.equal(rclone.remote_name, 'tp');
      assert.match(rclone.rclone_config, /^\[tp\]\ntype = s3/);
      assert.ok(rclone.rclone_config.includes(rotated.access_key_id));

      const off = await call('DELETE', '/object-storage/disable');
      assert.equal(off.status, 200);
      assert.equal(typeof off.json.message, 'string');
      assert.equal((await call('GET', '/object-storage/credentials')).status, 404);
      // Enabling again issues new keys.
      const fresh = (await call('POST', '/object-storage/enable')).json;
      assert.notEqual(fresh.access_key_id, rotated.access_key_id);
    });

    it('buckets: 201 create, 409 duplicate, 422 bad names, list objects, 409 non-empty delete, 204, 404', async () => {
      await call('POST', '/object-storage/enable');
      const made = await call('PUT', '/object-storage/bucket/create/datasets-01');
      assert.equal(made.status, 201, made.text);
      assert.equal(made.json.name, 'datasets-01');
      assert.equal((await call('PUT', '/object-storage/bucket/create/datasets-01')).status, 409);
      for (const name of [
        'Bad_Name',
        'ab',
        'a'.repeat(64),
        'a..b',
        '192.168.1.1',
        '-abc',
        'abc-',
        'xn--abc',
        'abc-s3alias',
        'my.bucket.mrap',
      ]) {
        assertIssue(
          await call('PUT', `/object-storage/bucket/create/${encodeURIComponent(name)}`),
          'value_error',
          ['path', 'bucket'],
        );
      }
      await call('PUT', '/object-storage/bucket/create/empty.bucket');
      await control('POST', 'objects', { bucket: 'datasets-01', key: 'train/part-0001.parquet' });

      const list = await call('GET', '/object-storage/bucket/list');
      assert.equal(list.status, 200);
      assert.deepEqual(list.json.buckets, ['datasets-01', 'empty.bucket']);
      assert.match(list.json.message, /datasets-01\s+1\s/);

      const full = await call('DELETE', '/object-storage/bucket/delete/datasets-01');
      assert.equal(full.status, 409);
      assert.match(full.json.detail, /not empty/);
      const del = await call('DELETE', '/object-storage/bucket/delete/empty.bucket');
      assert.equal(del.status, 204);
      assert.equal(del.text, '');
      assert.equal((await call('DELETE', '/object-storage/bucket/delete/empty.bucket')).status, 404);
      assert.deepEqual((await call('GET', '/object-storage/bucket/list')).json.buckets, ['datasets-01']);
    });
  });

  describe('faults', () => {
    it('respond: the given status/body/headers for the next N calls, then the real handler', async () => {
      await control('POST', 'faults', {
        method: 'GET',
        path: '/cluster/list',
        times: 2,
        status: 503,
        body: { detail: 'maintenance' },
        headers: { 'Retry-After': '3' },
      });
      for (let i = 0; i < 2; i++) {
        const r = await call('GET', '/cluster/list');
        assert.equal(r.status, 503);
        assert.deepEqual(r.json, { detail: 'maintenance' });
        assert.equal(r.headers.get('retry-after'), '3');
      }
      assert.equal((await call('GET', '/cluster/list')).status, 200);
      assert.deepEqual((await control('GET', 'faults')).faults, []);
    });

    it('respond with rawBody and contentType; method filter; prefix paths with *', async () => {
      await control('POST', 'faults', {
        path: '/object-storage/*',
        status: 502,
        rawBody: '<html>Bad Gateway</html>',
        contentType: 'text/html',
      });
      await control('POST', 'faults', { method: 'POST', path: '/me', status: 500 });
      const r = await call('GET', '/object-storage/credentials');
      assert.equal(r.status, 502);
      assert.equal(r.text, '<html>Bad Gateway</html>');
      assert.equal(r.headers.get('content-type'), 'text/html');
      // Method filter: GET /me is not affected by the POST fault.
      assert.equal((await call('GET', '/me')).status, 200);
      const listed = (await control('GET', 'faults')).faults as Json[];
      assert.equal(listed.length, 1);
      await control('DELETE', `faults/${listed[0].id}`);
      assert.deepEqual((await control('GET', 'faults')).faults, []);
    });

    it('faults apply to unauthenticated calls too (they run before auth)', async () => {
      await control('POST', 'faults', { path: '/me', status: 429, body: { detail: 'slow down' } });
      const r = await call('GET', '/me', { token: null });
      assert.equal(r.status, 429);
    });

    it('drop: the socket is destroyed and the handler never runs', async () => {
      await control('POST', 'faults', { method: 'POST', path: '/cluster/create', action: 'drop' });
      const r = await rawCall('POST', '/cluster/create', { body: { instance_type: '1xH100' } });
      assert.ok('error' in r, JSON.stringify(r));
      assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 0);
      const [entry] = ((await control('GET', 'log')).entries as Json[]).filter(
        (e) => e.path === '/cluster/create',
      );
      assert.equal(entry.status, null);
      assert.equal(entry.fault, 'drop');
    });

    it('drop-after: the handler runs (the cluster IS created) but no answer arrives', async () => {
      await control('POST', 'faults', { method: 'POST', path: '/cluster/create', action: 'drop-after' });
      const r = await rawCall('POST', '/cluster/create', {
        body: { instance_type: '1xH100', tp_cluster_name: 'ghost' },
      });
      assert.ok('error' in r, JSON.stringify(r));
      const list = (await call('GET', '/cluster/list')).json.clusters as Json[];
      assert.deepEqual(
        list.map((c) => c.name),
        ['ghost'],
      );
      const [entry] = ((await control('GET', 'log')).entries as Json[]).filter(
        (e) => e.path === '/cluster/create',
      );
      assert.equal(entry.status, null);
      assert.equal(entry.user, 'usr_1');
      // A retry by the client now meets the duplicate name.
      assert.equal(
        (
          await call('POST', '/cluster/create', {
            body: { instance_type: '1xH100', tp_cluster_name: 'ghost' },
          })
        ).status,
        409,
      );
    });

    it('truncate: the real status with only the first part of the JSON body', async () => {
      await create({ tp_cluster_name: 'cut-me' });
      const whole = (await call('GET', '/cluster/list')).text;
      await control('POST', 'faults', { path: '/cluster/list', action: 'truncate' });
      const r = await call('GET', '/cluster/list');
      assert.equal(r.status, 200);
      assert.ok(r.text.length > 0 && r.text.length < whole.length);
      assert.ok(whole.startsWith(r.text));
      assert.throws(() => JSON.parse(r.text));
      const entry = ((await control('GET', 'log')).entries as Json[])
        .filter((e) => e.path === '/cluster/list')
        .at(-1)!;
      assert.equal(entry.status, 200);
      assert.equal(entry.fault, 'truncate');
    });

    it('hang: no answer until the client gives up', async () => {
      await control('POST', 'faults', { path: '/me', action: 'hang' });
      const t0 = Date.now();
      const r = await rawCall('GET', '/me', { timeoutMs: 300 });
      assert.ok('error' in r && /client timeout/.test(r.error), JSON.stringify(r));
      assert.ok(Date.now() - t0 >= 290);
      const ac = new AbortController();
      await control('POST', 'faults', { path: '/me', action: 'hang' });
      setTimeout(() => ac.abort(), 100);
      await assert.rejects(
        fetch(`${engine.url}/me`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: ac.signal }),
      );
    });

    it('delayMs: waits, then handles normally (or applies the action)', async () => {
      await control('POST', 'faults', { path: '/me', delayMs: 200 });
      let t0 = Date.now();
      const r = await call('GET', '/me');
      assert.equal(r.status, 200);
      assert.ok(Date.now() - t0 >= 190);
      await control('POST', 'faults', { path: '/me', delayMs: 150, status: 504 });
      t0 = Date.now();
      assert.equal((await call('GET', '/me')).status, 504);
      assert.ok(Date.now() - t0 >= 140);
    });

    it('times: -1 applies until removed; bad fault specs are 400', async () => {
      await control('POST', 'faults', { path: '/me', times: -1, status: 500 });
      for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/me')).status, 500);
      await control('DELETE', 'faults');
      assert.equal((await call('GET', '/me')).status, 200);
      for (const spec of [
        {},
        { path: 'no-slash' },
        { path: '/me', action: 'explode' },
        { path: '/me', times: 0 },
        { path: '/me', status: 42 },
        { path: '/me', bogus: 1 },
      ]) {
        const res = await fetch(`${engine.url}/_engine/faults`, {
          method: 'POST',
          body: JSON.stringify(spec),
        });
        assert.equal(res.status, 400, JSON.stringify(spec));
        assert.equal(typeof ((await res.json()) as Json).error, 'string');
      }
    });
  });

  describe('request log', () => {
    it('records method, path, query, body, status, user, redacted authorization and user agent', async () => {
      await call('POST', '/cluster/create', {
        body: { instance_type: '2xH100', tp_cluster_name: 'logged' },
        headers: { 'user-agent': 'unit-test/1.0' },
      });
      await call('GET', '/cluster/list?include_org=true&instances=true');
      await call('GET', '/me', { token: null });
      await control('GET', 'state'); // control calls are never logged
      const entries = (await control('GET', 'log')).entries as Json[];
      assert.deepEqual(
        entries.map((e) => `${e.method} ${e.path} ${e.status}`),
        ['POST /cluster/create 202', 'GET /cluster/list 200', 'GET /me 401'],
      );
      const [post, list, anon] = entries;
      assert.deepEqual(post.body, { instance_type: '2xH100', tp_cluster_name: 'logged' });
      assert.equal(post.rawBody, JSON.stringify({ instance_type: '2xH100', tp_cluster_name: 'logged' }));
      assert.equal(post.user, 'usr_1');
      assert.equal(post.authorization, 'Bearer [redacted]');
      assert.equal(post.userAgent, 'unit-test/1.0');
      assert.equal(typeof post.seq, 'number');
      assert.ok(!Number.isNaN(Date.parse(post.time)));
      assert.deepEqual(list.query, { include_org: 'true', instances: 'true' });
      assert.equal(list.body, null);
      assert.equal(anon.user, null);
      assert.equal(anon.authorization, null);
      const since = (await control('GET', `log?since=${post.seq}`)).entries as Json[];
      assert.equal(since.length, 2);
      await control('DELETE', 'log');
      assert.deepEqual((await control('GET', 'log')).entries, []);
    });

    it('no token string ever appears in the log, wherever the caller put it', async () => {
      await call('GET', '/me');
      await call('GET', '/me', { token: TOKEN2 });
      await call('GET', '/me', { token: RO_TOKEN });
      await call('GET', '/me', { token: UNKNOWN_TOKEN });
      await call('GET', '/me', { token: null, headers: { authorization: `Token ${UNKNOWN_TOKEN}x` } });
      // The official CLI's old health check sent the key in the body.
      await call('POST', '/health', { token: null, body: { key: TOKEN, package_version: '1.0' } });
      await call('GET', `/cluster/list?leak=${TOKEN2}`);
      await call('POST', '/cluster/create', { raw: `{"instance_type": "${RO_TOKEN}"` });
      await control('POST', 'faults', { path: '/me', action: 'drop' });
      await rawCall('GET', '/me');
      const text = JSON.stringify(await control('GET', 'log'));
      for (const secret of [TOKEN, TOKEN2, RO_TOKEN, UNKNOWN_TOKEN])
        assert.ok(!text.includes(secret), `log leaks ${secret}`);
      assert.ok(text.includes('[redacted]'));
      const entries = (await control('GET', 'log')).entries as Json[];
      assert.equal(entries.length, 9);
      assert.deepEqual(entries.find((e) => e.path === '/health')!.body, {
        key: '[redacted]',
        package_version: '1.0',
      });
      // Nor in the state dump.
      const state = JSON.stringify(await control('GET', 'state'));
      for (const secret of [TOKEN, TOKEN2, RO_TOKEN]) assert.ok(!state.includes(secret));
    });
  });

  describe('control surface', () => {
    it('config: partial updates, unknown fields and bad values are 400', async () => {
      const c = (await control('POST', 'config', { failCreates: 2, listMode: 'text' })).config;
      assert.equal(c.failCreates, 2);
      assert.equal(c.listMode, 'text');
      assert.equal(c.pendingMs, 30, 'other fields keep their values');
      for (const bad of [{ failCreate: 1 }, { pendingMs: -1 }, { stuck: 'yes' }, { listMode: 'xml' }]) {
        const res = await fetch(`${engine.url}/_engine/config`, {
          method: 'POST',
          body: JSON.stringify(bad),
        });
        assert.equal(res.status, 400, JSON.stringify(bad));
      }
      await control('POST', 'reset', {});
      assert.equal(
        (await control('GET', 'config')).config.failCreates,
        0,
        'reset restores the start-up config',
      );
    });

    it('reset clears state, log and faults', async () => {
      await create();
      await control('POST', 'faults', { path: '/me', status: 500 });
      await control('POST', 'reset', {});
      assert.deepEqual((await control('GET', 'log')).entries, []);
      assert.deepEqual((await control('GET', 'faults')).faults, []);
      assert.equal((await call('GET', '/cluster/list?include_org=true')).json.clusters.length, 0);
      assert.equal((await call('GET', '/me')).status, 200);
    });

    it("reset {seed: 'demo'}: the demo clusters, a teammate's cluster for include_org, storage disabled", async () => {
      await control('POST', 'reset', { seed: 'demo' });
      const own = (await call('GET', '/cluster/list?instances=true')).json.clusters as Json[];
      const big = own.find((c) => c.instance_type === '8xH100' && c.num_nodes === 2)!;
      assert.ok(big, 'a 2-node 8xH100');
      assert.equal(big.status, 'RUNNING');
      assert.equal(big.deletion_protection, true);
      assert.ok(own.some((c) => c.instance_type === '1xH100' && c.status === 'RUNNING'));
      assert.ok(own.some((c) => c.status === 'FAILED'));
      const provisioning = own.find((c) => c.status === 'PENDING' || c.status === 'PROVISIONING')!;
      assert.ok(provisioning, 'one cluster is provisioning');
      const org = (await call('GET', '/cluster/list?include_org=true')).json.clusters as Json[];
      assert.equal(org.length, own.length + 1);
      assert.ok(org.some((c) => c.owner_email === 'teammate@tensorpool.local'));
      assert.equal((await call('GET', '/object-storage/credentials')).status, 404);
      // The provisioning cluster completes after the configured durations.
      const ops = (await call('GET', `/cluster/operations/${provisioning.id}`)).json.operations as Json[];
      await waitRequest(ops[0].request_id, 'COMPLETED');
      assert.equal((await call('GET', `/cluster/info/${provisioning.id}`)).json.status, 'RUNNING');
      // The failed one explains why.
      const failed = own.find((c) => c.status === 'FAILED')!;
      const fops = (await call('GET', `/cluster/operations/${failed.id}`)).json.operations as Json[];
      assert.equal(fops[0].status, 'FAILED');
      assert.equal(typeof fops[0].external_message, 'string');
    });

    it('state dump shows clusters, requests and config', async () => {
      const c = await create({ tp_cluster_name: 'dumped' });
      const s = await control('GET', 'state');
      assert.equal(s.clusters[0].id, c.cluster_id);
      assert.deepEqual(s.clusters[0].request_ids, [c.request_id]);
      assert.equal(s.requests[0].request_id, c.request_id);
      assert.equal(s.config.pendingMs, 30);
      assert.ok((s.users as Json[]).some((u) => u.uid === 'usr_1' && u.readonly === false));
      assert.equal(s.object_storage, null);
    });

    it('objects: 404 for an unknown bucket', async () => {
      await call('POST', '/object-storage/enable');
      const res = await fetch(`${engine.url}/_engine/objects`, {
        method: 'POST',
        body: JSON.stringify({ bucket: 'nope', key: 'k' }),
      });
      assert.equal(res.status, 404);
    });

    it('bulk seed of 10,000 running clusters; listing them stays fast', async () => {
      let t0 = Date.now();
      const seeded = await control('POST', 'seed', { clusters: 10_000 });
      const seedMs = Date.now() - t0;
      assert.equal(seeded.created, 10_000);
      assert.equal(seeded.owner, 'usr_1');
      t0 = Date.now();
      const r = await call('GET', '/cluster/list?include_org=true&instances=true');
      const listMs = Date.now() - t0;
      assert.equal(r.status, 200);
      assert.equal(r.json.clusters.length, 10_000);
      assert.ok(
        (r.json.clusters as Json[]).every((c) => c.status === 'RUNNING' && c.instances[0].ip !== null),
      );
      assert.equal(r.json.message.split('\n').filter((l: string) => /^c-/.test(l)).length, 10_000);
      // About 100 ms on an idle machine; the bounds leave room for a busy 2-core CI runner.
      assert.ok(listMs < 3000, `list took ${listMs} ms`);
      assert.ok(seedMs < 4000, `seed took ${seedMs} ms`);
      // Names continue without clashing; another user's seed is theirs.
      assert.equal(
        (await control('POST', 'seed', { clusters: 5, token: TOKEN2, prefix: 'other' })).owner,
        'usr_2',
      );
      assert.equal((await call('GET', '/cluster/list', { token: TOKEN2 })).json.clusters.length, 5);
      assert.equal((await control('POST', 'seed', { clusters: 3 })).created, 3);
      assert.equal((await call('GET', '/cluster/info/bulk-10003')).status, 200);
    });
  });

  describe('CLI (dist/engine.js)', () => {
    const main = path.resolve(__dirname, '../../../dist/engine.js');

    it('prints the ready line and the token, answers, and exits cleanly on SIGTERM', async function () {
      assert.ok(existsSync(main), `${main} is missing: run npm run build first (npm test does)`);
      const child = spawn(process.execPath, [main, '--port', '0', '--seed', 'demo', '--pending-ms', '10'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        await until(
          'ready line',
          async () => out,
          (o) => /Development token/.test(o),
          10_000,
        );
        const m = /^TensorPool local engine listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
        assert.ok(m, out);
        assert.equal(out.match(/listening on/g)!.length, 1, 'exactly one ready line');
        assert.match(out, /tp_local_dev_token/);
        const res = await fetch(`${m[1]}/cluster/list`, {
          headers: { authorization: 'Bearer tp_local_dev_token' },
        });
        assert.equal(res.status, 200);
        assert.equal((((await res.json()) as Json).clusters as Json[]).length, 4);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0);
    });

    it('rejects bad arguments with exit code 2', async function () {
      assert.ok(existsSync(main), `${main} is missing: run npm run build first (npm test does)`);
      const child = spawn(process.execPath, [main, '--seed', 'lots'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 2);
      assert.match(err, /--seed/);
    });
  });
});
