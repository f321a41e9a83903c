/**
 * What a confirmation dialog may show of a credential: key names decide what is secret, so a
 * preview can never print a secret it was not told about. Secret values are shown masked by the
 * one masking rule (src/model/mask.ts).
 */
import { maskSecret } from '../model/mask';

const SECRET_KEY = /secret|token|password|passwd|credential/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** The value as a preview may show it. */
export function displayValue(key: string, value: string): string {
  return isSecretKey(key) ? maskSecret(value) : value;
}
