/**
 * The job-file feature's code, bundled on its own as dist/jobFiles.js (esbuild.mjs) and required by
 * jobFileSetup.ts on the first job file or the first New Job File: the checker with its TOML parser,
 * the diagnostics, the CodeLens lenses and the New Job File command. The activation bundle holds
 * only the registrations.
 */
import * as vscode from 'vscode';
import { JobFileDiagnostics } from './jobFileDiagnostics';
import { newJobFile, type NewJobFileDeps, type NewJobFileResult } from './newJobFile';

/** Run on Cluster… (dist/actions.js) asks this bundle whether a job file can be sent, and Sync Folder to Node
 *  what a job file's upload leaves out (keeps smol-toml here). */
export { jobFileIgnores, jobFileRefusal } from '../../../model/jobFile';

/** Lenses another feature adds at the top of every job file (e.g. Run on Cluster…). */
export type JobFileLensSource = (document: vscode.TextDocument) => readonly vscode.Command[];

export interface JobFilesDeps extends NewJobFileDeps {
  /** The lens sources registered so far (read on each request). */
  readonly lensSources: () => Iterable<JobFileLensSource>;
  /** Ask VS Code for the lenses again. */
  readonly lensesChanged: () => void;
}

const TOP: vscode.Range = new vscode.Range(0, 0, 0, 0);

export class JobFiles implements vscode.Disposable {
  readonly diagnostics = new JobFileDiagnostics();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly deps: JobFilesDeps) {
    this.subscription = this.diagnostics.onDidChange(() => deps.lensesChanged());
  }

  /** The lenses at the top of a job file: the registered sources', then its problem count when it has
   *  problems (opens the Problems panel). */
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    for (const source of this.deps.lensSources()) {
      for (const command of source(document)) lenses.push(new vscode.CodeLens(TOP, command));
    }
    const { errors, warnings } = this.diagnostics.counts(document.uri);
    if (errors + warnings > 0) {
      const parts = [
        errors === 0 ? '' : errors === 1 ? vscode.l10n.t('1 error') : vscode.l10n.t('{0} errors', errors),
        warnings === 0
          ? ''
          : warnings === 1
            ? vscode.l10n.t('1 warning')
            : vscode.l10n.t('{0} warnings', warnings),
      ];
      lenses.push(
        new vscode.CodeLens(TOP, {
          title: `$(${errors ? 'error' : 'warning'}) ${parts.filter(Boolean).join(', ')}`,
          tooltip: vscode.l10n.t('Show the problems of this job file'),
          command: 'workbench.actions.view.problems',
        }),
      );
    }
    return lenses;
  }

  newJobFile(arg?: unknown): Promise<NewJobFileResult | undefined> {
    return newJobFile(this.deps, arg);
  }

  dispose(): void {
    this.subscription.dispose();
    this.diagnostics.dispose();
  }
}

export function createJobFiles(deps: JobFilesDeps): JobFiles {
  return new JobFiles(deps);
}
