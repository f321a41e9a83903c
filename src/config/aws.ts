/**
 * The AWS CLI profile for TensorPool object storage: `[tp]` in ~/.aws/credentials with the key
 * pair, `[profile tp]` in ~/.aws/config with region and endpoint_url (AWS CLI v2.13+ / boto3
 * 1.28+ read endpoint_url from the profile). Only our profile is touched; in the config file a
 * `[tp]` section without `profile ` is someone else's. We never write `[default]`.
 */
import * as l10n from '@vscode/l10n';
import { join } from 'node:path';
import { readTextFile, type AtomicWriteOptions, type WriteResult } from './atomicWrite';
import { assertSectionName, DEFAULT_PROFILE, type Env, type StorageCredentials } from './credentials';

export type { Env } from './credentials';
import { ConfigError } from './errors';
import { CONFIGPARSER_DIALECT, readSection, type IniEntry, type SectionRef } from './ini';
import {
  previewIniRemoval,
  previewIniWrite,
  removeIniSection,
  writeIniSection,
  type IniPreview,
  type IniTarget,
} from './iniFile';

export interface AwsPaths {
  readonly credentials: string;
  readonly config: string;
}

export interface AwsEntries {
  readonly credentials: readonly IniEntry[];
  readonly config: readonly IniEntry[];
}

export const AWS_CREDENTIALS_KEYS = ['aws_access_key_id', 'aws_secret_access_key'] as const;
export const AWS_CONFIG_KEYS = ['region', 'endpoint_url', 'output', 's3.addressing_style'] as const;

function expandHome(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') || path.startsWith('~\\') ? join(home, path.slice(1)) : path;
}

/** Where the AWS CLI reads its files: AWS_SHARED_CREDENTIALS_FILE / AWS_CONFIG_FILE, else ~/.aws/. */
export function awsPaths(env: Env, home: string): AwsPaths {
  const pick = (name: string, fallback: string): string => {
    const v = env[name]?.trim();
    return v ? expandHome(v, home) : join(home, '.aws', fallback);
  };
  return {
    credentials: pick('AWS_SHARED_CREDENTIALS_FILE', 'credentials'),
    config: pick('AWS_CONFIG_FILE', 'config'),
  };
}

function unquote(s: string): string {
  return s.length >= 2 && (s[0] === '"' || s[0] === "'") && s[s.length - 1] === s[0] ? s.slice(1, -1) : s;
}

/** `[profile tp]` (any spacing, botocore splits the name like a shell); `[tp]` is not a profile in ~/.aws/config. */
function configProfileRef(profile: string): SectionRef {
  return {
    header: `profile ${profile}`,
    matches: (name) => {
      const parts = name.split(/\s+/);
      return parts.length === 2 && parts[0] === 'profile' && unquote(parts[1]) === profile;
    },
  };
}

export function awsCredentialsTarget(profile = DEFAULT_PROFILE, label = '~/.aws/credentials'): IniTarget {
  assertSectionName(profile, l10n.t('an AWS profile name'));
  return {
    label,
    what: l10n.t('profile [{0}]', profile),
    dialect: CONFIGPARSER_DIALECT,
    ref: { header: profile, matches: (name) => name === profile },
    ownedKeys: AWS_CREDENTIALS_KEYS,
    // A session token left in the profile would be sent with our long-term keys and fail every call.
    dropKeys: ['aws_session_token', 'aws_security_token'],
  };
}

export function awsConfigTarget(profile = DEFAULT_PROFILE, label = '~/.aws/config'): IniTarget {
  assertSectionName(profile, l10n.t('an AWS profile name'));
  return {
    label,
    what: `[profile ${profile}]`,
    dialect: CONFIGPARSER_DIALECT,
    ref: configProfileRef(profile),
    ownedKeys: AWS_CONFIG_KEYS,
  };
}

export interface AwsConfigOptions {
  /** `output = …` (json, text, table, yaml); not written when absent. */
  readonly output?: string;
  /** `s3 =` / `addressing_style = …`; not written when absent. */
  readonly addressingStyle?: 'path' | 'virtual' | 'auto';
}

/** The entries both files get from typed credentials (GET /object-storage/credentials). */
export function awsEntries(c: StorageCredentials, opts: AwsConfigOptions = {}): AwsEntries {
  const config: IniEntry[] = [
    { key: 'region', value: c.region },
    { key: 'endpoint_url', value: c.endpoint },
  ];
  if (opts.output) config.push({ key: 'output', value: opts.output });
  if (opts.addressingStyle) config.push({ key: 's3.addressing_style', value: opts.addressingStyle });
  return {
    credentials: [
      { key: 'aws_access_key_id', value: c.accessKeyId },
      { key: 'aws_secret_access_key', value: c.secretAccessKey },
    ],
    config,
  };
}

