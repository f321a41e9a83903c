// Helpers for the tests against the engine's real nodes (connectNodes.test.ts): the engine's node list and
// its control (pin ports, take a server down), a program run to its end, and polling.
import { execFile } from 'node:child_process';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { waitFor } from '../shared/wait';
export type { EngineNode } from '../shared/engineControl';
import type { EngineNode } from '../shared/engineControl';
import { control } from './helpers';

/** Wait until `check` holds (polled every 200 ms). */
export const until = (check: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(what, check, (ok) => ok, timeoutMs, 200);

export type InstanceNode = Extract<ClusterNode, { kind: 'instance' }>;
export async function engineNodes(body?: {
  ports?: number[];
  down?: string;
  drop?: string;
}): Promise<EngineNode[]> {
  return (body ? await control.setNodes(body) : await control.nodes()).nodes;
}

export function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(file, args, { timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    ),
  );
}
