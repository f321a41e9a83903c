/**
 * Reading what the server said: a 2xx body checked against its schema, and the pieces of an error
 * body (the message under whichever member the server used, FastAPI's per-field details, a short
 * plain-text or HTML snippet). Everything that can end up in a message is redacted first.
 */
import type * as z from 'zod/mini';
import * as l10n from '@vscode/l10n';
import { BadResponseError, type ErrorContext, type FieldError } from './errors';
import type { SecretRegistry } from './redact';

/** What parsing a success needs to know of the call. */
export interface Expected<T> {
  readonly method: string;
  readonly path: string;
  /** How to read a 2xx body; `null` means no body is expected (204 and friends). */
  readonly schema: z.ZodMiniType<T> | null;
}

export function parseSuccess<T>(
  call: Expected<T>,
  text: string,
  ctx: ErrorContext,
  secrets: SecretRegistry,
): T {
  if (call.schema === null) return undefined as T;
  if (text.trim() === '') {
    throw new BadResponseError(
      l10n.t('The server answered {0} with an empty body where data was expected.', String(ctx.status)),
      ctx,
      '',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const s = snippet(secrets.redact(text));
    throw new BadResponseError(
      l10n.t('The server answered {0} with something that is not JSON: {1}', String(ctx.status), s),
      ctx,
      s,
    );
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`)
      .join('; ');
    const s = snippet(secrets.redact(text));
    throw new BadResponseError(
      l10n.t("The server's answer to {0} {1} has an unexpected shape ({2}).", call.method, call.path, where),
      ctx,
      s,
    );
  }
  return parsed.data;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error text, from whichever member the server used: message, error, detail (string), external_message. */
export function serverMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object')
    return typeof body === 'string' && body.trim() ? body.trim() : undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail', 'external_message'] as const) {
    const v = b[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const nested = serverMessage(v);
      if (nested) return nested;
    }
  }
  return undefined;
}

/** FastAPI's `detail: [{loc: ["body", "num_nodes"], msg, type}]` as per-field messages. */
export function detailToFieldErrors(detail: unknown[]): FieldError[] {
  const out: FieldError[] = [];
  for (const d of detail) {
    if (!d || typeof d !== 'object') continue;
    const item = d as { loc?: unknown; msg?: unknown };
    const loc = Array.isArray(item.loc)
      ? item.loc.filter((p) => p !== 'body' && p !== 'query' && p !== 'path')
      : [];
    const field = loc.length ? String(loc[0]) : '';
    out.push({ field, message: typeof item.msg === 'string' ? item.msg : l10n.t('Invalid value.') });
  }
  return out;
}

/** A plain-text or HTML error body as one short line (an HTML page by its title when it has one). */
export function textSnippet(text: string, contentType: string | undefined): string {
  if (/html/i.test(contentType ?? '') || /^\s*</.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    const plain = text
      .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
      .replace(/<[^>]+>/g, ' ');
    return snippet(title || plain, 120);
  }
  return snippet(text, 200);
}

/** Whitespace folded, at most `max` characters (an ellipsis marks the cut). */
export function snippet(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
