/**
 * A multi-step wizard runner: numbered steps ("step n/N"), Back that keeps every value, steps that
 * can be skipped depending on earlier answers, and Escape on a filled wizard asking before it throws
 * the answers away.
 */
import type { Answer, Prompter, StepMeta } from './prompter';

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

export const KEEP_EDITING = 'Keep Editing';
export const DISCARD = 'Discard';

/** Run the steps; resolves to the final answers, or undefined when the user cancelled. */
export async function runSteps<S>(
  steps: readonly Step<S>[],
  initial: S,
  options: RunOptions<S>,
): Promise<S | undefined> {
  let state = initial;
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
    const answer = await step.run(state, {
      title: options.title,
      step: index + 1,
      totalSteps: list.length,
      canGoBack: index > 0,
    });
    if (answer.kind === 'goto') {
      state = answer.value;
      returnTo = step.id;
      index = Math.max(0, indexOf(answer.target));
    } else if (answer.kind === 'value') {
      state = answer.value;
      // Answers can change which steps are visible: continue after this step's new position,
      // or go straight back to the step that sent us here.
      if (returnTo !== undefined && indexOf(returnTo) >= 0) {
        index = indexOf(returnTo);
        returnTo = undefined;
      } else {
        index = indexOf(step.id) + 1;
      }
    } else if (answer.kind === 'back') {
      index = Math.max(0, index - 1);
    } else {
      if (!options.isDirty(state)) return undefined;
      const choice = await options.prompter.confirm({
        message: options.discardMessage,
        actions: [DISCARD, KEEP_EDITING],
        modal: true,
      });
      if (choice === DISCARD) return undefined;
      // Keep editing: show the same step again, with everything kept.
    }
  }
}

/** Map an answer's value, passing Back and Cancel through. */
export function mapAnswer<A, B>(answer: Answer<A>, f: (value: A) => B): Answer<B> {
  return answer.kind === 'value' ? { kind: 'value', value: f(answer.value) } : answer;
}
