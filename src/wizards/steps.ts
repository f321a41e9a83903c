/**
 * A multi-step wizard runner: numbered steps ("step n/N"), Back that keeps every value, steps that
 * can be skipped depending on earlier answers, and Escape on a filled wizard asking before it throws
 * the answers away. Text typed at a step and left unconfirmed (Escape then keep editing, Back) is kept
 * per step and shown again there, never replaced by the last confirmed value.
 */
import * as l10n from '@vscode/l10n';
import { withIcon, type Answer, type Prompter, type StepMeta } from './prompter';

/** A step's answer; `goto` jumps to another step (a summary's "change this field" row), which then returns here. */
export type StepAnswer<S> = Answer<S> | { readonly kind: 'goto'; readonly target: string; readonly value: S };

export interface Step<S> {
  readonly id: string;
  /** Skip this step for the current answers (it is then not counted in "n/N" either). */
  readonly skip?: (state: S) => boolean;
  readonly run: (state: S, meta: StepMeta) => Promise<StepAnswer<S>>;
}

export interface RunOptions<S> {
  readonly title: string;
  readonly prompter: Prompter;
  /** Start at this step (e.g. the field a 422 complained about) instead of the first. */
  readonly startAt?: string;
  /** After the step at startAt is answered, come back to this step (a wizard reopened after an error
   * returns to its summary). */
  readonly returnTo?: string;
  /** Whether Escape should ask before discarding (something was typed). */
  readonly isDirty: (state: S) => boolean;
  readonly discardMessage: string;
}

/** The discard question's two rows (their labels are what scripts and users pick). */
export const keepEditingLabel = (): string => l10n.t('Keep editing');
export const discardLabel = (): string => l10n.t('Discard');

/** Run the steps; resolves to the final answers, or undefined when the user cancelled. */
export async function runSteps<S>(
  steps: readonly Step<S>[],
  initial: S,
  options: RunOptions<S>,
): Promise<S | undefined> {
  let state = initial;
  // Text typed at a step and left there unconfirmed (Escape, Back), by step id: that step shows it again.
  const drafts = new Map<string, string>();
  const visible = () => steps.filter((s) => !s.skip?.(state));
  const indexOf = (id: string) => visible().findIndex((s) => s.id === id);
  let index = Math.max(0, options.startAt ? indexOf(options.startAt) : 0);
  // Reopened at the step it would return to (the summary, after a failed create): answering it is the answer.
  let returnTo: string | undefined =
    options.startAt && options.startAt !== options.returnTo ? options.returnTo : undefined;
  for (;;) {
    const list = visible();
    if (index >= list.length) return state;
    const step = list[index];
    const meta: StepMeta = {
      title: options.title,
      step: index + 1,
      totalSteps: list.length,
      canGoBack: index > 0,
      draft: drafts.get(step.id),
    };
    const answer = await step.run(state, meta);
    if (answer.kind === 'goto' || answer.kind === 'value') drafts.delete(step.id);
    else if (answer.typed !== undefined) drafts.set(step.id, answer.typed);
    if (answer.kind === 'goto') {
      state = answer.value;
      returnTo = step.id;
      index = Math.max(0, indexOf(answer.target));
    } else if (answer.kind === 'value') {
      state = answer.value;
      // Answers can change which steps are visible: continue after this step's new position,
      // or go back to the step that sent us here, showing first any step on the way left with unconfirmed text.
      const target = returnTo === undefined ? -1 : indexOf(returnTo);
      const from = indexOf(step.id);
      const pending = visible().findIndex((s, i) => i > from && i < target && drafts.has(s.id));
      if (target >= 0 && pending < 0) {
        index = target;
        returnTo = undefined;
      } else {
        index = target >= 0 ? pending : from + 1;
      }
    } else if (answer.kind === 'back') {
      index = Math.max(0, index - 1);
    } else {
      // Escape on the first step with nothing confirmed closes, as Escape on any quick input does; anywhere
      // else anything confirmed or typed makes it ask, and keeping is the default.
      const typed = [...drafts.keys()].some((id) => index > 0 || id !== step.id);
      if (!options.isDirty(state) && !typed) return undefined;
      if (await askDiscard(options, meta)) return undefined;
      // Keep editing: show the same step again, with everything kept (the typed text too).
    }
  }
}

/** Ask before throwing the answers away: keeping is the default (Enter) and what Escape does; discarding
 * takes picking it. */
async function askDiscard<S>(options: RunOptions<S>, meta: StepMeta): Promise<boolean> {
  const answer = await options.prompter.pick<boolean>({
    title: meta.title,
    step: meta.step,
    totalSteps: meta.totalSteps,
    canGoBack: false,
    placeholder: l10n.t('{0} (Escape keeps editing)', options.discardMessage),
    items: [
      {
        label: withIcon('edit', keepEditingLabel()),
        description: l10n.t('back to step {0}, as you left it', meta.step),
        value: false,
      },
      {
        label: withIcon('trash', discardLabel()),
        description: l10n.t('close the wizard and forget the answers'),
        value: true,
      },
    ],
    active: false,
  });
  return answer.kind === 'value' && answer.value;
}

/** Map an answer's value, passing Back and Cancel through. */
export function mapAnswer<A, B>(answer: Answer<A>, f: (value: A) => B): Answer<B> {
  return answer.kind === 'value' ? { kind: 'value', value: f(answer.value) } : answer;
}
