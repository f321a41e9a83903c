/**
 * One of our INI sections in one user file (the AWS profile in ~/.aws/credentials, the same
 * profile in ~/.aws/config, the rclone remote): a preview for the confirmation dialog (new text
 * plus a summary that masks secrets), and the write/remove that apply the same edit atomically.
 */
import * as l10n from '@vscode/l10n';
import { editTextFile, type AtomicWriteOptions, type WriteResult } from './atomicWrite';
import { ConfigError } from './errors';
import {
  removeSection,
  upsertSection,
  type IniDialect,
  type IniEntry,
  type SectionEdit,
  type SectionRef,
} from './ini';
import { displayValue } from './mask';

export interface IniTarget {
  /** The file as the user knows it, for summaries and errors: `~/.aws/credentials`. */
  readonly label: string;
  /** The section as the user knows it: `profile tp`, `remote tp`. */
  readonly what: string;
  readonly ref: SectionRef;
  readonly dialect: IniDialect;
  /** Every key we may write there; removal takes these out. */
  readonly ownedKeys: readonly string[];
  /** Keys deleted from our section on write because they would spoil ours. */
  readonly dropKeys?: readonly string[];
  /** Refuses texts this target must not edit (an encrypted rclone.conf). */
  readonly check?: (text: string) => void;
}

export interface IniPreview {
  /** The whole new file text. */
  readonly text: string;
  /** False when the file already says exactly this (nothing will be written). */
  readonly changed: boolean;
  /** One or two sentences for a confirmation dialog; secrets masked. */
  readonly summary: string;
}

function inFile<T>(target: IniTarget, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw err instanceof ConfigError ? err.inFile(target.label) : err;
  }
}

function listValues(edit: SectionEdit, kinds: ReadonlyArray<'added' | 'changed'>): string[] {
  return edit.changes
    .filter((c) => kinds.includes(c.kind as 'added' | 'changed'))
    .map((c) =>
      c.kind === 'added'
        ? `${c.key} = ${displayValue(c.key, c.after)}`
        : `${c.key} (${displayValue(c.key, c.before ?? '')} → ${displayValue(c.key, c.after)})`,
    );
}

function summarise(target: IniTarget, old: string | undefined, edit: SectionEdit, changed: boolean): string {
  const { label, what } = target;
  if (!changed) return l10n.t('{0} already has these values in {1}; nothing to write.', label, what);
  if (old === undefined)
    return l10n.t('Create {0} with {1}: {2}.', label, what, listValues(edit, ['added']).join(', '));
  if (edit.section === 'created') {
    return l10n.t(
      'Add {0} at the end of {1}: {2}. The rest of the file stays as it is.',
      what,
      label,
      listValues(edit, ['added']).join(', '),
    );
  }
  const parts: string[] = [];
  const changedKeys = listValues(edit, ['changed']);
  const addedKeys = listValues(edit, ['added']);
  if (changedKeys.length) parts.push(l10n.t('change {0}', changedKeys.join(', ')));
  if (addedKeys.length) parts.push(l10n.t('add {0}', addedKeys.join(', ')));
  if (edit.duplicatesRemoved.length)
    parts.push(l10n.t('remove the second copy of {0}', edit.duplicatesRemoved.join(', ')));
  if (edit.dropped.length)
    parts.push(l10n.t('remove {0}, which would override the new keys', edit.dropped.join(', ')));
  if (edit.headerWas)
    parts.push(l10n.t('write the header {0} as [{1}] so it is found', edit.headerWas, target.ref.header));
  const changes = parts.join('; ');
  return edit.keptKeys.length
    ? l10n.t(
        'Update {0} in {1}: {2}. Your other keys there ({3}) stay. The rest of the file stays as it is.',
        what,
        label,
        changes,
        edit.keptKeys.join(', '),
      )
    : l10n.t('Update {0} in {1}: {2}. The rest of the file stays as it is.', what, label, changes);
}

/** The edit a write would make, for a confirmation dialog. `old` is undefined for a missing file. */
export function previewIniWrite(
  target: IniTarget,
  old: string | undefined,
  entries: readonly IniEntry[],
): IniPreview {
  return inFile(target, () => {
    target.check?.(old ?? '');
    const edit = upsertSection(old ?? '', target.ref, entries, target.dialect, { dropKeys: target.dropKeys });
    const changed = edit.text !== (old ?? '') || old === undefined;
    return { text: edit.text, changed, summary: summarise(target, old, edit, changed) };
  });
}

/** The edit a removal would make. */
export function previewIniRemoval(target: IniTarget, old: string | undefined): IniPreview {
  return inFile(target, () => {
    if (old === undefined)
      return {
        text: '',
        changed: false,
        summary: l10n.t('{0} does not exist; nothing to remove.', target.label),
      };
    target.check?.(old);
    const r = removeSection(old, target.ref, target.ownedKeys, target.dialect);
    const summary =
      r.removed === 'nothing'
        ? l10n.t('{0} has no {1}; nothing to remove.', target.label, target.what)
        : r.removed === 'section'
          ? l10n.t('Remove {0} from {1}. The rest of the file stays as it is.', target.what, target.label)
          : l10n.t(
              'Remove our keys from {0} in {1}; your other keys there ({2}) stay.',
              target.what,
              target.label,
              r.keptKeys.join(', '),
            );
    return { text: r.text, changed: r.text !== old, summary };
  });
}

/** Write our section into the file at `path` (created 0600 when missing). */
export async function writeIniSection(
  path: string,
  target: IniTarget,
  entries: readonly IniEntry[],
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return editTextFile(path, (old) => previewIniWrite(target, old, entries).text, opts);
}

/** Remove our section (or only our keys, when the user added keys of their own to it). */
export async function removeIniSection(
  path: string,
  target: IniTarget,
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return editTextFile(path, (old) => (old === undefined ? '' : previewIniRemoval(target, old).text), opts);
}
