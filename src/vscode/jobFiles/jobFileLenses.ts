/**
 * The lenses at the top of a job file: Run on Cluster… always, and Show Last Run (follow the job last
 * started from this file) once there is one. They only name commands; the work loads on first use.
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { JobFileLensSource } from './jobFileSetup';
import type { WorkspaceState } from '../shared/storedState';

/** The key a job file is remembered under (the same as the run wizard's last cluster). */
export function jobFileKey(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export function jobRunLenses(workspaceState: WorkspaceState): JobFileLensSource {
  return (document) => {
    const last = workspaceState.get('tensorpool.jobRuns', {})[jobFileKey(document.uri)];
    return [
      {
        title: vscode.l10n.t('$(play) Run on Cluster…'),
        command: Commands.runJobFile,
        arguments: [document.uri],
      },
      ...(last
        ? [
            {
              title: vscode.l10n.t('Show Last Run'),
              command: Commands.followJob,
              arguments: [last],
              tooltip: vscode.l10n.t('Follow job {0}', last),
            },
          ]
        : []),
    ];
  };
}
