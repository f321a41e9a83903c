/**
 * The one rule for showing a secret (an object-storage secret key, a token) where the user needs
 * to recognise it but must not read it: four stars and the last four characters, enough to tell
 * two keys apart; a value shorter than eight characters shows nothing of itself. Used by the
 * config previews and by the VS Code views alike. (Redacting secrets out of log and error text is
 * a different job: src/api/redact.ts replaces them whole.)
 */

const MASK = '****';
/** Below this length, four characters would be half the secret or more. */
const MIN_REVEAL_LENGTH = 8;

/** `****wxyz` for values of 8 characters or more, `****` for shorter ones. */
export function maskSecret(value: string): string {
  return value.length >= MIN_REVEAL_LENGTH ? `${MASK}${value.slice(-4)}` : MASK;
}
