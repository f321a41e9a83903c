/**
 * The text a new job file starts with. Normally the service's own template (`GET /job/init`,
 * `empty_tp_config`), so it follows the service's format as it changes; the built-in one below is only
 * for when that cannot be had: signed out, offline, or the service failed. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';

/** Used only when the service's template cannot be fetched (the user is told so). Keep it a valid job
 *  file: `commands`, `outputs`, `ignore` (spec: "Jobs"), each an array of strings. */
// eslint-disable-next-line tensorpool/l10n -- the text of a job file (TOML the TensorPool CLI and service read)
export const BUILT_IN_JOB_TEMPLATE = `# TensorPool job file: run it on a cluster with "Run on Cluster…".
# (Written from the extension's built-in template because the TensorPool service's template
# could not be fetched; the service validates the file when the job is submitted.)

# Shell commands run in order on the cluster, in a fresh Python virtual environment,
# from a copy of this file's folder.
commands = [
  "pip install -r requirements.txt",
  "python main.py",
]

# Files, folders or globs the job produces that you want to pull back afterwards.
outputs = [
  "checkpoints/",
  "*.log",
]

# Files, folders or globs not to upload with the project.
ignore = [
  ".venv/",
  "__pycache__/",
  ".git/",
]
`;

export type TemplateSource = 'service' | 'built-in';

export interface ResolvedTemplate {
  readonly text: string;
  readonly source: TemplateSource;
  /** Why the built-in template was used (for the user), when it was. */
  readonly reason?: string;
}

/**
 * The service's template when signed in and it answers with text, else the built-in one with the
 * reason. `fetchTemplate` undefined = no way to ask the service (yet).
 */
export async function resolveJobTemplate(opts: {
  readonly signedIn: boolean;
  readonly fetchTemplate?: () => Promise<string>;
}): Promise<ResolvedTemplate> {
  if (!opts.signedIn) {
    return {
      text: BUILT_IN_JOB_TEMPLATE,
      source: 'built-in',
      reason: l10n.t('you are not signed in to TensorPool'),
    };
  }
  if (!opts.fetchTemplate) {
    return {
      text: BUILT_IN_JOB_TEMPLATE,
      source: 'built-in',
      reason: l10n.t('this version cannot ask the service for its template yet'),
    };
  }
  try {
    const text = await opts.fetchTemplate();
    if (typeof text === 'string' && text.trim() !== '') return { text, source: 'service' };
    return {
      text: BUILT_IN_JOB_TEMPLATE,
      source: 'built-in',
      reason: l10n.t('the service sent an empty template'),
    };
  } catch (err) {
    const why = err instanceof Error && err.message ? err.message : String(err);
    return {
      text: BUILT_IN_JOB_TEMPLATE,
      source: 'built-in',
      reason: l10n.t("the service's template could not be fetched ({0})", why),
    };
  }
}