export interface AwsConfigureAnswer {
  readonly profile_name?: string;
  readonly credentials_file: string;
  readonly config_file: string;
}

/** The entries from GET /object-storage/configure/aws, whose texts hold whole sections for its profile name. */
export function awsEntriesFromConfigure(answer: AwsConfigureAnswer): AwsEntries {
  const profile = answer.profile_name?.trim() || DEFAULT_PROFILE;
  const take = (target: IniTarget, text: string, field: string): IniEntry[] => {
    const entries = readSection(text, target.ref, target.dialect);
    if (!entries?.length) {
      throw new ConfigError(
        'missing-section',
        l10n.t("the service's {0} has no {1} section with keys; it cannot be applied.", field, target.what),
      );
    }
    return entries;
  };
  return {
    credentials: take(awsCredentialsTarget(profile), answer.credentials_file, 'credentials_file'),
    config: take(awsConfigTarget(profile), answer.config_file, 'config_file'),
  };
}

export interface AwsPreview {
  readonly credentials: IniPreview;
  readonly config: IniPreview;
  /** Both summaries, for one confirmation dialog. */
  readonly summary: string[];
}

export interface AwsOldTexts {
  readonly credentials: string | undefined;
  readonly config: string | undefined;
}

/**
 * What writing the profile would change in both files; throws ConfigError when either file cannot
 * be edited. `labels` name the files in the summary (default `~/.aws/credentials`, `~/.aws/config`).
 */
export function previewAwsProfile(
  old: AwsOldTexts,
  profile: string,
  entries: AwsEntries,
  labels?: AwsPaths,
): AwsPreview {
  const credentials = previewIniWrite(
    awsCredentialsTarget(profile, labels?.credentials),
    old.credentials,
    entries.credentials,
  );
  const config = previewIniWrite(awsConfigTarget(profile, labels?.config), old.config, entries.config);
  return { credentials, config, summary: [credentials.summary, config.summary] };
}

/** What removing the profile would change in both files. */
export function previewAwsRemoval(old: AwsOldTexts, profile: string, labels?: AwsPaths): AwsPreview {
  const credentials = previewIniRemoval(awsCredentialsTarget(profile, labels?.credentials), old.credentials);
  const config = previewIniRemoval(awsConfigTarget(profile, labels?.config), old.config);
  return { credentials, config, summary: [credentials.summary, config.summary] };
}

export interface AwsWriteResult {
  readonly credentials: WriteResult;
  readonly config: WriteResult;
}

/**
 * Write both files, each atomically. Both edits are computed (and refused, if either file is
 * unusable) before the first write; the credentials go first, so a failure in between leaves a
 * profile with keys but no endpoint rather than an endpoint without keys.
 */
export async function writeAwsProfile(
  paths: AwsPaths,
  profile: string,
  entries: AwsEntries,
  opts: AtomicWriteOptions = {},
): Promise<AwsWriteResult> {
  const credentialsTarget = awsCredentialsTarget(profile, paths.credentials);
  const configTarget = awsConfigTarget(profile, paths.config);
  previewIniWrite(credentialsTarget, await readTextFile(paths.credentials), entries.credentials);
  previewIniWrite(configTarget, await readTextFile(paths.config), entries.config);
  const credentials = await writeIniSection(paths.credentials, credentialsTarget, entries.credentials, opts);
  const config = await writeIniSection(paths.config, configTarget, entries.config, opts);
  return { credentials, config };
}

/** Remove the profile from both files (only our keys when the user added keys of their own). */
export async function removeAwsProfile(
  paths: AwsPaths,
  profile: string,
  opts: AtomicWriteOptions = {},
): Promise<AwsWriteResult> {
  const credentialsTarget = awsCredentialsTarget(profile, paths.credentials);
  const configTarget = awsConfigTarget(profile, paths.config);
  previewIniRemoval(credentialsTarget, await readTextFile(paths.credentials));
  previewIniRemoval(configTarget, await readTextFile(paths.config));
  return {
    credentials: await removeIniSection(paths.credentials, credentialsTarget, opts),
    config: await removeIniSection(paths.config, configTarget, opts),
  };
}
