// Random ids, secrets and timestamps the engine's stores hand out, and the refusal shape they share.

import { randomBytes } from 'node:crypto';

export function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function randomKey(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Outcome of an operation that can be refused: ok with a value, or an HTTP-ish refusal. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; code: 404 | 409; message: string };

export const refuse = (
  code: 404 | 409,
  message: string,
): { ok: false; code: 404 | 409; message: string } => ({
  ok: false,
  code,
  message,
});
