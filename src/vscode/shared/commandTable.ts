/**
 * A feature's command table: the commands whose work is in its actions, which load on first use (the
 * actions bundle, dist/actions.js). Each feature owns its table (e.g. `volumes/volumeCommands.ts`), typed
 * on the part of the actions it uses; the composition root (src/vscode/app/) registers every table at
 * activation, like every other command (package.json contributes them). The first one invoked loads the
 * actions, and each returns what its action returns (tests read it).
 */
import * as vscode from 'vscode';

/** A command id and what it runs on the actions `A` (with the command's arguments). */
export type ActionCommand<A> = readonly [id: string, run: (actions: A, ...args: never[]) => unknown];

/** Register each command of the tables to run on the actions, once they are loaded. */
export function registerActionCommands<A>(
  actions: () => Promise<A>,
  ...tables: ReadonlyArray<readonly ActionCommand<A>[]>
): vscode.Disposable[] {
  return tables
    .flat()
    .map(([id, run]) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) =>
        actions().then((a) => (run as (actions: A, ...args: unknown[]) => unknown)(a, ...args)),
      ),
    );
}
