/**
 * What a confirmation dialog may show of a credential: secret values are reduced to their last
 * four characters (enough to tell two keys apart), short ones to nothing. Key names decide what
 * is secret, so a preview can never print a secret it was not told about.
 */

const SECRET_KEY = /secret|token|password|passwd|credential/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** `****wxyz` for values of 8 characters or more, `****` for shorter ones. */
export function maskSecret(value: string): string {
  return value.length >= 8 ? `****${value.slice(-4)}` : '****';
}

/** The value as a preview may show it. */
export function displayValue(key: string, value: string): string {
  return isSecretKey(key) ? maskSecret(value) : value;
}
