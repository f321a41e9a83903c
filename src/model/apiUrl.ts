/**
 * Which API base URL is in use: the user's `tensorpool.apiUrl` at any settings level wins, then
 * TENSORPOOL_ENGINE from the environment (as the official CLI reads it), then the default. Pure (the
 * VS Code layer passes what `inspect()` returned), so it is unit-tested in Node.
 */
export const DEFAULT_API_URL = 'https://engine.tensorpool.dev';

export type ApiUrlSource = 'setting' | 'TENSORPOOL_ENGINE' | 'default';

/** The per-level values of a setting, as `WorkspaceConfiguration.inspect()` returns them. */
export type SettingLevels = Partial<Record<string, unknown>> | undefined;

const LEVELS = [
  'workspaceFolderValue',
  'workspaceValue',
  'globalValue',
  'globalLocalValue',
  'globalRemoteValue',
];

export function pickApiUrl(
  seen: SettingLevels,
  env: Readonly<Record<string, string | undefined>>,
): { url: string; source: ApiUrlSource } {
  for (const level of LEVELS) {
    const v = seen?.[level];
    if (typeof v === 'string' && v.trim() !== '') return { url: v.trim(), source: 'setting' };
  }
  const fromEnv = env.TENSORPOOL_ENGINE?.trim();
  if (fromEnv) return { url: fromEnv, source: 'TENSORPOOL_ENGINE' };
  return { url: DEFAULT_API_URL, source: 'default' };
}
