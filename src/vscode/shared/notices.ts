/**
 * The one place the extension's notifications are shown. A notification renders `[words](https://…)`,
 * `(command:…)` and `(file:…)` links, and its messages carry the service's and the nodes' text (a refused
 * command, a pull plan's message, a WebSocket close reason, ssh's stderr, a node's banner): every message
 * goes through inertLinks here, so no such text can put a live link in front of the user. The linter
 * (eslint.config.mjs) refuses `vscode.window.show…Message` anywhere else.
 */
import * as vscode from 'vscode';
import { inertLinks } from '../../model/shownText';

type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;
type Kind = 'showInformationMessage' | 'showWarningMessage' | 'showErrorMessage';
/** vscode.window's own method (looked up at each call, as a method of vscode.window), links made inert. */
const inert =
  (kind: Kind): Show =>
  (message, ...rest) =>
    (vscode.window as unknown as Record<Kind, Show>)[kind].call(
      vscode.window,
      inertLinks(String(message)),
      ...rest,
    );

export const notices = {
  showInformationMessage: inert('showInformationMessage') as typeof vscode.window.showInformationMessage,
  showWarningMessage: inert('showWarningMessage') as typeof vscode.window.showWarningMessage,
  showErrorMessage: inert('showErrorMessage') as typeof vscode.window.showErrorMessage,
};
