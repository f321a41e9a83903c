/**
 * "Copy as environment variables": the alternative to writing config files, which writes nothing.
 * Renders the variables as `export` lines for POSIX shells or `$env:` lines for PowerShell, quoted
 * so that any value is taken literally.
 */
import * as l10n from '@vscode/l10n';
import type { StorageCredentials } from './credentials';
import { ConfigError } from './errors';
import { hasControlChars } from './text';

export type Shell = 'posix' | 'powershell';
export type EnvVar = readonly [name: string, value: string];

/**
 * The AWS SDK/CLI variables. AWS_REGION is there as well as AWS_DEFAULT_REGION because the
 * JavaScript and Go SDKs read only the former.
 */
export function awsEnvironment(c: StorageCredentials): EnvVar[] {
  return [
    ['AWS_ACCESS_KEY_ID', c.accessKeyId],
    ['AWS_SECRET_ACCESS_KEY', c.secretAccessKey],
    ['AWS_DEFAULT_REGION', c.region],
    ['AWS_REGION', c.region],
    ['AWS_ENDPOINT_URL', c.endpoint],
  ];
}

/** rclone's environment-defined remote (`RCLONE_CONFIG_<NAME>_<OPTION>`), usable as `<name>:` without a config file. */
export function rcloneEnvironment(remote: string, c: StorageCredentials): EnvVar[] {
  const prefix = `RCLONE_CONFIG_${remote.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_`;
  return [
    ['TYPE', 's3'],
    ['PROVIDER', 'Other'],
    ['ACCESS_KEY_ID', c.accessKeyId],
    ['SECRET_ACCESS_KEY', c.secretAccessKey],
    ['ENDPOINT', c.endpoint],
    ['REGION', c.region],
  ].map(([k, v]) => [prefix + k, v] as const);
}

function quote(value: string, shell: Shell): string {
  return shell === 'posix'
    ? `'${value.replace(/'/g, `'\\''`)}'`
    : `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

/** One line per variable, `\n`-separated with a final newline. */
export function renderEnvironment(vars: readonly EnvVar[], shell: Shell): string {
  return (
    vars
      .map(([name, value]) => {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
          throw new ConfigError(
            'invalid-value',
            l10n.t('"{0}" is not a valid environment variable name.', name),
          );
        if (hasControlChars(value))
          throw new ConfigError(
            'invalid-value',
            l10n.t('the value of {0} contains a line break or another control character.', name),
          );
        return shell === 'posix'
          ? `export ${name}=${quote(value, shell)}`
          : `$env:${name} = ${quote(value, shell)}`;
      })
      .join('\n') + '\n'
  );
}
