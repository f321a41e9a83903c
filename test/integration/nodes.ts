// Helpers for the tests against the engine's real nodes: the suites' common start (signed in, a scratch home
// with a key), the engine's node list and its control (pin ports, take a server down), a program run to its end,
// and polling.
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { HostSeamValues } from '../../src/vscode/shared/hostSeams';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { waitFor } from '../shared/wait';
export type { EngineNode } from '../shared/engineControl';
import type { EngineNode } from '../shared/engineControl';
import { accountIs, signIn } from './control';
import { control } from './helpers';

/**
 * How the suites against real nodes start: a fresh engine whose operations end quickly, signed in, and a
 * scratch HOME for the extension (trusted workspace) with an ed25519 key at `~/.ssh/<keyName>` for the cluster
 * a suite creates. Returns that home; `seams` adds host seams (a browser, an opener).
 */
export async function signedInWithScratchHome(
  ext: TensorPoolExtensionApi,
  prefix: string,
  keyName: string,
  seams: Partial<HostSeamValues> = {},
): Promise<string> {
  await control.reset('none');
  await control.config({ pendingMs: 100, processingMs: 200 });
  assert.equal((await signIn()).ok, true);
  await accountIs(ext, 'signedIn');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(home, '.ssh', keyName)]);
  ext.testing.configure({ home: () => home, isTrusted: () => true, ...seams });
  return home;
}

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
