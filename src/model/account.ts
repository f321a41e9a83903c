/**
 * The account as the UI names it. GET /me (and /user/info) have no published shape, so the label
 * is looked for in the usual fields, then in the `message` text. Pure; no `vscode` import.
 */

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

const HUMAN_FIELDS = ['email', 'name', 'username', 'user_name', 'display_name', 'login'];
const ID_FIELDS = ['uid', 'user_id', 'id'];
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const NAMED =
  /\b(?:logged in as|signed in as|authenticated as|welcome,?|hello,?|user:?|account:?)\s+([^\s,;!()<>]+(?: [A-Z][\w'-]*)?)/i;
export const ACCOUNT_FALLBACK = 'TensorPool account';

function shorten(text: string, max = 40): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

/**
 * A human label for the account from GET /me (or /user/info), whose shape is unpublished: a
 * structured field, else an e-mail or name found in `message`, else the message itself, shortened.
 */
export function accountLabel(me: unknown): string {
  if (!isRecord(me)) return ACCOUNT_FALLBACK;
  const field = (keys: string[]) => keys.map((k) => str(me[k])).find((v) => v !== undefined);
  const human = field(HUMAN_FIELDS);
  if (human) return shorten(human);
  if (isRecord(me.user)) {
    const nested = accountLabel(me.user);
    if (nested !== ACCOUNT_FALLBACK) return nested;
  }
  const message = str(me.message)?.replace(/\u001b\[[0-9;]*m/g, '');
  const email = message ? EMAIL.exec(message) : null;
  if (email) return email[0];
  const named = message ? NAMED.exec(message) : null;
  if (named) return shorten(named[1].replace(/[.:]$/, ''));
  const id = field(ID_FIELDS);
  if (id) return shorten(id);
  if (!message) return ACCOUNT_FALLBACK;
  return shorten(message.split(/\r?\n/).find((l) => l.trim()) ?? message);
}
