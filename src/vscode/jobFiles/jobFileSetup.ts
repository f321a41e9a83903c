/**
 * Wiring of job files (`*.tp.toml`), called once by the composition root. Activation only registers
 * things: the New Job File command, a CodeLens provider for job files and document listeners that
 * look at the file name. The code that parses (smol-toml) and acts is dist/jobFiles.js
 * (src/vscode/jobFiles/onUse/jobFiles.ts, kept out of dist/extension.js by esbuild.mjs), required the first time a
 * job file is open or the command runs.
 *
 * Job files keep the `toml` language (package.json adds `*.tp.toml` to it), so another TOML
 * extension's highlighting and formatting keep working on them; what is ours is chosen by file name.
 */
import * as vscode from 'vscode';
import { isJobFileName } from '../../model/jobFileName';
import type { Prompter } from '../../wizards/prompter';
import { Commands } from '../shared/commands';
import type * as JobFilesModule from './onUse/jobFiles';
import type { JobFileLensSource } from './onUse/jobFiles';

export type { JobFileLensSource } from './onUse/jobFiles';

export interface JobFilesFeature {
  /** Add lenses at the top of every job file (the lead's Run on Cluster… / Show Last Run); dispose to
   *  remove them. A source is called on each lens request, with the job file's document. */
  addLenses(source: JobFileLensSource): vscode.Disposable;
  /** Ask VS Code for the lenses again (e.g. when the jobs of a file changed). */
  refreshLenses(): void;
}

export interface JobFilesSetupDeps {
  readonly prompts: () => Prompter;
  readonly signedIn: () => boolean;
  /** The service's job template (`GET /job/init` → `empty_tp_config`); without it the built-in one. */
  readonly fetchTemplate?: () => Promise<string>;
}

/** Job files we check: on disk (locally or on the remote side) or not yet saved. */
function isJobDocument(document: vscode.TextDocument): boolean {
  const scheme = document.uri.scheme;
  return (scheme === 'file' || scheme === 'untitled') && isJobFileName(document.fileName);
}

export function setupJobFiles(context: vscode.ExtensionContext, deps: JobFilesSetupDeps): JobFilesFeature {
  const sources = new Set<JobFileLensSource>();
  const lensesChanged = new vscode.EventEmitter<void>();
  let loaded: JobFilesModule.JobFiles | undefined;
  const load = (): JobFilesModule.JobFiles => {
    if (loaded) return loaded;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
    const module = require('./onUse/jobFiles.js') as typeof JobFilesModule;
    return (loaded = module.createJobFiles({
      ...deps,
      lensSources: () => sources,
      lensesChanged: () => lensesChanged.fire(),
    }));
  };
  const check = (document: vscode.TextDocument) => {
    if (isJobDocument(document)) load().diagnostics.check(document);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(Commands.newJobFile, (arg?: unknown) => load().newJobFile(arg)),
  );
  // The lens provider and the document listeners are registered right after activation returns.
  setImmediate(() =>
    context.subscriptions.push(
      lensesChanged,
      { dispose: () => loaded?.dispose() },
      vscode.languages.registerCodeLensProvider(
        { pattern: '**/*.tp.toml' },
        {
          onDidChangeCodeLenses: lensesChanged.event,
          provideCodeLenses: (document) =>
            isJobDocument(document) ? load().provideCodeLenses(document) : [],
        },
      ),
      vscode.workspace.onDidOpenTextDocument(check),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && isJobDocument(e.document)) load().diagnostics.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => loaded?.diagnostics.clear(document.uri)),
    ),
  );
  // Job files already open (a restored window): checked after activation returns.
  setImmediate(() => vscode.workspace.textDocuments.forEach(check));

  return {
    addLenses: (source) => {
      sources.add(source);
      lensesChanged.fire();
      return new vscode.Disposable(() => {
        sources.delete(source);
        lensesChanged.fire();
      });
    },
    refreshLenses: () => lensesChanged.fire(),
  };
}
