/**
 * The `tensorpool.*` settings this extension reads, with their defaults: the one place the code takes a
 * default from (test/unit/stateTables.test.ts checks them against package.json's contributes.configuration).
 * No `vscode` import, so plain Node tests can read it.
 */
import { DEFAULT_API_URL } from '../../model/apiUrl';

export const SETTING_DEFAULTS = {
  apiUrl: DEFAULT_API_URL,
  containerField: 'container',
  refreshInterval: 60,
  lowBalanceWarning: 20,
  lowRunwayWarning: 24,
  'idleGuard.enabled': true,
  'idleGuard.thresholdPercent': 5,
  'idleGuard.periodMinutes': 30,
  destroyConfirmation: 'typeName',
  sshUser: 'ubuntu',
  sshPort: 22,
  sshConfigMode: 'include',
  'ports.openIn': 'simpleBrowser',
  'ports.tensorBoardPort': 6006,
  objectStorageProfile: 'tp',
  jobMetrics: true,
  'sync.exclude': ['.git', 'node_modules', '.venv', '__pycache__', 'outputs'] as readonly string[],
  'sync.delayMs': 500,
  'sync.watch': true,
  'notebooks.jupyterCommand': 'jupyter-server',
} as const;

export type SettingName = keyof typeof SETTING_DEFAULTS;

/** The shortest cluster-list refresh interval honoured, in seconds (package.json's minimum). */
export const MIN_REFRESH_INTERVAL_S = 10;
