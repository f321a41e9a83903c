/**
 * An HTTP error status and its body as the typed error the UI acts on: 401 token rejected, 403,
 * 404, 409, 400/422 with per-field messages, 429 with when to try again, 5xx. The server's own
 * words are used when it gave any, redacted.
 */
import * as l10n from '@vscode/l10n';
import {
  BadResponseError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ValidationError,
  type ErrorContext,
  type TensorPoolError,
} from './errors';
import { detailToFieldErrors, parseJson, serverMessage, snippet, textSnippet } from './parse';
import type { SecretRegistry } from './redact';

export interface ErrorAnswer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string | undefined;
  readonly retryAfterMs: number | undefined;
}

export function statusError(
  answer: ErrorAnswer,
  ctx: ErrorContext,
  secrets: SecretRegistry,
): TensorPoolError {
  const { status, text, retryAfterMs } = answer;
  const body = parseJson(text);
  const detail = body && typeof body === 'object' ? (body as Record<string, unknown>).detail : undefined;
  // Field messages reach the UI on their own (the wizard shows them at their step): mask them too.
  const fieldErrors = Array.isArray(detail)
    ? detailToFieldErrors(detail).map((f) => ({ ...f, message: secrets.redact(f.message) }))
    : [];
  let message = serverMessage(body);
  if (message === undefined && fieldErrors.length)
    message = fieldErrors.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ');
  // Mask before shortening: a secret cut in half by the snippet would no longer be recognised.
  if (message === undefined && text.trim() !== '' && body === undefined)
    message = textSnippet(secrets.redact(text), answer.contentType);
  const said = message !== undefined ? secrets.redact(message) : undefined;
  switch (status) {
    case 401:
      return new UnauthorizedError(said ?? l10n.t('The API token is missing, invalid or revoked.'), ctx);
    case 403:
      return new ForbiddenError(said ?? l10n.t('This token is not allowed to do that.'), ctx);
    case 404:
      return new NotFoundError(said ?? l10n.t('Not found: {0}.', ctx.path), ctx);
    case 409:
      return new ConflictError(said ?? l10n.t('The request conflicts with the current state.'), ctx);
    case 400:
    case 422:
      return new ValidationError(
        said ?? l10n.t('The server rejected the request as invalid.'),
        ctx,
        fieldErrors,
        false,
      );
    case 429: {
      const seconds = retryAfterMs !== undefined ? Math.ceil(retryAfterMs / 1000) : undefined;
      const what = said?.replace(/\.$/, '');
      const message =
        what === undefined
          ? seconds !== undefined
            ? l10n.t('Too many requests. Try again in {0} s.', seconds)
            : l10n.t('Too many requests. Try again shortly.')
          : seconds !== undefined
            ? l10n.t('{0}. Try again in {1} s.', what, seconds)
            : l10n.t('{0}. Try again shortly.', what);
      return new RateLimitedError(message, ctx, retryAfterMs);
    }
    default:
      if (status >= 500)
        return new ServerError(
          said !== undefined
            ? l10n.t('{0} (HTTP {1}).', said, status)
            : l10n.t('The TensorPool service had an internal error (HTTP {0}).', status),
          ctx,
        );
      return new BadResponseError(
        said ? l10n.t('Unexpected HTTP {0}: {1}.', status, said) : l10n.t('Unexpected HTTP {0}.', status),
        ctx,
        snippet(secrets.redact(text)),
      );
  }
}
