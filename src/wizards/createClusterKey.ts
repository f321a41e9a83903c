/**
 * The create-cluster wizard's SSH key step: a key from ~/.ssh, a generated one, a pasted one or none
 * (the keys saved on the account), then whether to save a new key to the profile.
 */
import * as l10n from '@vscode/l10n';
import { validatePublicKey } from '../model/validate';
import { withIcon, type Answer, type PickItem, type Prompter, type StepMeta } from './prompter';
import { noKeyDescription, noKeyLabel, type SavedKeys } from './savedKeys';
import type { CreateState, CreateWizardDeps, LocalKey } from './createClusterState';

export async function keyStep(
  deps: CreateWizardDeps,
  s: CreateState,
  meta: StepMeta,
  initialError: string | undefined,
  savedKeys: () => Promise<SavedKeys | undefined>,
): Promise<Answer<CreateState>> {
  const keys = await deps.localKeys();
  const saved = await savedKeys();
  type KeyPick =
    { kind: 'none' } | { kind: 'paste' } | { kind: 'generate' } | { kind: 'file'; key: LocalKey };
  const items: PickItem<KeyPick>[] = [
    ...keys.map((k) => ({
      label: withIcon('key', basename(k.path)),
      description: k.comment,
      detail: `${k.key.slice(0, 40)}…`,
      value: { kind: 'file' as const, key: k },
    })),
    ...(deps.generateKey
      ? [
          {
            label: generateKeyLabel(),
            description: generateKeyDescription(),
            value: { kind: 'generate' },
          } as PickItem<KeyPick>,
        ]
      : []),
    { label: pasteKeyLabel(), value: { kind: 'paste' } },
    {
      label: withIcon('circle-slash', noKeyLabel()),
      description: noKeyDescription(saved),
      value: { kind: 'none' },
    },
  ];
  const previous = s.key;
  const active = items.find((i) =>
    previous.kind === 'file'
      ? i.value.kind === 'file' && i.value.key.path === previous.path
      : previous.kind === 'pasted'
        ? i.value.kind === 'paste'
        : i.value.kind === 'none',
  )?.value;
  // Text left in the paste box (Escape then keep editing, Back) is shown there again; after Escape, at once.
  let pasteDraft = meta.draft;
  let pasteFirst = pasteDraft !== undefined;
  for (;;) {
    const picked: Answer<KeyPick> = pasteFirst
      ? { kind: 'value', value: { kind: 'paste' } }
      : await deps.prompter.pick<KeyPick>({
          ...meta,
          placeholder: keys.length
            ? l10n.t(
                'SSH public key for the nodes (combined with the keys saved for you and your organisation)',
              )
            : l10n.t(
                'No ~/.ssh/*.pub found. Generate or paste a public key, or continue with the keys saved on your account',
              ),
          items,
          active,
          initialError,
        });
    pasteFirst = false;
    if (picked.kind !== 'value') return picked;
    let v = picked.value;
    if (v.kind === 'none') return { kind: 'value', value: { ...s, key: { kind: 'none' } } };
    if (v.kind === 'generate' && deps.generateKey) {
      try {
        v = { kind: 'file', key: await deps.generateKey() };
      } catch (e) {
        initialError = couldNotGenerate(e);
        continue;
      }
    }
    if (v.kind === 'file') {
      const problem = validatePublicKey(v.key.key);
      if (problem) {
        initialError = l10n.t('{0}: {1}', basename(v.key.path), problem);
        continue;
      }
      const save = await askSaveKey(deps.prompter, meta, s.saveKeys);
      if (save.kind === 'value')
        return {
          kind: 'value',
          value: {
            ...s,
            key: { kind: 'file', path: v.key.path, key: v.key.key.trim() },
            saveKeys: save.value,
          },
        };
      if (save.kind === 'cancel') return save;
      continue; // Back: the key list again
    }
    const pasted = await deps.prompter.input({
      ...meta,
      prompt: l10n.t('Paste an SSH public key (one line from a .pub file)'),
      value: s.key.kind === 'pasted' ? s.key.key : '',
      draft: pasteDraft,
      placeholder: KEY_EXAMPLE,
      validate: validatePublicKey,
    });
    if (pasted.kind === 'cancel') return { kind: 'cancel', typed: pasted.typed ?? pasteDraft };
    pasteDraft = pasted.kind === 'value' ? pasted.value : (pasted.typed ?? pasteDraft);
    if (pasted.kind === 'value') {
      const save = await askSaveKey(deps.prompter, meta, s.saveKeys);
      if (save.kind === 'value')
        return {
          kind: 'value',
          value: { ...s, key: { kind: 'pasted', key: pasted.value.trim() }, saveKeys: save.value },
        };
      if (save.kind === 'cancel') return save;
    }
    // Back from the paste box returns to the key list.
  }
}

/** Part of the key step: a new key can be saved to the profile (the API's save_keys, default true). */
async function askSaveKey(prompter: Prompter, meta: StepMeta, current: boolean): Promise<Answer<boolean>> {
  return prompter.pick<boolean>({
    ...meta,
    placeholder: l10n.t('Save this SSH key to your TensorPool profile, so later clusters get it too?'),
    items: [
      { label: l10n.t('Save the key'), description: l10n.t('added to future clusters as well'), value: true },
      { label: l10n.t('Only for this cluster'), value: false },
    ],
    active: current,
  });
}

/** The key pick's "generate" and "paste" rows (the add-key wizard offers them too). */
export const generateKeyLabel = (): string => l10n.t('$(add) Generate a new ed25519 key…');
export const generateKeyDescription = (): string => l10n.t('with ssh-keygen, in ~/.ssh');
export const pasteKeyLabel = (): string => l10n.t('$(clippy) Paste a public key…');
/** What a public key box shows before anything is typed: an example, not text to translate. */
export const KEY_EXAMPLE = 'ssh-ed25519 AAAA… you@host';

export function couldNotGenerate(e: unknown): string {
  return l10n.t('Could not generate a key: {0}', e instanceof Error ? e.message : String(e));
}

export function basename(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}
