// What the extension shows the user, seen from inside the extension host: every notification text
// (error, warning, information), every quick input it opens (so a test can type into the real box
// and press Enter), and every unhandled rejection or uncaught exception in the host.
//
// The test modules live inside the extension's folder, so `require('vscode')` gives them the same
// API object the extension uses; wrapping its functions here is seen by the extension's calls.
import * as vscode from 'vscode';

export interface Notification {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly items: string[];
}

export interface HostProblem {
  readonly kind: 'unhandledRejection' | 'uncaughtException';
  readonly text: string;
  /** The stack points into the extension (dist/ or out/src/), or the reason is one of its API errors. */
  readonly ours: boolean;
}

export const notifications: Notification[] = [];
export const inputBoxes: vscode.InputBox[] = [];
export const quickPicks: Array<vscode.QuickPick<vscode.QuickPickItem>> = [];
export const problems: HostProblem[] = [];
/** Whether the wrappers are in force (checked by a test, so a change in VS Code cannot make the spies
 * silently blind). */
export let installed = false;

const REPO_MARKERS = ['/dist/extension.js', '/dist/api.js', '/out/src/'];

function isOurs(reason: unknown): boolean {
  const text = reason instanceof Error ? `${reason.stack ?? ''}` : String(reason);
  if (REPO_MARKERS.some((m) => text.includes(m))) return true;
  return (
    !!reason &&
    typeof reason === 'object' &&
    typeof (reason as { kind?: unknown }).kind === 'string' &&
    'mayHaveReachedServer' in reason
  );
}

export function install(): void {
  if (installed) return;
  const w = vscode.window as unknown as Record<string, unknown>;
  const wrap = (
    name: 'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage',
    severity: Notification['severity'],
  ) => {
    const original = vscode.window[name] as (...args: unknown[]) => Thenable<unknown>;
    w[name] = (...args: unknown[]) => {
      const items = args.slice(1).filter((a): a is string => typeof a === 'string');
      notifications.push({ severity, message: String(args[0]), items });
      return original.apply(vscode.window, args);
    };
  };
  wrap('showErrorMessage', 'error');
  wrap('showWarningMessage', 'warning');
  wrap('showInformationMessage', 'info');
  const createInputBox = vscode.window.createInputBox;
  w.createInputBox = () => {
    const box = createInputBox.call(vscode.window);
    inputBoxes.push(box);
    return box;
  };
  const createQuickPick = vscode.window.createQuickPick;
  w.createQuickPick = () => {
    const qp = createQuickPick.call(vscode.window);
    quickPicks.push(qp);
    return qp;
  };
  process.on('unhandledRejection', (reason) => {
    problems.push({
      kind: 'unhandledRejection',
      text: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason),
      ours: isOurs(reason),
    });
  });
  process.on('uncaughtException', (err) => {
    problems.push({ kind: 'uncaughtException', text: err.stack ?? err.message, ours: isOurs(err) });
  });
  installed =
    vscode.window.showErrorMessage !== undefined &&
    (vscode.window as unknown as Record<string, unknown>).createInputBox !== createInputBox;
}

/** Notifications since `mark` (an index from `notifications.length`). */
export function since(mark: number): Notification[] {
  return notifications.slice(mark);
}
