// What a UI test gets, and what a UI test file exports. The harness (test/harness/runUi.ts) runs every
// out/test/ui/*.ui.js in name order, each test in order, in one workbench window. A file's tests build on
// each other; a file does not build on another: its first test sets up what it needs (given.ts: signed in,
// object storage enabled, a cluster), so any file runs alone or after any other.
import type { LocalEngine } from '../harness/engine';
import type { UserKey } from '../harness/userKey';
import type { PseudoText } from './pseudoCheck';
import type { Workbench } from './workbench';

export interface UiContext {
  workbench: Workbench;
  engine: LocalEngine;
  /** The workspace folder the window shows (a UI test may put files there). */
  workspace: string;
  /** The HOME the extension host runs with (a throwaway one: the extension's ~/.ssh is there). */
  home: string;
  /** The user's own key, in the agent code-server's environment names (harness/userKey.ts). */
  userKey: UserKey;
  /** Short VS Code version name, e.g. "1.100". */
  vscode: string;
  log(message: string): void;
  /** In the pseudo-localised window only: English text -> what the window shows instead. */
  pseudo?: PseudoText;
}

export interface UiTest {
  name: string;
  run(ctx: UiContext): Promise<void>;
}
