/**
 * The small interface wizards talk to. In VS Code it is backed by real quick inputs
 * (src/vscode/quickInputPrompter.ts); in tests by scripted answers (test/fixtures/scriptedPrompter.ts),
 * in the spirit of vscode-azuretools' TestUserInput. No `vscode` import here.
 */

export type Answer<T> =
  { readonly kind: 'value'; readonly value: T } | { readonly kind: 'back' } | { readonly kind: 'cancel' };

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
}

export interface InputOptions extends StepMeta {
  readonly prompt: string;
  /** Prefilled text: what the user typed before (Back keeps it), or a default. */
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
  /** Let the user type a value that is not in the list (e.g. another instance type). */
  readonly custom?: {
    readonly label: (text: string) => string;
    readonly validate: (text: string) => Verdict;
    readonly toValue: (text: string) => T;
  };
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
  confirm(options: ConfirmOptions): Promise<string | undefined>;
}
