/**
 * Typed access to the settings: every read of `tensorpool.*` and `http.*` goes through here, with the
 * defaults of settingDefaults.ts. Read on each use (no cache), so a change applies at once.
 */
import * as vscode from 'vscode';
import type { ProxySettings } from '../../api/proxy';
import { pickApiUrl, type ApiUrlSource } from '../../model/apiUrl';
import { MIN_REFRESH_INTERVAL_S, SETTING_DEFAULTS as D, type SettingName } from './settingDefaults';

export interface Settings {
  readonly apiUrl: string;
  readonly imageField: 'container' | 'experimental_container';
  readonly refreshIntervalSeconds: number;
  readonly lowBalanceWarning: number;
  /** Hours of runway (balance ÷ burn rate) under which the status bar warns; 0 = off. */
  readonly lowRunwayWarning: number;
  readonly idleGuard: {
    readonly enabled: boolean;
    readonly thresholdPercent: number;
    readonly periodMinutes: number;
  };
  readonly destroyConfirmation: 'typeName' | 'button';
}

export interface SshSettings {
  readonly user: string;
  readonly port: number;
  readonly mode: 'include' | 'block';
}

function tensorpool(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('tensorpool');
}

/** A setting's value, or its default when unset, empty or of the wrong type. */
function read<K extends SettingName>(c: vscode.WorkspaceConfiguration, name: K): (typeof D)[K] {
  const value = c.get<unknown>(name);
  const fallback = D[name];
  return (
    typeof value === typeof fallback && value !== '' && value !== 0 ? value : fallback
  ) as (typeof D)[K];
}

export function readSettings(): Settings {
  const c = tensorpool();
  return {
    apiUrl: effectiveApiUrl().url,
    imageField:
      c.get<string>('containerField') === 'experimental_container' ? 'experimental_container' : 'container',
    refreshIntervalSeconds: Math.max(
      MIN_REFRESH_INTERVAL_S,
      c.get<number>('refreshInterval', D.refreshInterval),
    ),
    lowBalanceWarning: c.get<number>('lowBalanceWarning', D.lowBalanceWarning),
    lowRunwayWarning: c.get<number>('lowRunwayWarning', D.lowRunwayWarning),
    idleGuard: {
      enabled: c.get<boolean>('idleGuard.enabled', D['idleGuard.enabled']),
      thresholdPercent: c.get<number>('idleGuard.thresholdPercent', D['idleGuard.thresholdPercent']),
      periodMinutes: c.get<number>('idleGuard.periodMinutes', D['idleGuard.periodMinutes']),
    },
    destroyConfirmation: c.get<string>('destroyConfirmation') === 'button' ? 'button' : 'typeName',
  };
}

export function readSshSettings(): SshSettings {
  const c = tensorpool();
  return {
    user: read(c, 'sshUser'),
    port: read(c, 'sshPort'),
    mode: c.get<string>('sshConfigMode', D.sshConfigMode) === 'block' ? 'block' : 'include',
  };
}

/** The AWS profile / rclone remote name to write (not yet validated). */
export function readObjectStorageProfile(): string {
  return read(tensorpool(), 'objectStorageProfile');
}

/** Whether a followed job's log is read for metric lines as it streams. */
export function readJobMetrics(): boolean {
  return tensorpool().get<unknown>('jobMetrics') !== false;
}

/** Switch to keeping our SSH hosts in a marked block of ~/.ssh/config (user settings). */
export function useSshConfigBlock(): Thenable<void> {
  return tensorpool().update('sshConfigMode', 'block', vscode.ConfigurationTarget.Global);
}

/** The base URL in use and where it comes from (setting > TENSORPOOL_ENGINE > default; src/model/apiUrl.ts). */
export function effectiveApiUrl(env: NodeJS.ProcessEnv = process.env): { url: string; source: ApiUrlSource } {
  return pickApiUrl(tensorpool().inspect<string>('apiUrl'), env);
}

/** VS Code's own proxy and certificate settings, which the API client applies to its requests. With
 *  http.proxySupport off VS Code leaves extensions' requests alone (no proxy, no system certificates). */
export function readProxySettings(): ProxySettings {
  const http = vscode.workspace.getConfiguration('http');
  if (http.get<string>('proxySupport') === 'off') return { strictSSL: true, systemCertificates: false };
  const authorization = http.get<string | null>('proxyAuthorization');
  return {
    url: http.get<string>('proxy') || undefined,
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    noProxy: http.get<string[]>('noProxy', []),
    // A secret (a Proxy-Authorization value): only ever handed to the API client, never logged.
    ...(typeof authorization === 'string' && authorization.trim() ? { authorization } : {}),
    systemCertificates: http.get<boolean>('systemCertificates', true),
  };
}

export function affectsApi(e: vscode.ConfigurationChangeEvent): boolean {
  return (
    e.affectsConfiguration('tensorpool.apiUrl') ||
    e.affectsConfiguration('tensorpool.containerField') ||
    e.affectsConfiguration('http.proxy') ||
    e.affectsConfiguration('http.proxyStrictSSL') ||
    e.affectsConfiguration('http.noProxy') ||
    e.affectsConfiguration('http.proxySupport') ||
    e.affectsConfiguration('http.proxyAuthorization') ||
    e.affectsConfiguration('http.systemCertificates')
  );
}

export function affectsRefreshInterval(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('tensorpool.refreshInterval');
}

/** The port on the node Open TensorBoard looks at, and starts TensorBoard on (tensorpool.ports.tensorBoardPort). */
export function readTensorBoardPort(): number {
  const v = read(tensorpool(), 'ports.tensorBoardPort');
  return Number.isInteger(v) && v >= 1 && v <= 65535 ? v : D['ports.tensorBoardPort'];
}

/** Where Open in Browser opens a forwarded port (tensorpool.ports.openIn). */
export function readPortsOpenIn(): 'simpleBrowser' | 'external' | 'ask' {
  const v = tensorpool().get<string>('ports.openIn', D['ports.openIn']);
  return v === 'external' || v === 'ask' ? v : 'simpleBrowser';
}

export interface SyncSettings {
  /** Patterns left out of a folder sync, besides each .gitignore. */
  readonly exclude: readonly string[];
  /** How long after the last change a batch is sent. */
  readonly delayMs: number;
  /** Whether a folder sync goes on watching after the first. */
  readonly watch: boolean;
}

/** Sync Folder to Node's settings (tensorpool.sync.*). */
export function readSyncSettings(): SyncSettings {
  const c = tensorpool();
  const exclude = c.get<unknown>('sync.exclude');
  const delay = c.get<unknown>('sync.delayMs');
  return {
    exclude: Array.isArray(exclude)
      ? exclude.filter((e): e is string => typeof e === 'string')
      : D['sync.exclude'],
    delayMs: typeof delay === 'number' && delay >= 0 && delay <= 60_000 ? delay : D['sync.delayMs'],
    watch: c.get<boolean>('sync.watch', D['sync.watch']) !== false,
  };
}

/** The command that starts a Jupyter server on a node for notebooks (tensorpool.notebooks.jupyterCommand). */
export function readJupyterCommand(): string {
  const v = tensorpool().get<unknown>('notebooks.jupyterCommand');
  return typeof v === 'string' && v.trim() && !/[\r\n\0]/.test(v) ? v.trim() : D['notebooks.jupyterCommand'];
}
