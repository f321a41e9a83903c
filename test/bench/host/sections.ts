// The five sections of the TensorPool view, as the idle window and the soak see them (./index.ts, ./soak.ts):
// showing all of them, what each has loaded, which automatic refreshes are armed, what is still in
// transition, and the engine's requests grouped by the section that asks for them.
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { isInTransition } from '../../../src/model/cluster';
import { isTerminalJobState } from '../../../src/model/job';
import { isVolumeInTransition } from '../../../src/model/volume';
import { sleep, until } from '../../shared/wait';

export const SECTIONS = ['clusters', 'jobs', 'volumes', 'sshKeys', 'objectStorage'] as const;
export type Section = (typeof SECTIONS)[number];

/** Open the TensorPool view container and every section in it; wait until each has loaded once. */
export async function showAllSections(api: TensorPoolExtensionApi): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
  for (const s of SECTIONS) await vscode.commands.executeCommand(`tensorpool.${s}.focus`);
  await until('every TensorPool section to load', () => loaded(api).length === SECTIONS.length, 20_000, 50);
}

/** Hide every TensorPool section (the Explorer takes the side bar). */
export async function hideAllSections(): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.explorer');
  await sleep(500);
}

/** The sections that have an answer (or an error) from the engine. */
export function loaded(api: TensorPoolExtensionApi): Section[] {
  const t = api.testing;
  const s = api.store;
  const has: Record<Section, boolean> = {
    clusters: !t.clusters.loading && (t.clusters.data !== undefined || t.clusters.error !== undefined),
    jobs: !t.jobs.loading && (t.jobs.data !== undefined || t.jobs.error !== undefined),
    volumes: !t.volumes.loading && (t.volumes.data !== undefined || t.volumes.error !== undefined),
    sshKeys: !t.sshKeys.loading && (t.sshKeys.data !== undefined || t.sshKeys.error !== undefined),
    objectStorage: s.objectStorage.kind !== 'loading' && s.objectStorage.kind !== 'unknown',
  };
  return SECTIONS.filter((x) => has[x]);
}

/** The automatic refreshes that are armed (clusters, jobs, volumes; the other two refresh on demand only). */
export function armedRefreshes(api: TensorPoolExtensionApi): string[] {
  const armed: string[] = [];
  if (api.testing.nextRefreshDelay() !== undefined) armed.push('clusters');
  if (api.testing.jobs.nextDelay() !== undefined) armed.push('jobs');
  if (api.testing.volumes.nextDelay() !== undefined) armed.push('volumes');
  return armed;
}

/** What is still changing: followed operations, clusters, jobs and volumes not in a settled state. */
export function inTransition(api: TensorPoolExtensionApi): string[] {
  const out: string[] = [];
  for (const o of api.store.operations) out.push(`operation ${o.target} ${o.kind} ${o.id}`);
  for (const c of api.testing.clusters.data?.clusters ?? [])
    if (isInTransition(c)) out.push(`cluster ${c.id}`);
  for (const j of api.testing.jobs.jobs)
    if (!isTerminalJobState(j.status)) out.push(`job ${j.id} ${j.status}`);
  for (const v of api.testing.volumes.volumes)
    if (isVolumeInTransition(v)) out.push(`volume ${v.id} ${v.status}`);
  return out;
}

/** The section a request to the engine belongs to (the account's own: /me, /health, /user/info…). */
function sectionOf(path: string): Section | 'account' {
  if (path.startsWith('/cluster') || path.startsWith('/request') || path.startsWith('/ssh/'))
    return 'clusters';
  if (path.startsWith('/job')) return 'jobs';
  if (path.startsWith('/storage')) return 'volumes';
  if (path.startsWith('/user/ssh-key')) return 'sshKeys';
  if (path.startsWith('/object-storage') || path.startsWith('/bucket')) return 'objectStorage';
  return 'account';
}

/** Requests per section (every section listed, zeros included). */
export function bySection(paths: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries([...SECTIONS, 'account'].map((s) => [s, 0]));
  for (const p of paths) counts[sectionOf(p)]++;
  return counts;
}
