// One accepted job WebSocket (engine/jobSockets.ts): the messages received, in order, each logged
// (method `WS`, the token redacted); sends that go through the socket's fault (terminate / close / slow);
// the first-message authentication.

import type { Duplex } from 'node:stream';
import type { WebSocket, RawData } from 'ws';
import type { EngineCore } from './core';
import type { Fault } from './faults';
import { redactor, type LogEntry } from './log';
import type { User } from './types';

const AUTH_TIMEOUT_MS = 10_000;
export const ANSWER_TIMEOUT_MS = 60_000;

export type Timers = Set<NodeJS.Timeout>;

/** One accepted socket: received messages in order, sends through the fault, logging. */
export class Session {
  private readonly inbox: unknown[] = [];
  private waiter: ((v: unknown) => void) | undefined;
  private sent = 0;
  /** Corked by corked() (undefined otherwise). */
  private cork: Duplex | undefined;
  ended = false;
  private secrets: string[];

  constructor(
    private readonly core: EngineCore,
    readonly ws: WebSocket,
    private readonly path: string,
    private readonly fault: Fault | undefined,
    private readonly timers: Timers,
    /** The upgraded connection under `ws` (corked around a run of sends). */
    private readonly socket?: Duplex,
  ) {
    this.secrets = core.secrets();
    ws.on('message', (data: RawData) => this.receive(data.toString()));
    ws.on('close', (code: number, reason: Buffer) => {
      if (!this.ended) this.log('close', null, code, { reason: reason.toString(), by: 'client' });
      this.ended = true;
      this.waiter?.(undefined);
    });
    ws.on('error', () => undefined);
  }

  private receive(raw: string): void {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    const key = (body as { TENSORPOOL_KEY?: unknown } | null)?.TENSORPOOL_KEY;
    if (typeof key === 'string' && key.trim()) this.secrets = [...this.secrets, key.trim()];
    this.log('message', raw, null);
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(body);
    } else this.inbox.push(body);
  }

  log(kind: 'message' | 'close', raw: string | null, status: number | null, body?: unknown): LogEntry {
    const redact = redactor(this.secrets);
    const rawBody = raw === null ? null : redact(raw);
    let parsed: unknown = body ?? null;
    if (rawBody !== null) {
      try {
        parsed = JSON.parse(rawBody);
      } catch {
        parsed = null;
      }
    }
    return this.core.log.add({
      ...baseEntry(this.path),
      ...{ body: parsed, rawBody, status, ws: kind, fault: this.fault?.action ?? null },
    });
  }

  /** The next message (parsed JSON, null when not JSON), or undefined after `ms` or a close. */
  next(ms: number): Promise<unknown> {
    if (this.inbox.length) return Promise.resolve(this.inbox.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.waiter = undefined;
        resolve(undefined);
      }, ms);
      this.timers.add(t);
      this.waiter = (v) => {
        clearTimeout(t);
        this.timers.delete(t);
        resolve(v);
      };
    });
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  /** Send one JSON message; false when the connection is gone (or a fault just ended it). */
  async out(obj: Record<string, unknown>): Promise<boolean> {
    if (this.ended) return false;
    const f = this.fault;
    if (f?.action === 'slow' && f.delayMs > 0) await this.sleep(f.delayMs);
    if (f && this.sent >= f.afterMessages && (f.action === 'terminate' || f.action === 'close')) {
      this.cork?.uncork(); // the messages before the fault leave first
      if (f.action === 'terminate') {
        this.log('close', null, 1006, { reason: '', by: 'fault' });
        this.ended = true;
        this.ws.terminate();
      } else this.close(f.closeCode, f.reason);
      return false;
    }
    if (this.ended) return false;
    this.sent++;
    this.ws.send(JSON.stringify(obj));
    if (this.ws.bufferedAmount > 4 << 20) this.cork?.uncork(); // let what waits go, then wait for it
    while (this.ws.bufferedAmount > 4 << 20 && !this.ended) await this.sleep(5);
    return !this.ended;
  }

  /**
   * Sends made while `fn` runs leave in one write (the socket corked until it settles), not one write per
   * message: a job printing lines as fast as it can costs the engine a write per batch, as a server would.
   */
  async corked<T>(fn: () => Promise<T>): Promise<T> {
    // A `slow` fault sends each message on its own, late.
    const socket = this.fault?.action === 'slow' ? undefined : this.socket;
    socket?.cork();
    this.cork = socket;
    try {
      return await fn();
    } finally {
      this.cork = undefined;
      socket?.uncork();
    }
  }

  close(code: number, reason: string): void {
    if (this.ended) return;
    const cut = Buffer.from(reason)
      .subarray(0, 123)
      .toString()
      .replace(/\uFFFD$/, '');
    this.log('close', null, code, { reason: cut, by: 'server' });
    this.ended = true;
    this.ws.close(code, cut);
  }

  /** The first message must be {"TENSORPOOL_KEY": token}; refusals close 1008 with the reason. */
  async authenticate(): Promise<User | undefined> {
    const first = await this.next(AUTH_TIMEOUT_MS);
    if (this.ended) return undefined;
    const key = (first as { TENSORPOOL_KEY?: unknown } | null | undefined)?.TENSORPOOL_KEY;
    if (first === undefined)
      this.close(1008, 'Authentication timed out: send {"TENSORPOOL_KEY": "<API key>"} first');
    else if (typeof key !== 'string' || !key.trim())
      this.close(1008, 'Missing TENSORPOOL_KEY: the first message must be {"TENSORPOOL_KEY": "<API key>"}');
    else {
      const user = this.core.state.identity.userForToken(key.trim());
      if (user) return user;
      this.close(1008, 'Invalid API key');
    }
    return undefined;
  }
}

export function baseEntry(path: string): Omit<LogEntry, 'seq'> {
  return {
    time: new Date().toISOString(),
    method: 'WS',
    path,
    query: {},
    body: null,
    rawBody: null,
    status: null,
    user: null,
    authorization: null,
    userAgent: null,
    clientType: null,
    fault: null,
  };
}
