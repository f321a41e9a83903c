/**
 * The typed error family the UI acts on. Every message is built from redacted text only; no error
 * holds a token, a header or a raw transport error (those can carry secrets). The messages carry the
 * service's words, which the UI shows in notifications: they hold no link VS Code would render (inertLinks).
 */
import { inertLinks } from '../model/shownText';

export type ApiErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'validation'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'bad-response'
  | 'cancelled';

export interface FieldError {
  /** The field name as the wire knows it (`num_nodes`), or '' when the problem is the whole body. */
  readonly field: string;
  readonly message: string;
}

export interface ErrorContext {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
}

export abstract class TensorPoolError extends Error {
  abstract readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;

  constructor(message: string, ctx: ErrorContext) {
    super(inertLinks(message));
    this.name = new.target.name;
    this.method = ctx.method;
    this.path = ctx.path;
    this.status = ctx.status;
  }

  /** Whether the server may have acted on the request (matters for create/edit/destroy). */
  get mayHaveReachedServer(): boolean {
    return true;
  }

  override toString(): string {
    return `${this.name}: ${this.message}`;
  }
}

/** 401: the token is missing, wrong or revoked. */
export class UnauthorizedError extends TensorPoolError {
  readonly kind = 'unauthorized' as const;
}

/** 403: the token is valid but may not do this. */
export class ForbiddenError extends TensorPoolError {
  readonly kind = 'forbidden' as const;
}

/** 422 from the server, or the same rules checked locally before anything was sent (`local`). */
export class ValidationError extends TensorPoolError {
  readonly kind = 'validation' as const;
  constructor(
    message: string,
    ctx: ErrorContext,
    fieldErrors: readonly FieldError[],
    readonly local: boolean,
  ) {
    super(message, ctx);
    this.fieldErrors = fieldErrors.map((f) => ({ ...f, message: inertLinks(f.message) }));
  }
  readonly fieldErrors: readonly FieldError[];
  override get mayHaveReachedServer(): boolean {
    return !this.local;
  }
  /** The message for one field, if the server or the local check named it. */
  messageFor(field: string): string | undefined {
    const found = this.fieldErrors.filter((e) => e.field === field).map((e) => e.message);
    return found.length ? found.join('; ') : undefined;
  }
}

export class NotFoundError extends TensorPoolError {
  readonly kind = 'not-found' as const;
}

export class ConflictError extends TensorPoolError {
  readonly kind = 'conflict' as const;
}

export class RateLimitedError extends TensorPoolError {
  readonly kind = 'rate-limited' as const;
  constructor(
    message: string,
    ctx: ErrorContext,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message, ctx);
  }
}

export class ServerError extends TensorPoolError {
  readonly kind = 'server' as const;
}

/**
 * The connection failed. `sent` says whether the request may have reached the server: false for
 * failures that happen before a byte is written (refused, DNS, connect timeout), true otherwise.
 */
export class NetworkError extends TensorPoolError {
  readonly kind = 'network' as const;
  constructor(
    message: string,
    ctx: ErrorContext,
    readonly code: string | undefined,
    readonly sent: boolean,
  ) {
    super(message, ctx);
  }
  override get mayHaveReachedServer(): boolean {
    return this.sent;
  }
}

export class TimeoutError extends TensorPoolError {
  readonly kind = 'timeout' as const;
  constructor(
    message: string,
    ctx: ErrorContext,
    readonly timeoutMs: number,
    readonly sent: boolean,
  ) {
    super(message, ctx);
  }
  override get mayHaveReachedServer(): boolean {
    return this.sent;
  }
}

/** The server answered something we cannot use: an unexpected status, non-JSON, or the wrong shape. */
export class BadResponseError extends TensorPoolError {
  readonly kind = 'bad-response' as const;
  constructor(
    message: string,
    ctx: ErrorContext,
    readonly snippet: string,
  ) {
    super(message, ctx);
  }
}

/** The caller aborted (AbortSignal). */
export class CancelledError extends TensorPoolError {
  readonly kind = 'cancelled' as const;
}

const KINDS: ReadonlySet<string> = new Set<ApiErrorKind>([
  'unauthorized',
  'forbidden',
  'validation',
  'not-found',
  'conflict',
  'rate-limited',
  'server',
  'network',
  'timeout',
  'bad-response',
  'cancelled',
]);

/**
 * Structural check rather than `instanceof`: the API layer is a separate lazily loaded bundle, so the
 * VS Code layer never shares class identities with it.
 */
export function isTensorPoolError(e: unknown): e is TensorPoolError {
  return e instanceof Error && KINDS.has((e as { kind?: unknown }).kind as string);
}

/** The text of anything thrown, for a message or a log line. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
