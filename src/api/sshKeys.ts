/**
 * Saved SSH keys (GET /user/ssh-key/list) and the health check (POST /health), read leniently: the
 * list's structure is undocumented ([cli] shows only its `message` text), so records are read under
 * the names seen and a text-only answer is kept as text. No `vscode` import.
 */
import { TensorPoolError } from './errors';
import { cell } from './normalizeText';
import type { LooseRecord, SshKeyListResponse } from './schemas';
import { recordsFromText, SSH_KEY_COLUMNS } from './textRecords';

export interface SavedSshKey {
  /** What DELETE /user/ssh-key/remove/{key_id} takes; undefined when the server did not say. */
  readonly id: string | undefined;
  readonly name: string;
  readonly type: string | undefined;
  readonly fingerprint: string | undefined;
  readonly createdAt: string | undefined;
  /** The owner's e-mail or uid, when the server gives one (organisation listings). */
  readonly owner: string | undefined;
  /** Read from the server's text table rather than structured fields (shown as such). */
  readonly fromText?: true;
}

export interface SshKeyListing {
  /** The structured keys, else those read from the text table; undefined when neither gave any. */
  readonly keys: SavedSshKey[] | undefined;
  readonly message: string | undefined;
  /** Rows of the text table that could not be read (kept as text). */
  readonly unreadRows?: string[];
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined;

function pick(r: LooseRecord, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = text(r[n]);
    if (v !== undefined) return v;
  }
  return undefined;
}

function toSavedSshKey(raw: unknown): SavedSshKey | undefined {
  if (typeof raw === 'string') {
    return raw.trim()
      ? {
          id: undefined,
          name: raw.trim(),
          type: undefined,
          fingerprint: undefined,
          createdAt: undefined,
          owner: undefined,
        }
      : undefined;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as LooseRecord;
  const id = pick(r, 'key_id', 'id', 'keyId');
  const fingerprint = pick(r, 'fingerprint', 'key_fingerprint');
  const name = pick(r, 'name', 'key_name', 'comment') ?? id ?? fingerprint;
  if (name === undefined) return undefined;
  return {
    id,
    name,
    type: pick(r, 'key_type', 'type', 'algorithm'),
    fingerprint,
    createdAt: pick(r, 'created_at', 'added_at', 'createdAt'),
    owner: pick(r, 'owner_email', 'email', 'owner', 'user_id'),
  };
}

export function toSshKeyListing(body: SshKeyListResponse): SshKeyListing {
  const message = body.message?.trim() ? body.message : undefined;
  if (!Array.isArray(body.keys)) return sshKeysFromText(message);
  return {
    keys: body.keys.map(toSavedSshKey).filter((k): k is SavedSshKey => k !== undefined),
    message,
  };
}

/** A text-only list: the keys its table names (by header), marked as read from text. */
function sshKeysFromText(message: string | undefined): SshKeyListing {
  const read = recordsFromText(message, SSH_KEY_COLUMNS, { key: 'id' });
  const keys = read.records.map(({ fields: f }): SavedSshKey => ({
    id: cell(f.id),
    name: cell(f.name) ?? cell(f.id) ?? '',
    type: cell(f.type),
    fingerprint: cell(f.fingerprint),
    createdAt: cell(f.created),
    owner: cell(f.owner),
    fromText: true,
  }));
  return { keys: keys.length > 0 ? keys : undefined, message, unreadRows: read.unread };
}

/** What POST /health said about this client: fine, or refused with the server's message. */
export type HealthVerdict = { ok: true } | { ok: false; status: number; message: string };

/** Statuses that are not a verdict on the client: a missing route, auth, rate limits, server trouble. */
const NOT_A_VERDICT = new Set([401, 404, 405, 408, 429]);

/**
 * Turn a failed POST /health into a verdict. A 4xx answer (other than the above) refuses this
 * client; network trouble and 5xx are not verdicts and are rethrown for the caller to treat as usual.
 */
export function healthVerdict(err: unknown): HealthVerdict {
  if (err instanceof TensorPoolError && err.status !== undefined && err.status >= 400 && err.status < 500) {
    if (!NOT_A_VERDICT.has(err.status)) {
      // The transport prefixes statuses it has no class for ("Unexpected HTTP 426: ...."); keep what
      // the server said.
      const m = /^Unexpected HTTP \d+(?::\s*([\s\S]*)\.)?\.?$/.exec(err.message);
      const message = m ? (m[1] ?? `HTTP ${err.status}`) : err.message;
      return { ok: false, status: err.status, message };
    }
  }
  throw err;
}
