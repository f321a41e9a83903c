// Helpers of the GPU suites (telemetry, cost, idle guard): a running cluster created through the wizard, and our ssh
// processes read from /proc.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engineNodes, until } from './nodes';

/** Our ssh processes (argv mentions `home`), from /proc: pid, argv and environment. */
export function sshProcs(home: string): { pid: string; argv: string[]; env: string }[] {
  const out: { pid: string; argv: string[]; env: string }[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (path.basename(argv[0] ?? '') !== 'ssh' || !argv.some((a) => a.includes(home))) continue;
      out.push({ pid, argv, env: fs.readFileSync(`/proc/${pid}/environ`, 'utf8') });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The create wizard's answers for a one-key cluster (the key `keyFile`, in the configured home's .ssh). */
export const createAnswers = (instanceType: string, name: string, keyFile: string, protect = false) => [
  instanceType,
  ACCEPT,
  name,
  keyFile,
  'Only for this cluster',
  ACCEPT,
  protect ? 'On' : 'Off',
  'Create cluster',
];

/** Wait until cluster `id` is RUNNING in the list and its create has been followed to its end (a follow left
 *  running would change later suites' rows). */
export async function untilRunning(ext: TensorPoolExtensionApi, id: string, name: string): Promise<void> {
  await until(
    async () => {
      await ext.refresh();
      return ext.testing.clusters.data?.clusters?.find((c) => c.id === id)?.status === 'RUNNING';
    },
    `${name} RUNNING`,
    30_000,
  );
  await until(async () => ext.store.clusterOperations.length === 0, 'the create followed to its end', 30_000);
}

/** Create a cluster through the wizard (createAnswers) and wait until its node is up and it runs (untilRunning).
 *  Returns its id. */
export async function runningCluster(
  ext: TensorPoolExtensionApi,
  instanceType: string,
  name: string,
  keyFile: string,
): Promise<string> {
  ext.setPrompter(new ScriptedPrompter(createAnswers(instanceType, name, keyFile)));
  const id = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
  ext.setPrompter(undefined);
  assert.ok(id, 'the cluster was created');
  await until(
    async () => (await engineNodes()).some((n) => n.cluster_id === id && n.state === 'up'),
    'the node is up',
    30_000,
  );
  await untilRunning(ext, id, name);
  return id;
}
