/**
 * Pieces the wizards share: server messages shown once at their step, the deletion-protection pick
 * (creating and editing), and the review step of the edit wizards (apply the changes or change a field).
 */
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
      { label: 'Off', description: o.offDescription, value: false },
      { label: 'On', description: 'protect against accidental destroy', value: true },
    ],
    active: o.active,
    initialError: o.initialError,
  });
}

/** Deletion protection for something that exists (`noun`: "cluster", "volume"), its current value marked. */
export function pickEditedProtection(
  prompter: Prompter,
  meta: StepMeta,
  o: { noun: string; current: boolean; active: boolean | undefined; initialError: string | undefined },
): Promise<Answer<boolean>> {
  return prompter.pick<boolean>({
    ...meta,
    placeholder: `Deletion protection: a protected ${o.noun} cannot be destroyed`,
    items: [
      {
        label: 'On',
        description: o.current ? '(current)' : 'protect against accidental destroy',
        value: true,
      },
      {
        label: 'Off',
        description: !o.current ? '(current)' : `allow destroying the ${o.noun}`,
        value: false,
      },
    ],
    active: o.active,
    initialError: o.initialError,
  });
}

/** The summary row showing deletion protection (picking it goes to that step). */
export function protectionRow<R>(on: boolean | undefined, value: R): PickItem<R> {
  return { label: 'Deletion protection', description: on ? 'on' : 'off', value };
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
    placeholder: lines.length ? `Apply: ${lines.join(', ')}?` : 'Nothing changed',
    items: [
      {
        label: lines.length ? '$(check) Apply changes' : '$(close) Nothing to change: close',
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
