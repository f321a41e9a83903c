/**
 * The Get Started walkthrough (package.json contributes.walkthroughs): opened once, after the first
 * activation, and again only on request (TensorPool: Open Walkthrough). Whether it was offered is kept in
 * globalState (tensorpool.walkthroughOffered); VS Code's own "open walkthroughs on install" setting
 * (workbench.welcomePage.walkthroughs.openOnInstall, machine-scoped) is respected. No network I/O.
 */
import * as vscode from 'vscode';
import { Commands } from './commands';
import type { ContextKey } from './contextKeys';
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

/** The steps that are a state rather than an action, by the context key that holds the state. Their
 *  `onContext:` completion events in package.json stay, but VS Code (1.100 and 1.139, desktop and
 *  code-server) does not tick them when the key changes, nor when the walkthrough opens with the key
 *  already set: a user who signed in before opening the walkthrough saw "Sign in" unticked. So the
 *  extension ticks them itself, through the walkthrough service's own command. */
const STATE_STEPS: Partial<Record<ContextKey, (value: unknown) => string | undefined>> = {
  'tensorpool.account': (v) => (v === 'signedIn' ? 'signIn' : undefined),
  'tensorpool.hasClusters': (v) => (v === true ? 'createCluster' : undefined),
  'tensorpool.objectStorage': (v) => (v === 'enabled' ? 'enableObjectStorage' : undefined),
};

const ticked = new Set<string>();

/** Tick the walkthrough step whose state this context key now holds (once per window). The walkthrough
 *  service keeps the tick even when it has not read the walkthrough yet (it throws "unknown step" after
 *  saving it), so the error is expected and dropped. */
export function tickStateStep(key: ContextKey, value: unknown): void {
  const step = STATE_STEPS[key]?.(value);
  if (!step || ticked.has(step)) return;
  ticked.add(step);
  void vscode.commands
    .executeCommand('welcome.markStepComplete', `${WALKTHROUGH_ID}#${step}`)
    .then(undefined, () => undefined);
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
