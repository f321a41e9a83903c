// Small HTTP vocabulary shared by the route handlers and the server. Handlers never touch the socket:
// they return a Reply, and the server decides how (or whether) to send it. That separation is what
// lets the fault injector run a real handler and then drop or truncate its answer.

export interface Reply {
  status: number;
  /** JSON-serialisable body; undefined = no body (204). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent verbatim instead of `body` (a file download: bytes), with contentType. */
  raw?: string | Buffer;
  contentType?: string;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

/** A refusal (404/409 and friends): FastAPI's HTTPException `detail`, plus `message`, which is what
 *  the official CLI reads first (then `error`, then `external_message`). */
export function detail(status: number, message: string): Reply {
  return { status, body: { detail: message, message } };
}

/** FastAPI's own answer for a path no route matches: `{"detail": "Not Found"}` and nothing else. */
export function routeNotFound(): Reply {
  return { status: 404, body: { detail: 'Not Found' } };
}

/** The auth error shape of the interface document (401/403): `{"error": "..."}`. */
export function authError(status: 401 | 403, message: string): Reply {
  const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  return { status, body: { error: message }, headers };
}

export function noContent(): Reply {
  return { status: 204 };
}

/** Serialise a reply body. Kept in one place so `truncate` faults cut exactly what would be sent. */
export function encodeBody(reply: Reply): string {
  return reply.body === undefined ? '' : JSON.stringify(reply.body);
}

/**
 * Parse a boolean query parameter the way FastAPI/pydantic does: true/false, 1/0, yes/no, on/off,
 * t/f, y/n, any case. The official client sends Python's `True` (requests stringifies the bool).
 * Returns undefined when absent, null when present but unreadable (the caller answers 422).
 */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined | null {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on', 't', 'y'].includes(v)) return true;
  if (['false', '0', 'no', 'off', 'f', 'n'].includes(v)) return false;
  return null;
}
