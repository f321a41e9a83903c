// The local engine's tests talk to it over real HTTP: the in-process engine each file starts with
// useEngine(), and the calls, waits and checks those files share.
import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as http from 'node:http';
import { startEngine, type RunningEngine } from '../../../engine/server';
import { EngineControl } from '../../shared/engineControl';
import { waitFor } from '../../shared/wait';

export const TOKEN = 'tp_unit_engine_token_aaaaaaaaaaaa';
export const TOKEN2 = 'tp_unit_engine_token_bbbbbbbbbbbb';
export const RO_TOKEN = 'tp_unit_engine_readonly_cccccccccc';
export const UNKNOWN_TOKEN = 'tp_unit_engine_unknown_dddddddddd';

// Test code reads arbitrary JSON answers; `any` keeps the assertions readable.
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

/** The engine the current file's `useEngine()` started (a live binding: read it inside tests). */
export let engine: RunningEngine;

export async function call(
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

/** The control surface (/_engine/*) of the engine the current file started. */
export const control = new EngineControl(() => engine.url);

/** A raw node:http call on a fresh connection: fault tests need to see resets and hangs as they are. */
export function rawCall(
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

/** Poll `get` every 10 ms until `ok` accepts its value (the engine's lifecycle moves in tens of ms). */
export function poll<T>(
  what: string,
  get: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 4000,
): Promise<T> {
  return waitFor(what, get, ok, timeoutMs, 10);
}

export async function create(body: Json = {}, token = TOKEN): Promise<Json> {
  const r = await call('POST', '/cluster/create', { token, body: { instance_type: '1xH100', ...body } });
  assert.equal(r.status, 202, r.text);
  return r.json;
}

export async function requestStatus(id: string): Promise<string> {
  return (await call('GET', `/request/info/${id}`)).json.status as string;
}

export async function waitRequest(id: string, status: string): Promise<void> {
  await poll(
    `request ${id} ${status}`,
    () => requestStatus(id),
    (s) => s === status,
  );
}

export function sshKey(comment = 'dev@laptop'): string {
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

export function assertIssue(r: Answer, type: string, loc: (string | number)[]): void {
  assert.equal(r.status, 422, r.text);
  assert.ok(Array.isArray(r.json.detail), 'detail is a list');
  const found = (r.json.detail as Json[]).find(
    (d) => d.type === type && JSON.stringify(d.loc) === JSON.stringify(loc),
  );
  assert.ok(found, `expected ${type} at ${JSON.stringify(loc)} in ${r.text}`);
  assert.equal(typeof found.msg, 'string');
  assert.ok('input' in found, 'pydantic issues carry the input');
}

/** Start an in-process engine for the enclosing describe() and reset its state before each test. */
export function useEngine(): void {
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
    await control.reset();
  });
}
