/**
 * Notebooks on TensorPool nodes (issue 42): all of it loads with the first `.ipynb` opened (dist/notebooks.js,
 * onUse/) or the first notebook command; activation only watches for that and registers the commands.
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import type * as M from './onUse/notebooks';

type Deps = Omit<M.NotebookDeps, 'log' | 'prompts' | 'workspaceState'>;

export function setupNotebooks(core: Core, deps: Deps): () => M.Notebooks {
  let loaded: M.Notebooks | undefined;
  const load = () => {
    if (loaded) return loaded;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
    const m = require('./onUse/notebooks.js') as typeof M;
    const { log, prompts, workspaceState } = core;
    loaded = m.createNotebooks({ ...deps, log, prompts, workspaceState });
    core.own(loaded);
    return loaded;
  };
  const ipynb = (n: vscode.NotebookDocument) => n.notebookType === 'jupyter-notebook';
  if (vscode.workspace.notebookDocuments.some(ipynb)) load();
  core.own(
    vscode.workspace.onDidOpenNotebookDocument((n) => void (ipynb(n) && load())),
    vscode.commands.registerCommand(Commands.restartKernel, () => load().restartCommand()),
    vscode.commands.registerCommand(Commands.shutDownKernel, () => load().shutDownCommand()),
    vscode.commands.registerCommand(Commands.stopJupyter, (arg) => load().stopJupyterCommand(arg)),
  );
  return load;
}
