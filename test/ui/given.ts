// What a flow needs before it starts, set up here when an earlier flow has not left it so: any flow file runs
// alone or after any other (TENSORPOOL_TEST_FILES=60 runs 60-objects by itself). Each is a no-op when the
// state is already there. What it sets up goes through the workbench where that is quick
// (signing in types the token into the real sign-in box), through the engine's API otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from '../harness/util';
import { engineCall } from './engineCall';
import type { UiContext } from './types';

const ACCOUNT = /dev1@tensorpool\.local/;

/** The TensorPool view open in the side bar and the engine's user signed in. */
export async function signedIn({ workbench, engine }: UiContext): Promise<void> {
  await workbench.ready('TensorPool');
  const title = workbench.page
    .locator('[id="workbench.parts.sidebar"] .composite.title .title-label', { hasText: 'TensorPool' })
    .first();
  if (!(await title.isVisible().catch(() => false)))
    await workbench.openViewContainer('TensorPool', 'Clusters');
  const account = workbench.page
    .locator('[id="workbench.parts.statusbar"] .statusbar-item', { hasText: ACCOUNT })
    .first();
  if (await account.isVisible().catch(() => false)) return;
  await workbench.runCommand('TensorPool: Sign In');
  await workbench.typeIntoInputBox(/API token/i, engine.token);
  await workbench.acceptInput();
  await workbench.statusBarItem(ACCOUNT, 30_000);
}

/** Object storage enabled for the organisation, and the Object Storage section showing it. */
export async function objectStorageEnabled(ctx: UiContext): Promise<void> {
  await signedIn(ctx);
  const { workbench, engine } = ctx;
  const enabled = await engineCall(engine, 'GET', '/object-storage/credentials')
    .then(() => true)
    .catch(() => false);
  if (!enabled) await engineCall(engine, 'POST', '/object-storage/enable');
  await workbench.showSections('Object Storage');
  const endpoint = workbench.sidebarRows().filter({ hasText: 'Endpoint' }).first();
  if (await endpoint.isVisible().catch(() => false)) return;
  await workbench.runCommand('TensorPool: Refresh Object Storage');
  await endpoint.waitFor({ timeout: 15_000 });
}

/** The sample project (samples/training-job) in the workspace, as `npm run demo` has it. */
export function sampleProject({ workspace }: UiContext): string {
  const folder = path.join(workspace, 'training-job');
  if (!fs.existsSync(path.join(folder, 'train.js')))
    fs.cpSync(path.join(REPO, 'samples', 'training-job'), folder, { recursive: true });
  return folder;
}

/** A cluster named `name` of this shape, running in the Clusters section (created through the API when
 *  missing). */
export async function runningCluster(
  ctx: UiContext,
  c: { name: string; instanceType: string; nodes: number },
): Promise<void> {
  await signedIn(ctx);
  const { workbench, engine } = ctx;
  const listed = async () =>
    (
      (await engine.get('/cluster/list')) as { clusters?: Array<{ name?: string; status?: string }> }
    ).clusters?.find((x) => x.name === c.name);
  const row = workbench
    .sidebarRows()
    .filter({ hasText: new RegExp(`${c.name}.*running`) })
    .first();
  await workbench.showSections('Clusters');
  if (!(await listed())) {
    await engineCall(engine, 'POST', '/cluster/create', {
      instance_type: c.instanceType,
      num_nodes: c.nodes,
      tp_cluster_name: c.name,
    });
    // Not created by this window, so not followed: refresh the list once the engine has it running.
    for (let i = 0; i < 120 && (await listed())?.status !== 'RUNNING'; i++)
      await workbench.page.waitForTimeout(500);
    await workbench.runCommand('TensorPool: Refresh', { exact: true });
  }
  await row.waitFor({ timeout: 60_000 });
}
