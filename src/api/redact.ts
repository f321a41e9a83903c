/**
 * Keeps secrets (the API token, object-storage secret keys) out of every string the extension
 * produces: log lines, error messages, thrown objects. Two layers:
 *  - exact values registered at run time (the token in use, the secret key just received), and
 *  - patterns that look like credentials even when we never saw the value (a `Bearer …` header
 *    echoed by a proxy, `aws_secret_access_key = …` in a config text, a JSON `secret_access_key`).
 * No dependencies: the activation bundle uses it for logging too.
 */

export const REDACTED = '[redacted]';

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/(Bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  // The closing quote is optional: an answer cut off inside the value must not leak the part that came.
  [
    /("(?:secret_access_key|secretAccessKey|SecretAccessKey|token|api_key|apiKey|password|TENSORPOOL_KEY|TENSORPOOL_API_KEY)"\s*:\s*")(?:[^"\\]|\\.)*("?)/g,
    `$1${REDACTED}$2`,
  ],
  [
    /((?:aws_secret_access_key|secret_access_key|AWS_SECRET_ACCESS_KEY|TENSORPOOL_KEY|TENSORPOOL_API_KEY|AWS_SESSION_TOKEN)\s*[=:]\s*)[^\s"',;]+/g,
    `$1${REDACTED}`,
  ],
  [/(Authorization:\s*)[^\r\n]+/gi, `$1${REDACTED}`],
];

export class SecretRegistry {
  private readonly values = new Set<string>();

  /** Remember a secret so any later occurrence is masked. Short strings are ignored (they would mask
   * ordinary words). */
  add(secret: string | undefined | null): void {
    if (secret && secret.length >= 6) this.values.add(secret);
  }

  delete(secret: string | undefined | null): void {
    if (secret) this.values.delete(secret);
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is masked whole.
    for (const s of [...this.values].sort((a, b) => b.length - a.length)) {
      if (out.includes(s)) out = out.split(s).join(REDACTED);
    }
    for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
    return out;
  }
}
