/**
 * TensorPool: New Job File. Writes a job file into a workspace folder (job.tp.toml, then job2.tp.toml,
 * ...; never over an existing file, never half-written) and opens it. The text is the service's
 * template (`GET /job/init`) when it can be had, else the built-in one, and then the user is told why
 * (a notification, not a dialog: working offline is a normal case). From the Explorer's context menu
 * the file goes into the folder clicked; several workspace folders: the user picks one; none: the
 * user is offered to open one. Part of the lazily loaded dist/jobFiles.js.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createNewFile } from '../../../config/newFile';
import { jobFileNames } from '../../../model/jobFileName';
import { resolveJobTemplate, type TemplateSource } from '../../../model/jobTemplate';
import type { Prompter } from '../../../wizards/prompter';
import { notices } from '../../shared/notices';

export interface NewJobFileDeps {
  readonly prompts: () => Prompter;
  readonly signedIn: () => boolean;
  /** The service's template (`GET /job/init` → `empty_tp_config`); undefined until the client has it. */
  readonly fetchTemplate?: () => Promise<string>;
}

export interface NewJobFileResult {
  /** The file written (a local path). */
  readonly path: string;
  readonly source: TemplateSource;
}

/** Where the new file goes: the Explorer folder the command was run on, else a workspace folder. */
async function targetFolder(prompter: Prompter, arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') {
    const stat = await vscode.workspace.fs.stat(arg).then(undefined, () => undefined);
    if (stat) return stat.type & vscode.FileType.Directory ? arg : vscode.Uri.joinPath(arg, '..');
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 1) return folders[0].uri;
  if (folders.length === 0) {
    const openFolder = vscode.l10n.t('Open Folder…');
    const answer = await prompter.confirm({
      message: vscode.l10n.t(
        'A job file lives in your project folder, next to the code it runs. Open a folder first.',
      ),
      actions: [openFolder],
      modal: false,
    });
    if (answer === openFolder) await vscode.commands.executeCommand('workbench.action.files.openFolder');
    return undefined;
  }
  const picked = await prompter.pick({
    title: vscode.l10n.t('New Job File'),
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: vscode.l10n.t('Which folder should the job file go into?'),
    items: folders.map((f) => ({ label: f.name, description: f.uri.fsPath, value: f.uri })),
  });
  return picked.kind === 'value' ? picked.value : undefined;
}

export async function newJobFile(deps: NewJobFileDeps, arg?: unknown): Promise<NewJobFileResult | undefined> {
  const folder = await targetFolder(deps.prompts(), arg);
  if (!folder) return undefined;
  const template = await resolveJobTemplate({ signedIn: deps.signedIn(), fetchTemplate: deps.fetchTemplate });
  let written: string;
  try {
    written = await createNewFile(folder.fsPath, jobFileNames(), template.text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    void notices.showErrorMessage(
      vscode.l10n.t('Could not create a job file in {0}: {1}', folder.fsPath, why),
    );
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(written));
  await vscode.window.showTextDocument(document);
  if (template.source === 'built-in') {
    void notices.showInformationMessage(
      vscode.l10n.t(
        "{0} was written from the extension's built-in template: {1}.",
        path.basename(written),
        template.reason ?? vscode.l10n.t('the service did not answer'),
      ),
    );
  }
  return { path: written, source: template.source };
}
