/**
 * The Get Started walkthrough (package.json contributes.walkthroughs): opened once, after the first
 * activation, and again only on request (TensorPool: Open Walkthrough). Whether it was offered is kept in
 * globalState (tensorpool.walkthroughOffered); VS Code's own "open walkthroughs on install" setting
 * (workbench.welcomePage.walkthroughs.openOnInstall, machine-scoped) is respected. No network I/O.
 */
import * as vscode from 'vscode';
import { Commands } from './commands';
import type { StoredState } from './storedState';

const WALKTHROUGH_ID = 'tensorpool.tensorpool-vscode#gettingStarted';

/** Open the walkthrough; `inactive` opens it behind the active editor (as VS Code's own open-on-install
 *  does while you are typing in an editor). */
/** The palette's Open Walkthrough. */
export function registerWalkthroughCommand(): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.openWalkthrough, () => openWalkthrough(false));
}

function openWalkthrough(inactive = false): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, { inactive });
}

/** Open the walkthrough if it was never offered (and the user lets walkthroughs open on install).
 *  Returns whether it was opened. */
export async function openWalkthroughOnce(state: StoredState): Promise<boolean> {
  if (state.get('tensorpool.walkthroughOffered', false)) return false;
  await state.update('tensorpool.walkthroughOffered', true);
  const allowed = vscode.workspace
    .getConfiguration('workbench.welcomePage')
    .get<boolean>('walkthroughs.openOnInstall', true);
  if (!allowed) return false;
  await openWalkthrough(vscode.window.activeTextEditor !== undefined);
  return true;
}
