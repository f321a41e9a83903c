/**
 * The object-storage credentials as the writers take them, and the checks every writer applies to
 * names it puts into a user's file (an AWS profile, an rclone remote).
 */
import * as l10n from '@vscode/l10n';
import { ConfigError } from './errors';

/** Environment variables as read (process.env or a test's copy). */
export type Env = Readonly<Record<string, string | undefined>>;

export interface StorageCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** `https://…`, the S3-compatible endpoint. */
  readonly endpoint: string;
  readonly region: string;
}

/** The profile / remote name the service's configure answers use. */
export const DEFAULT_PROFILE = 'tp';

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+@-]{0,63}$/;

/** A message when `name` cannot be a section name we write, else undefined. */
export function validateSectionName(name: string): string | undefined {
  if (name.trim() === '') return l10n.t('The name is empty.');
  if (!NAME.test(name)) {
    return l10n.t(
      'Use up to 64 letters, digits and _ . + @ - (not starting with - . + or @), without spaces or brackets.',
    );
  }
  if (name === 'default')
    return l10n.t('TensorPool never writes the default profile; choose a name of its own, for example "tp".');
  return undefined;
}

export function assertSectionName(name: string, what: string): void {
  const problem = validateSectionName(name);
  if (problem)
    throw new ConfigError(
      'invalid-value',
      l10n.t('"{0}" cannot be used as {1}: {2}', name.replace(/[^\x20-\x7e]/g, '?'), what, problem),
    );
}
