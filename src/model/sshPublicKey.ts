/**
 * SSH public keys as the user hands them to the extension (a `.pub` file, a pasted line): checked
 * before anything is sent, with a specific refusal for a private key pasted by mistake, and the
 * SHA256 fingerprint `ssh-keygen -l` prints. No `vscode` import; the key text is never logged here.
 */
import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import { validatePublicKey } from './validate';

export interface PublicKey {
  /** `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`, ... */
  readonly type: string;
  /** The base64 key blob. */
  readonly body: string;
  readonly comment: string | undefined;
  /** `SHA256:<unpadded base64>`, as `ssh-keygen -l` shows it. */
  readonly fingerprint: string;
  /** The normalised one-line key (`type body [comment]`), what is sent to the service. */
  readonly line: string;
}

export type ParsedPublicKey = { ok: true; key: PublicKey } | { ok: false; message: string };

export const PRIVATE_KEY_MESSAGE = (): string =>
  l10n.t(
    'This is a PRIVATE key: it was not sent anywhere. Never share it; use the public key instead (the matching .pub file, one line starting with "ssh-ed25519", "ssh-rsa" or "ecdsa-sha2-…").',
  );

/** PEM / OpenSSH / PuTTY private key material anywhere in the text. */
export function looksLikePrivateKey(text: string): boolean {
  return (
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/.test(text) ||
    /PuTTY-User-Key-File-\d/.test(text) ||
    // The base64 of "openssh-key-v1\0", how an OpenSSH private key body starts when the armour is lost.
    /b3BlbnNzaC1rZXktdjEA/.test(text)
  );
}

/** SHA256 fingerprint of a base64 key blob, in ssh-keygen's format. */
function fingerprintOf(body: string): string {
  const digest = createHash('sha256').update(Buffer.from(body, 'base64')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

/** Whether the blob itself starts with its declared type (length-prefixed), as every OpenSSH key does. */
function blobMatchesType(body: string, type: string): boolean {
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length < 4 + type.length) return false;
  const len = bytes.readUInt32BE(0);
  return len === type.length && bytes.subarray(4, 4 + len).toString('latin1') === type;
}

export function parsePublicKey(text: string): ParsedPublicKey {
  if (looksLikePrivateKey(text)) return { ok: false, message: PRIVATE_KEY_MESSAGE() };
  const trimmed = text.trim();
  // Tabs or several spaces between the parts are harmless; line breaks inside the key are not.
  const line = /[\r\n]/.test(trimmed) ? trimmed : trimmed.split(/[ \t]+/).join(' ');
  const problem = validatePublicKey(line);
  if (problem) return { ok: false, message: problem };
  const [type, body, ...rest] = line.split(' ');
  if (!blobMatchesType(body, type)) {
    return {
      ok: false,
      message: l10n.t(
        'The key data does not belong to a {0} key; copy the whole line from the .pub file again.',
        type,
      ),
    };
  }
  const comment = rest.join(' ') || undefined;
  return { ok: true, key: { type, body, comment, fingerprint: fingerprintOf(body), line } };
}

/** A short label for pickers: `ssh-ed25519 SHA256:abc…`. */
export function describePublicKey(key: PublicKey): string {
  return `${key.type} ${key.fingerprint}`;
}
