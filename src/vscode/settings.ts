/** Typed access to the `tensorpool.*` settings. */
import * as vscode from 'vscode';
import { DEFAULT_API_URL, pickApiUrl, type ApiUrlSource } from '../model/apiUrl';

export { DEFAULT_API_URL };

export interface Settings {
  readonly apiUrl: string;
  readonly imageField: 'container' | 'experimental_container';
  readonly refreshIntervalSeconds: number;
  readonly lowBalanceWarning: number;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('tensorpool');
  return {
    apiUrl: effectiveApiUrl().url,
    imageField:
      c.get<string>('containerField') === 'experimental_container' ? 'experimental_container' : 'container',
    refreshIntervalSeconds: Math.max(10, c.get<number>('refreshInterval', 60)),
    lowBalanceWarning: c.get<number>('lowBalanceWarning', 20),
  };
}

/** The base URL in use and where it comes from (setting > TENSORPOOL_ENGINE > default; src/model/apiUrl.ts). */
export function effectiveApiUrl(env: NodeJS.ProcessEnv = process.env): { url: string; source: ApiUrlSource } {
  const seen = vscode.workspace.getConfiguration('tensorpool').inspect<string>('apiUrl');
  return pickApiUrl(seen, env);
}

/** VS Code's own proxy settings, which the API client applies to its requests. */
export function readProxySettings(): { url?: string; strictSSL: boolean; noProxy: string[] } {
  const http = vscode.workspace.getConfiguration('http');
  if (http.get<string>('proxySupport') === 'off') return { strictSSL: true, noProxy: [] };
  return {
    url: http.get<string>('proxy') || undefined,
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    noProxy: http.get<string[]>('noProxy', []),
  };
}

export function affectsApi(e: vscode.ConfigurationChangeEvent): boolean {
  return (
    e.affectsConfiguration('tensorpool.apiUrl') ||
    e.affectsConfiguration('tensorpool.containerField') ||
    e.affectsConfiguration('http.proxy') ||
    e.affectsConfiguration('http.proxyStrictSSL') ||
    e.affectsConfiguration('http.noProxy') ||
    e.affectsConfiguration('http.proxySupport')
  );
}
