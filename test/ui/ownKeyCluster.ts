// A cluster created through the real create wizard with an SSH key of its own (made here, in the extension
// host's HOME where the wizard lists ~/.ssh keys, and saved only for this cluster), waited for until its row
// says running; returns the key's path, the cluster's row and its engine node (up).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from '../harness/playwright';
import type { UiContext } from './types';

/** What the UI flows read of the engine's record of a node (`/_engine/nodes`). */
export interface EngineNode {
  instance_id: string;
  cluster_id: string;
  state: string;
  host: string;
  port: number;
  user: string;
  dir: string;
}

export interface OwnKeyCluster {
  key: string;
  row: Locator;
  node: EngineNode;
}

export async function createOwnKeyCluster(
  { workbench, engine, home }: UiContext,
  o: { name: string; instanceType: string; keyName: string },
): Promise<OwnKeyCluster> {
  const key = path.join(home, '.ssh', o.keyName);
  fs.mkdirSync(path.dirname(key), { recursive: true, mode: 0o700 });
  fs.rmSync(key, { force: true });
  fs.rmSync(`${key}.pub`, { force: true });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', o.keyName, '-f', key]);
  // The Clusters section open (an earlier flow may have left another section open instead).
  await workbench.showSections('Clusters');
  await workbench.runCommand('TensorPool: Create Cluster…');
  await workbench.waitForQuickInput(/GPU instance type/);
  await workbench.pickQuickItem(o.instanceType);
  await workbench.waitForQuickInput(/Number of nodes/);
  await workbench.enterInQuickInput();
  await workbench.waitForQuickInput(/Cluster name/);
  await workbench.replaceQuickInputText(o.name);
  await workbench.enterInQuickInput();
  await workbench.waitForQuickInput(/SSH public key|No ~\/\.ssh/);
  await workbench.pickQuickItem(`${o.keyName}.pub`);
  await workbench.waitForQuickInput(/Save this SSH key/);
  await workbench.pickQuickItem('Only for this cluster');
  await workbench.waitForQuickInput(/Container image/);
  await workbench.enterInQuickInput();
  await workbench.waitForQuickInput(/Deletion protection/);
  await workbench.pickQuickItem('Off', 'Off');
  await workbench.waitForQuickInput(/Review and create/);
  await workbench.enterInQuickInput();
  const row = workbench
    .sidebarRows()
    .filter({ hasText: new RegExp(`${o.name}.*running`) })
    .first();
  await row.waitFor({ timeout: 60_000 });
  const list = (await engine.get('/cluster/list')) as {
    clusters: Array<{ name: string; cluster_id?: string; id?: string }>;
  };
  const c = list.clusters.find((x) => x.name === o.name)!;
  const id = c.cluster_id ?? c.id;
  const nodes = ((await (await fetch(`${engine.url}/_engine/nodes`)).json()) as { nodes: EngineNode[] })
    .nodes;
  const node = nodes.find((n) => n.cluster_id === id && n.state === 'up');
  assert.ok(node, 'the cluster has a node up');
  return { key, row, node };
}
