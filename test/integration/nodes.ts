// Helpers for the tests against the engine's real nodes (connectNodes.test.ts): the engine's node list and
// its control (pin ports, take a server down), a program run to its end, and polling.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { waitFor } from '../shared/wait';
import { engine } from './helpers';

/** Wait until `check` holds (polled every 200 ms). */
export const until = (check: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(what, check, (ok) => ok, timeoutMs, 200);

export type InstanceNode = Extract<ClusterNode, { kind: 'instance' }>;
export interface EngineNode {
  instance_id: string;
  cluster_id: string;
  state: string;
  host: string;
  port: number;
  user: string;
  dir: string;
}

export async function engineNodes(body?: unknown): Promise<EngineNode[]> {
  const res = await fetch(`${engine.url}/_engine/nodes`, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `/_engine/nodes -> ${res.status}`);
  return ((await res.json()) as { nodes: EngineNode[] }).nodes;
}

export function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(file, args, { timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    ),
  );
}
