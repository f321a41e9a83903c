/**
 * The small interface wizards talk to. In VS Code it is backed by real quick inputs
 * (src/vscode/shared/onUse/quickInputPrompter.ts); in tests by scripted answers (test/fixtures/scriptedPrompter.ts),
 * in the spirit of vscode-azuretools' TestUserInput. No `vscode` import here.
 */

/** How a prompt ended. Back (the Back button) and cancel (Escape, or the prompt hidden) carry `typed`: the
 * text in the box when it was left, only when it differs from what the box opened with, so a wizard can
 * show it again instead of the last confirmed value. */
export type Answer<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'back'; readonly typed?: string }
  | { readonly kind: 'cancel'; readonly typed?: string };

export type Severity = 'error' | 'warning';
/** A validation verdict: undefined = fine; a string = error (blocks Enter); an object may be a warning
 * (does not block). */
export type Verdict = string | { readonly message: string; readonly severity: Severity } | undefined;

export function blocks(v: Verdict): boolean {
  return typeof v === 'string' || (v !== undefined && v.severity === 'error');
}

export function verdictMessage(v: Verdict): string | undefined {
  return typeof v === 'string' ? v : v?.message;
}

export interface StepMeta {
  readonly title: string;
  readonly step: number;
  readonly totalSteps: number;
  readonly canGoBack: boolean;
  /** What the user had typed at this step when they last left it without confirming (Escape, Back): an
   * input box opens with this text instead of `value`, a quick pick that takes custom values with it as
   * the filter text. Set by the wizard runner; steps pass it on by spreading their StepMeta. */
  readonly draft?: string;
}

export interface InputOptions extends StepMeta {
  readonly prompt: string;
  /** Prefilled text: the answer confirmed before, or a default (a `draft` takes its place). */
  readonly value: string;
  readonly placeholder?: string;
  readonly password?: boolean;
  /** Shown at once (e.g. the server's message for this field after a 422) until the text changes. */
  readonly initialError?: string;
  /** As-you-type validation; an error blocks Enter. */
  readonly validate: (value: string) => Verdict;
}

export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly value: T;
}

export interface PickOptions<T> extends StepMeta {
  readonly placeholder: string;
  readonly items: readonly PickItem<T>[];
  /** The item to highlight (what was picked before). */
  readonly active?: T;
  readonly initialError?: string;
  /** Rows to show instead once they are ready (a price fetched meanwhile); the pick never waits for them. */
  readonly later?: Promise<readonly PickItem<T>[] | undefined>;
  /** Let the user type a value that is not in the list (e.g. another instance type). */
  readonly custom?: {
    readonly label: (text: string) => string;
    readonly validate: (text: string) => Verdict;
    readonly toValue: (text: string) => T;
  };
}

export interface PickManyItem<T> extends PickItem<T> {
  /** Ticked when the pick opens. */
  readonly picked?: boolean;
}

/** A pick of several rows (ticks): Enter takes the ticked rows. */
export interface PickManyOptions<T> extends StepMeta {
  readonly placeholder: string;
  readonly items: readonly PickManyItem<T>[];
}

export interface ConfirmOptions {
  readonly message: string;
  readonly detail?: string;
  /** Button labels; the answer is the label picked, or undefined for Cancel / Escape. */
  readonly actions: readonly string[];
  /** A modal dialog (default) or a notification. */
  readonly modal?: boolean;
  readonly severity?: 'info' | 'warning' | 'error';
}

export interface Prompter {
  input(options: InputOptions): Promise<Answer<string>>;
  pick<T>(options: PickOptions<T>): Promise<Answer<T>>;
  /** The values of the rows ticked (possibly none) when Enter was pressed. */
  pickMany<T>(options: PickManyOptions<T>): Promise<Answer<T[]>>;
  confirm(options: ConfirmOptions): Promise<string | undefined>;
}

/** The text an input box opens with (a quick pick's filter: `value` undefined): the draft, else the value. */
export function openingText(o: { readonly value?: string; readonly draft?: string }): string {
  return o.draft ?? o.value ?? '';
}

/** Back or cancel from a box that opened with `opened` and holds `text` now (`typed` only when they differ). */
export function leaving(kind: 'back' | 'cancel', text: string, opened: string): Answer<never> {
  return text === opened ? { kind } : { kind, typed: text };
}

/** A label with a codicon in front (`$(key) id_ed25519.pub`): the icon is not text to translate. */
export const withIcon = (icon: string, label: string): string => `$(${icon}) ${label}`;
