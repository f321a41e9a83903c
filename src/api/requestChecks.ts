/**
 * The checks every API method makes before anything is sent: a required id, and a request body against
 * its schema. A failure is a local ValidationError naming each field. Used by the client and its parts
 * (jobs.ts, volumes.ts), which client.ts imports: kept apart so the API layer has no import circle.
 */
import type * as z from 'zod/mini';
import * as l10n from '@vscode/l10n';
import { ValidationError, type FieldError } from './errors';

export function localError(method: string, path: string, fieldErrors: FieldError[]): ValidationError {
  const message = fieldErrors.map((f) => f.message).join(' ');
  return new ValidationError(message, { method, path }, fieldErrors, true);
}

export function requireId(value: string, field: string, method: string, path: string): void {
  if (typeof value !== 'string' || value.trim() === '') {
    throw localError(method, path, [{ field, message: l10n.t('{0} is required.', field) }]);
  }
}

/** Validate a request body; on failure throw a local ValidationError naming each field. */
export function checkRequest<T>(schema: z.ZodMiniType<T>, input: unknown, method: string, path: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors: FieldError[] = parsed.error.issues.map((issue) => ({
    field: issue.path.length ? String(issue.path[0]) : '',
    message:
      issue.code === 'unrecognized_keys'
        ? l10n.t('Unknown field(s): {0}.', String((issue as { keys?: string[] }).keys?.join(', ')))
        : issue.message === 'Invalid input'
          ? l10n.t('{0} is invalid.', issue.path.join('.') || 'body')
          : issue.message,
  }));
  throw localError(method, path, fieldErrors);
}
