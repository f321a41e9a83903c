// Shared helpers for the integration tests: where the local engine is, the extension and its test API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EngineControl } from '../shared/engineControl';
import { sleep } from '../shared/wait';

export { eventually } from '../shared/wait';

export const EXTENSION_ID = 'tensorpool.tensorpool-vscode';

/** Set by the harness on code-server's environment, which the extension host inherits. */
function env(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is not set: run these tests through the harness (npm run test:integration)`);
  return value;
}
export const engine = {
  get url(): string {
    return env('TENSORPOOL_TEST_ENGINE_URL');
  },
  get token(): string {
    return env('TENSORPOOL_TEST_TOKEN');
  },
  get readonlyToken(): string {
    return env('TENSORPOOL_TEST_READONLY_TOKEN');
  },
  /** GET a path of the engine's API with the full-access token. */
  async get<T = unknown>(apiPath: string): Promise<T> {
    const response = await fetch(this.url + apiPath, { headers: { authorization: `Bearer ${this.token}` } });
    assert.ok(response.ok, `engine GET ${apiPath}: ${response.status}`);
    return (await response.json()) as T;
  },
};

/** The engine's control surface (/_engine/*: reset, config, faults, the request log, seeds, nodes). */
export const control = new EngineControl(() => engine.url);

/** What activate() returns (notes/CONTRACTS.md, "Extension test API"). */
export interface ExtensionApi {
  views: { clusters: vscode.TreeDataProvider<unknown> };
  store: { onDidChange: vscode.Event<void> };
  refresh(): Promise<void>;
}

export function extension(): vscode.Extension<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this VS Code`);
  return ext;
}

export async function activate(): Promise<ExtensionApi> {
  return extension().activate();
}

export interface PackageJson {
  contributes: {
    commands?: Array<{ command: string; title: string }>;
    viewsContainers?: { activitybar?: Array<{ id: string; title: string }> };
    views?: Record<string, Array<{ id: string; name: string }>>;
  };
}

export function packageJson(): PackageJson {
  return extension().packageJSON as PackageJson;
}

/** Labels of the tree's top-level rows, as VS Code would render them. */
export async function topLevelLabels(api: ExtensionApi): Promise<string[]> {
  const provider = api.views.clusters;
  const nodes = (await provider.getChildren(undefined)) ?? [];
  const labels: string[] = [];
  for (const node of nodes) {
    const item = await provider.getTreeItem(node);
    const label = typeof item.label === 'string' ? item.label : item.label?.label;
    labels.push(label ?? '');
  }
  return labels;
}

/**
 * A tree row's tooltip as text, as VS Code shows it on hover. The views build their tooltips only when
 * a row is hovered (TreeDataProvider.resolveTreeItem, called when the item has no tooltip yet), so this
 * resolves the row first, as VS Code does.
 */
export async function resolvedTooltip<T>(provider: vscode.TreeDataProvider<T>, node: T): Promise<string> {
  const item = await provider.getTreeItem(node);
  const source = new vscode.CancellationTokenSource();
  try {
    const resolved =
      item.tooltip === undefined && provider.resolveTreeItem
        ? ((await provider.resolveTreeItem(item, node, source.token)) ?? item)
        : item;
    const tooltip = resolved.tooltip;
    return tooltip === undefined ? '' : typeof tooltip === 'string' ? tooltip : tooltip.value;
  } finally {
    source.dispose();
  }
}

/** Names of the clusters the engine holds for the test token (structured part of GET /cluster/list). */
export async function engineClusterNames(): Promise<string[]> {
  const body = await engine.get<{ clusters?: Array<Record<string, unknown>> }>('/cluster/list');
  assert.ok(
    Array.isArray(body.clusters),
    `GET /cluster/list has no clusters array: ${JSON.stringify(body).slice(0, 300)}`,
  );
  return body.clusters.map((c) => String(c.name ?? c.tp_cluster_name ?? c.cluster_name ?? c.id));
}

/**
 * User settings (written by the harness: tensorpool.apiUrl = the local engine) reach the remote extension
 * host over the workbench connection. Wait until they have arrived before any test runs (bounded: if they
 * never do, the tests that need them say so). Returns how long it waited.
 */
export async function settingsLoaded(): Promise<number> {
  const expected = process.env.TENSORPOOL_TEST_ENGINE_URL;
  const started = Date.now();
  if (!expected) return 0;
  while (
    vscode.workspace.getConfiguration('tensorpool').get('apiUrl') !== expected &&
    Date.now() - started < 15_000
  ) {
    await sleep(100);
  }
  return Date.now() - started;
}
