// The request log behind GET /_engine/log: every call to the public routes (faulted ones included,
// control calls never), with its body, the user it resolved to and the status actually sent
// (null when nothing was sent: drop, drop-after, hang, or still in progress).
//
// Secrets never enter the log: the Authorization header is reduced to `Bearer [redacted]`, and every
// known token, plus whatever credential the caller presented, is replaced by `[redacted]` wherever
// else it appears (path, query, body: the official CLI once sent its key inside JSON bodies).

export interface LogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body, or null when empty / not JSON. */
  body: unknown;
  /** The body text as received (redacted), or null when empty. */
  rawBody: string | null;
  status: number | null;
  /** uid of the authenticated caller, null when unauthenticated. */
  user: string | null;
  authorization: string | null;
  userAgent: string | null;
  /** The X-Client-Type header (the official CLI sends `cli`), null when absent. */
  clientType: string | null;
  /** The fault action applied to this call, if any. */
  fault: string | null;
  /** WebSocket events (method `WS`): the upgrade (with `url`), each message received, the close
   *  (`status` = close code, body {reason, by}). Absent for plain HTTP calls. */
  ws?: 'upgrade' | 'message' | 'close';
  /** The upgrade's request URL (path and query, redacted). */
  url?: string;
}

const REDACTED = '[redacted]';

/** Oldest entries are dropped beyond this, so a long-running dev engine does not grow forever. */
const MAX_ENTRIES = 10_000;

export class RequestLog {
  private entries: LogEntry[] = [];
  private seq = 0;

  /** Record a call. The entry object stays live: the server fills in `status` and `user` later. */
  add(entry: Omit<LogEntry, 'seq'>): LogEntry {
    const e: LogEntry = { seq: ++this.seq, ...entry };
    this.entries.push(e);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    return e;
  }

  list(since = 0): LogEntry[] {
    return since > 0 ? this.entries.filter((e) => e.seq > since) : this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}

/** A function that blanks every given secret (and its JSON-escaped form) out of a string. */
export function redactor(secrets: Iterable<string>): (text: string) => string {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length < 4) continue; // a one-letter "token" would blank out everything
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  const list = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const f of list) if (out.includes(f)) out = out.split(f).join(REDACTED);
    return out;
  };
}

/** `Bearer [redacted]` for a bearer credential, `[redacted]` for anything else, null when absent. */
export function redactAuthorization(header: string | undefined): string | null {
  if (header === undefined) return null;
  return /^\s*bearer\b/i.test(header) ? `Bearer ${REDACTED}` : REDACTED;
}
