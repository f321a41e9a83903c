/**
 * The rclone remote for TensorPool object storage: a `[tp]` section of type s3 in rclone.conf.
 * Only our remote is touched. An encrypted rclone.conf is refused (only rclone can edit it; the
 * environment-variable alternative in env.ts works there). rclone reads the file with a flat INI
 * parser, so no continuation lines.
 */
import * as l10n from '@vscode/l10n';
import { join } from 'node:path';
import type { AtomicWriteOptions, WriteResult } from './atomicWrite';
import { assertSectionName, DEFAULT_PROFILE, type Env, type StorageCredentials } from './credentials';

export type { Env } from './credentials';
import { ConfigError } from './errors';
import { FLAT_DIALECT, readSection, type IniEntry } from './ini';
import {
  previewIniRemoval,
  previewIniWrite,
  removeIniSection,
  writeIniSection,
  type IniPreview,
  type IniTarget,
} from './iniFile';

export const RCLONE_KEYS = [
  'type',
  'provider',
  'access_key_id',
  'secret_access_key',
  'endpoint',
  'region',
] as const;

export interface RclonePathOptions {
  /** Defaults to process.platform. */
  readonly platform?: NodeJS.Platform;
  /** When given, an existing file among rclone's candidates wins, as in rclone itself. */
  readonly exists?: (path: string) => boolean;
  /** rclone also reads `rclone.conf` next to its executable, first of all. */
  readonly rcloneDir?: string;
}

/**
 * The config file rclone uses: $RCLONE_CONFIG; else the first existing of [rclone.conf beside the
 * binary], %APPDATA%/rclone/rclone.conf (Windows), $XDG_CONFIG_HOME/rclone/rclone.conf,
 * ~/.config/rclone/rclone.conf, ~/.rclone.conf; else where rclone would create it (APPDATA on
 * Windows, XDG_CONFIG_HOME when set, else ~/.config). `rclone config file` prints the same answer.
 */
export function rcloneConfigPath(env: Env, home: string, opts: RclonePathOptions = {}): string {
  const explicit = env.RCLONE_CONFIG?.trim();
  if (explicit) return explicit;
  const windows = (opts.platform ?? process.platform) === 'win32';
  const appData =
    windows && env.APPDATA?.trim() ? join(env.APPDATA.trim(), 'rclone', 'rclone.conf') : undefined;
  const xdg = env.XDG_CONFIG_HOME?.trim()
    ? join(env.XDG_CONFIG_HOME.trim(), 'rclone', 'rclone.conf')
    : undefined;
  const dotConfig = join(home, '.config', 'rclone', 'rclone.conf');
  const legacy = join(home, '.rclone.conf');
  if (opts.exists) {
    const candidates = [
      opts.rcloneDir && join(opts.rcloneDir, 'rclone.conf'),
      appData,
      xdg,
      dotConfig,
      legacy,
    ];
    const found = candidates.find((p): p is string => !!p && opts.exists!(p));
    if (found) return found;
  }
  return windows ? (appData ?? dotConfig) : (xdg ?? dotConfig);
}

function refuseEncrypted(text: string): void {
  if (/^RCLONE_ENCRYPT_V\d+:/m.test(text)) {
    throw new ConfigError(
      'encrypted-config',
      l10n.t(
        'this rclone configuration is encrypted, so only rclone can change it. Add the remote with `rclone config`, or use the environment variables instead.',
      ),
    );
  }
}

export function rcloneTarget(remote = DEFAULT_PROFILE, label = 'rclone.conf'): IniTarget {
  assertSectionName(remote, l10n.t('an rclone remote name'));
  return {
    label,
    what: l10n.t('remote [{0}]', remote),
    dialect: FLAT_DIALECT,
    ref: { header: remote, matches: (name) => name === remote },
    ownedKeys: RCLONE_KEYS,
    check: refuseEncrypted,
  };
}

/** The remote's entries from typed credentials. */
export function rcloneEntries(c: StorageCredentials): IniEntry[] {
  return [
    { key: 'type', value: 's3' },
    { key: 'provider', value: 'Other' },
    { key: 'access_key_id', value: c.accessKeyId },
    { key: 'secret_access_key', value: c.secretAccessKey },
    { key: 'endpoint', value: c.endpoint },
    { key: 'region', value: c.region },
  ];
}

export interface RcloneConfigureAnswer {
  readonly rclone_config: string;
  readonly remote_name?: string;
}

/** The entries from GET /object-storage/configure/rclone, whose text holds the whole remote. */
export function rcloneEntriesFromConfigure(answer: RcloneConfigureAnswer): IniEntry[] {
  const target = rcloneTarget(answer.remote_name?.trim() || DEFAULT_PROFILE);
  const entries = readSection(answer.rclone_config, target.ref, target.dialect);
  if (!entries?.length)
    throw new ConfigError(
      'missing-section',
      l10n.t("the service's rclone_config has no {0} section with keys; it cannot be applied.", target.what),
    );
  return entries;
}

/** What writing the remote would change; `label` names the file in the summary. */
export function previewRcloneRemote(
  old: string | undefined,
  remote: string,
  entries: readonly IniEntry[],
  label?: string,
): IniPreview {
  return previewIniWrite(rcloneTarget(remote, label), old, entries);
}

/** What removing the remote would change. */
export function previewRcloneRemoval(old: string | undefined, remote: string, label?: string): IniPreview {
  return previewIniRemoval(rcloneTarget(remote, label), old);
}

export async function writeRcloneRemote(
  path: string,
  remote: string,
  entries: readonly IniEntry[],
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return writeIniSection(path, rcloneTarget(remote, path), entries, opts);
}

export async function removeRcloneRemote(
  path: string,
  remote: string,
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return removeIniSection(path, rcloneTarget(remote, path), opts);
}
