/**
 * Pieces the wizards share: server messages shown once at their step, the deletion-protection pick
 * (creating and editing), and the review step of the edit wizards (apply the changes or change a field).
 */
import * as l10n from '@vscode/l10n';
import type { Answer, PickItem, Prompter, StepMeta } from './prompter';
import type { StepAnswer } from './steps';

/** A server message (a 422) is shown once, on the first visit of its step. */
export function errorTaker<K extends string>(
  errors: Partial<Record<K, string>> | undefined,
): (id: K) => string | undefined {
  const left: Partial<Record<K, string>> = { ...errors };
  return (id) => {
    const e = left[id];
    delete left[id];
    return e;
  };
}

/** Deletion protection for something new: Off first, the default. */
export function pickNewProtection(
  prompter: Prompter,
  meta: StepMeta,
  o: { placeholder: string; offDescription: string; active: boolean; initialError: string | undefined },
): Promise<Answer<boolean>> {
  return prompter.pick<boolean>({
    ...meta,
    placeholder: o.placeholder,
    items: [
      { label: l10n.t('Off'), description: o.offDescription, value: false },
      { label: l10n.t('On'), description: l10n.t('protect against accidental destroy'), value: true },
    ],
    active: o.active,
    initialError: o.initialError,
  });
}

/** Deletion protection for something that exists (a cluster or a volume), its current value marked. */
export function pickEditedProtection(
  prompter: Prompter,
  meta: StepMeta,
  o: {
    what: 'cluster' | 'volume';
    current: boolean;
    active: boolean | undefined;
    initialError: string | undefined;
  },
): Promise<Answer<boolean>> {
  const cluster = o.what === 'cluster';
  return prompter.pick<boolean>({
    ...meta,
    placeholder: cluster
      ? l10n.t('Deletion protection: a protected cluster cannot be destroyed')
      : l10n.t('Deletion protection: a protected volume cannot be destroyed'),
    items: [
      {
        label: l10n.t('On'),
        description: o.current ? l10n.t('(current)') : l10n.t('protect against accidental destroy'),
        value: true,
      },
      {
        label: l10n.t('Off'),
        description: !o.current
          ? l10n.t('(current)')
          : cluster
            ? l10n.t('allow destroying the cluster')
            : l10n.t('allow destroying the volume'),
        value: false,
      },
    ],
    active: o.active,
    initialError: o.initialError,
  });
}

/** The summary row showing deletion protection (picking it goes to that step). */
export function protectionRow<R>(on: boolean | undefined, value: R): PickItem<R> {
  return { label: l10n.t('Deletion protection'), description: on ? l10n.t('on') : l10n.t('off'), value };
}

/** An edit wizard's review: apply the described changes (or close when there are none), or pick a
 * field's row to change it. */
export async function reviewChanges<S, F extends string>(
  prompter: Prompter,
  meta: StepMeta,
  s: S,
  o: { changes: readonly string[]; fields: readonly PickItem<F>[]; initialError?: string },
): Promise<StepAnswer<S>> {
  const lines = o.changes;
  const picked = await prompter.pick<F | 'apply'>({
    ...meta,
    placeholder: lines.length ? l10n.t('Apply: {0}?', lines.join(', ')) : l10n.t('Nothing changed'),
    items: [
      {
        label: lines.length ? l10n.t('$(check) Apply changes') : l10n.t('$(close) Nothing to change: close'),
        description: lines.join(', '),
        value: 'apply',
      },
      ...o.fields,
    ],
    active: 'apply',
    ...('initialError' in o ? { initialError: o.initialError } : {}),
  });
  if (picked.kind !== 'value') return picked;
  return picked.value === 'apply'
    ? { kind: 'value', value: s }
    : { kind: 'goto', target: picked.value, value: s };
}

/** A review line for a changed deletion protection. */
export function protectionChange(on: boolean): string {
  return on ? l10n.t('deletion protection on') : l10n.t('deletion protection off');
}
