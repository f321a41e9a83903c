// Fault injection for tests (POST /_engine/faults). A fault matches method + path (exact, or a prefix
// when the path ends in `*`) and applies to the next `times` matching calls (-1: until removed).
//
//   respond     answer with status/body/rawBody/contentType/headers instead of the real handler
//   drop        destroy the socket without running the handler (nothing happened server-side)
//   drop-after  run the real handler (its state changes happen!) and destroy the socket unanswered
//   truncate    run the handler; send its status and headers, but only the first half of the body
//   hang        never answer; the socket stays open until the client gives up (or the engine closes)
//   delay       just wait delayMs, then handle normally
// `delayMs` applies before any action. Without `action`: respond if status/body/rawBody is given,
// delay if only delayMs is, otherwise respond 500.

import { hex } from './ids';

// On a WebSocket (method `WS`, path /job/push or /job/listen/*), counting the messages the server sends:
//   terminate   after `afterMessages` messages, kill the TCP connection (the client sees 1006)
//   close       after `afterMessages` messages, close with `closeCode` (default 4000) and `reason`
//   slow        wait `delayMs` before every message (a slow stream)
//   silent      accept the connection, then never send a message nor answer a ping (a dead peer)
// and before the upgrade: respond (answer the upgrade request with `status`: the socket is refused),
// drop (destroy the TCP connection unanswered).
export const FAULT_ACTIONS = [
  'respond',
  'drop',
  'drop-after',
  'truncate',
  'hang',
  'delay',
  'terminate',
  'close',
  'slow',
  'silent',
] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

export interface Fault {
  id: string;
  method: string | null;
  path: string;
  /** Calls left; -1 = unlimited. */
  remaining: number;
  action: FaultAction;
  status: number;
  body: unknown;
  rawBody: string | null;
  contentType: string;
  headers: Record<string, string>;
  delayMs: number;
  /** How many calls it has applied to so far. */
  hits: number;
  /** WebSocket faults: after how many server messages; the close code and reason. */
  afterMessages: number;
  closeCode: number;
  reason: string;
}

type Obj = Record<string, unknown>;

/** Validate a POST /_engine/faults body. Returns the fault or an error message (answered 400). */
export function parseFault(input: unknown): Fault | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return 'body must be a JSON object';
  const o = input as Obj;
  const known = new Set([
    'method',
    'path',
    'times',
    'action',
    'status',
    'body',
    'rawBody',
    'contentType',
    'headers',
    'delayMs',
    'afterMessages',
    'closeCode',
    'reason',
  ]);
  const unknown = Object.keys(o).filter((k) => !known.has(k));
  if (unknown.length) return `unknown field(s): ${unknown.join(', ')}`;
  if (typeof o.path !== 'string' || !o.path.startsWith('/')) return 'path must be a string starting with /';
  if (o.method !== undefined && typeof o.method !== 'string') return 'method must be a string';
  const times = o.times ?? 1;
  if (typeof times !== 'number' || !Number.isInteger(times) || (times < 1 && times !== -1))
    return 'times must be an integer >= 1, or -1 for unlimited';
  if (o.action !== undefined && !(FAULT_ACTIONS as readonly unknown[]).includes(o.action))
    return `action must be one of ${FAULT_ACTIONS.join(', ')}`;
  const status = o.status ?? 500;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    return 'status must be an integer HTTP status';
  if (o.rawBody !== undefined && typeof o.rawBody !== 'string') return 'rawBody must be a string';
  if (o.contentType !== undefined && typeof o.contentType !== 'string') return 'contentType must be a string';
  const delayMs = o.delayMs ?? 0;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0)
    return 'delayMs must be a number >= 0';
  const afterMessages = o.afterMessages ?? 0;
  if (typeof afterMessages !== 'number' || !Number.isInteger(afterMessages) || afterMessages < 0)
    return 'afterMessages must be an integer >= 0';
  const closeCode = o.closeCode ?? 4000;
  if (
    typeof closeCode !== 'number' ||
    !(
      closeCode === 1000 ||
      (closeCode >= 3000 && closeCode <= 4999) ||
      [1001, 1008, 1011].includes(closeCode)
    )
  )
    return 'closeCode must be 1000, 1001, 1008, 1011 or 3000..4999';
  if (o.reason !== undefined && (typeof o.reason !== 'string' || Buffer.byteLength(o.reason) > 123))
    return 'reason must be a string of at most 123 bytes';
  const headers: Record<string, string> = {};
  if (o.headers !== undefined) {
    if (typeof o.headers !== 'object' || o.headers === null || Array.isArray(o.headers))
      return 'headers must be an object';
    for (const [k, v] of Object.entries(o.headers as Obj)) {
      if (typeof v !== 'string' && typeof v !== 'number') return `header ${k} must be a string`;
      headers[k] = String(v);
    }
  }
  const answers = o.status !== undefined || o.body !== undefined || o.rawBody !== undefined;
  const action: FaultAction =
    (o.action as FaultAction | undefined) ?? (answers ? 'respond' : delayMs > 0 ? 'delay' : 'respond');
  return {
    id: `flt_${hex(4)}`,
    method: typeof o.method === 'string' ? o.method.toUpperCase() : null,
    path: o.path,
    remaining: times,
    action,
    status,
    body: o.body,
    rawBody: typeof o.rawBody === 'string' ? o.rawBody : null,
    contentType: typeof o.contentType === 'string' ? o.contentType : 'application/json',
    headers,
    delayMs,
    hits: 0,
    afterMessages,
    closeCode,
    reason: typeof o.reason === 'string' ? o.reason : '',
  };
}

export class FaultStore {
  private faults: Fault[] = [];

  add(f: Fault): void {
    this.faults.push(f);
  }

  list(): Fault[] {
    return this.faults;
  }

  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    return n;
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length !== before;
  }

  /** The first fault (in order of creation) matching this call; consumes one of its uses. */
  take(method: string, path: string): Fault | undefined {
    const f = this.faults.find(
      (x) => (x.method === null || x.method === method) && pathMatches(x.path, path),
    );
    if (!f) return undefined;
    f.hits++;
    if (f.remaining > 0 && --f.remaining === 0) this.remove(f.id);
    return f;
  }
}

function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}
