/**
 * "Add SSH Key…": pick a `~/.ssh/*.pub` (shown with its type and fingerprint), paste one, or generate
 * a new ed25519 key; then an optional name (empty: the service names it, as the official client
 * leaves it to the service). Every key is checked before anything is sent; a private key pasted by
 * mistake is refused with its own message. No `vscode` import, no I/O of its own, nothing logged.
 */
import * as l10n from '@vscode/l10n';
import { describePublicKey, parsePublicKey, type PublicKey } from '../model/sshPublicKey';
import { hasControlCharacters } from '../model/validate';
import type { LocalKey } from './createCluster';
import {
  KEY_EXAMPLE,
  basename,
  couldNotGenerate,
  generateKeyDescription,
  generateKeyLabel,
  pasteKeyLabel,
} from './createClusterKey';
import { withIcon, type Answer, type PickItem, type Prompter, type StepMeta } from './prompter';

const addKeyTitle = (): string => l10n.t('Add SSH Key to TensorPool');
const MAX_KEY_NAME = 128;

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
  if (value.trim() === '')
    return l10n.t('Enter a name, or leave the box empty to let the service name the key.');
  if (value.length > MAX_KEY_NAME)
    return l10n.t('Use at most {0} characters for the key name.', MAX_KEY_NAME);
  if (hasControlCharacters(value))
    return l10n.t('The key name cannot contain control characters or line breaks.');
  return undefined;
}

export async function runAddSshKeyWizard(deps: AddSshKeyDeps): Promise<AddSshKeyResult | undefined> {
  const { prompter } = deps;
  const saved = new Set(deps.savedFingerprints?.() ?? []);
  const meta = (step: number, canGoBack: boolean): StepMeta => ({
    title: addKeyTitle(),
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
        label: withIcon('key', basename(local.path)),
        description: saved.has(parsed.key.fingerprint)
          ? l10n.t('{0} (already saved)', describePublicKey(parsed.key))
          : describePublicKey(parsed.key),
        detail: parsed.key.comment,
        value: { kind: 'file', key: parsed.key, path: local.path },
      });
    }
    if (deps.generateKey)
      items.push({
        label: generateKeyLabel(),
        description: generateKeyDescription(),
        value: { kind: 'generate' },
      });
    items.push({ label: pasteKeyLabel(), value: { kind: 'paste' } });
    const picked = await prompter.pick<Source>({
      ...meta(1, false),
      placeholder: l10n.t('Which public key? Saved keys are added to every new cluster you create.'),
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
        initialError = couldNotGenerate(e);
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
      label = l10n.t('pasted key');
    }
    const name = await prompter.input({
      ...meta(2, true),
      prompt: l10n.t('Name for {0} (optional)', describePublicKey(key)),
      value: '',
      placeholder: key.comment
        ? l10n.t('Leave empty to let the service name it (usually "{0}")', key.comment)
        : l10n.t('Leave empty to let the service name it'),
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
    prompt: l10n.t(
      'Paste an SSH public key (one line from a .pub file). A private key is refused and never sent.',
    ),
    value: '',
    placeholder: KEY_EXAMPLE,
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
