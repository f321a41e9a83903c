/**
 * "Add SSH Key…": pick a `~/.ssh/*.pub` (shown with its type and fingerprint), paste one, or generate
 * a new ed25519 key; then an optional name (empty: the service names it, as the official client
 * leaves it to the service). Every key is checked before anything is sent; a private key pasted by
 * mistake is refused with its own message. No `vscode` import, no I/O of its own, nothing logged.
 */
import { describePublicKey, parsePublicKey, type PublicKey } from '../model/sshPublicKey';
import { hasControlCharacters } from '../model/validate';
import type { LocalKey } from './createCluster';
import type { Answer, PickItem, Prompter, StepMeta } from './prompter';

export const ADD_KEY_TITLE = 'Add SSH Key to TensorPool';
export const MAX_KEY_NAME = 128;

export interface AddSshKeyDeps {
  readonly prompter: Prompter;
  readonly localKeys: () => Promise<readonly LocalKey[]>;
  readonly generateKey?: () => Promise<LocalKey>;
  /** Fingerprints already saved on the account (to mark them; the service refuses duplicates). */
  readonly savedFingerprints?: () => readonly string[];
}

export interface AddSshKeyResult {
  readonly key: PublicKey;
  /** Undefined: the service picks the name. */
  readonly name: string | undefined;
  /** Where the key came from, for messages: a file path, "pasted key". */
  readonly source: string;
}

type Source = { kind: 'file'; key: PublicKey; path: string } | { kind: 'paste' } | { kind: 'generate' };

export function validateKeyName(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.trim() === '') return 'Enter a name, or leave the box empty to let the service name the key.';
  if (value.length > MAX_KEY_NAME) return `Use at most ${MAX_KEY_NAME} characters for the key name.`;
  if (hasControlCharacters(value)) return 'The key name cannot contain control characters or line breaks.';
  return undefined;
}

const basename = (p: string): string => p.split(/[\\/]/).pop() ?? p;

export async function runAddSshKeyWizard(deps: AddSshKeyDeps): Promise<AddSshKeyResult | undefined> {
  const { prompter } = deps;
  const saved = new Set(deps.savedFingerprints?.() ?? []);
  const meta = (step: number, canGoBack: boolean): StepMeta => ({
    title: ADD_KEY_TITLE,
    step,
    totalSteps: 2,
    canGoBack,
  });
  let initialError: string | undefined;
  for (;;) {
    const items: PickItem<Source>[] = [];
    for (const local of await deps.localKeys()) {
      const parsed = parsePublicKey(local.key);
      if (!parsed.ok) continue; // not a usable public key: not offered
      items.push({
        label: `$(key) ${basename(local.path)}`,
        description:
          describePublicKey(parsed.key) + (saved.has(parsed.key.fingerprint) ? ' (already saved)' : ''),
        detail: parsed.key.comment,
        value: { kind: 'file', key: parsed.key, path: local.path },
      });
    }
    if (deps.generateKey)
      items.push({
        label: '$(add) Generate a new ed25519 key…',
        description: 'with ssh-keygen, in ~/.ssh',
        value: { kind: 'generate' },
      });
    items.push({ label: '$(clippy) Paste a public key…', value: { kind: 'paste' } });
    const picked = await prompter.pick<Source>({
      ...meta(1, false),
      placeholder: 'Which public key? Saved keys are added to every new cluster you create.',
      items,
      initialError,
    });
    if (picked.kind !== 'value') return undefined;
    initialError = undefined;
    let source = picked.value;
    let label: string;
    if (source.kind === 'generate' && deps.generateKey) {
      try {
        const made = await deps.generateKey();
        const parsed = parsePublicKey(made.key);
        if (!parsed.ok) throw new Error(parsed.message);
        source = { kind: 'file', key: parsed.key, path: made.path };
      } catch (e) {
        initialError = `Could not generate a key: ${e instanceof Error ? e.message : String(e)}`;
        continue;
      }
    }
    let key: PublicKey;
    if (source.kind === 'file') {
      key = source.key;
      label = source.path;
    } else {
      const pasted = await pasteKey(prompter, meta(1, true));
      if (pasted.kind === 'cancel') return undefined;
      if (pasted.kind === 'back') continue;
      key = pasted.value;
      label = 'pasted key';
    }
    const name = await prompter.input({
      ...meta(2, true),
      prompt: `Name for ${describePublicKey(key)} (optional)`,
      value: '',
      placeholder: key.comment
        ? `Leave empty to let the service name it (usually "${key.comment}")`
        : 'Leave empty to let the service name it',
      validate: validateKeyName,
    });
    if (name.kind === 'cancel') return undefined;
    if (name.kind === 'back') continue;
    return { key, name: name.value.trim() || undefined, source: label };
  }
}

async function pasteKey(prompter: Prompter, meta: StepMeta): Promise<Answer<PublicKey>> {
  const answer = await prompter.input({
    ...meta,
    prompt: 'Paste an SSH public key (one line from a .pub file). A private key is refused and never sent.',
    value: '',
    placeholder: 'ssh-ed25519 AAAA… you@host',
    password: false,
    validate: (v) => {
      const r = parsePublicKey(v);
      return r.ok ? undefined : r.message;
    },
  });
  if (answer.kind !== 'value') return answer;
  const parsed = parsePublicKey(answer.value);
  // validate() already refused anything else; this keeps the types honest.
  return parsed.ok ? { kind: 'value', value: parsed.key } : { kind: 'cancel' };
}
