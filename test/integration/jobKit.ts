// What the job suites share (jobs*.test.ts): a signed-in extension, a real cluster that accepts the user's
// key (realCluster.ts), a project folder in the workspace with its job file(s), and running a job file
// through Run on Cluster… with the scripted prompter.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { ALWAYS } from '../fixtures/jobProject';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn, sleep } from './control';
import { realCluster, writeFiles, type RealCluster } from './realCluster';

export type Outcome = { kind: string; jobId?: string; reason?: string; code?: number };

export interface WsEntry {
  method: string;
  path: string;
  url?: string;
  ws?: string;
  body: unknown;
  status: number | null;
  query: Record<string, string>;
  authorization: string | null;
}

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for: ${what}`);
    await sleep(100);
  }
}

export const wsLog = async (p = '/job/push') =>
  ((await control.log()) as unknown as WsEntry[]).filter((e) => e.method === 'WS' && e.path === p);

/** How many connections were opened on this WebSocket path. */
export const upgrades = async (p = '/job/push') => (await wsLog(p)).filter((e) => e.ws === 'upgrade').length;

export interface JobKit {
  ext: TensorPoolExtensionApi;
  cluster: RealCluster;
  /** The project folder (in the workspace) holding the job files. */
  folder: string;
  /** Write a job file (and more files) into the project; its Uri. */
  jobFile(name: string, toml: string, files?: Record<string, string>): vscode.Uri;
  /** Run a job file with these answers (default: the cluster, keep it, run, allow the upload for good). */
  run(file: vscode.Uri, script?: string[]): { p: ScriptedPrompter; outcome: Thenable<Outcome> };
  /** The wizard's answers without the consent dialog (once "don't ask again" was chosen, or refused). */
  wizard(): string[];
  statusOf(id: string): Promise<string | undefined>;
}

/** Suite hooks: sign in, a real cluster named `clusterName`, the project folder `project` in the workspace. */
export function useJobKit(clusterName: string, project: string): JobKit {
  const kit = {} as JobKit;
  suiteSetup(async function () {
    this.timeout(60_000);
    kit.ext = await api();
    await control.reset('none');
    assert.equal((await signIn()).ok, true);
    await accountIs(kit.ext, 'signedIn');
    kit.cluster = await realCluster(clusterName);
    await kit.ext.refresh();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    kit.folder = path.join(root, project);
    mkdirSync(kit.folder, { recursive: true });
  });
  suiteTeardown(() => rmSync(kit.folder, { recursive: true, force: true }));
  teardown(async () => {
    kit.ext.setPrompter(undefined);
    kit.ext.testing.configure({});
    await control.clearFaults();
    await control.config({ answers: { jobList: null } });
  });
  kit.jobFile = (name, toml, files = {}) => {
    writeFiles(kit.folder, files);
    writeFileSync(path.join(kit.folder, name), toml);
    return vscode.Uri.file(path.join(kit.folder, name));
  };
  kit.wizard = () => [kit.cluster.name, 'Keep the cluster', 'Run job'];
  // "Run and don't ask again" when the consent is asked (it is not once chosen: the answer is then unused).
  kit.run = (file, script = [...kit.wizard(), ALWAYS]) => {
    const p = new ScriptedPrompter(script);
    kit.ext.setPrompter(p);
    return { p, outcome: vscode.commands.executeCommand<Outcome>('tensorpool.runJobFile', file) };
  };
  kit.statusOf = async (id) => {
    await kit.ext.testing.jobs.refresh();
    return kit.ext.testing.jobs.find(id)?.status;
  };
  return kit;
}
