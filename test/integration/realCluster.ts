// A cluster whose node is real (the engine's sshd on 127.0.0.1) and accepts "the user's own key": the
// harness's throwaway key, held by the ssh-agent code-server's environment names (harness/userKey.ts), is
// in the create request's public_keys, as a user puts theirs. Plus what the job tests read on the node.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sleep } from '../shared/wait';
import { control, engine } from './helpers';

export interface RealCluster {
  id: string;
  name: string;
  /** Node 0's folder in the engine's data folder (home/jobs/<job id>/ is a job's folder). */
  nodeDir: string;
  instanceId: string;
}

function userPublicKey(): string {
  const key = process.env.TENSORPOOL_TEST_SSH_PUBKEY;
  assert.ok(key, 'TENSORPOOL_TEST_SSH_PUBKEY is not set: run these tests through the harness');
  return key;
}

/** The User-Agent of these setup calls (not the extension's: checks of what the extension sent leave them out). */
export const SETUP_USER_AGENT = 'tensorpool-tests/setup';

async function api(method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(engine.url + p, {
    method,
    headers: {
      authorization: `Bearer ${engine.token}`,
      'content-type': 'application/json',
      'user-agent': SETUP_USER_AGENT,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Create a cluster named `name` (1xH100, the user's key unless told otherwise); wait for its node. */
export async function realCluster(
  name: string,
  keys = [userPublicKey()],
  instanceType = '1xH100',
): Promise<RealCluster> {
  const created = await api('POST', '/cluster/create', {
    instance_type: instanceType,
    tp_cluster_name: name,
    public_keys: keys,
    // Not saved on the profile (the service's default): later clusters get only the keys they name.
    save_keys: false,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const nodes = await control.nodes();
    const listing = await api('GET', '/cluster/list');
    const cluster = (listing.clusters as Array<{ id: string; name: string; status: string }>).find(
      (c) => c.name === name,
    );
    const node = nodes.nodes.find((n) => cluster && n.cluster_id === cluster.id);
    if (cluster?.status === 'RUNNING' && node?.state === 'up')
      return { id: cluster.id, name, nodeDir: node.dir, instanceId: node.instance_id };
    assert.ok(Date.now() < deadline, `cluster ${name} is not running: ${JSON.stringify(created)}`);
    await sleep(100);
  }
}

/** Destroy a cluster realCluster made and wait until it has left the list (nothing in transition) and its node
 *  is down. */
export async function removeCluster(c: RealCluster): Promise<void> {
  await api('DELETE', `/cluster/${c.id}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const listing = await api('GET', '/cluster/list');
    const listed = (listing.clusters as Array<{ id: string; status: string }>).find((x) => x.id === c.id);
    const node = (await control.nodes()).nodes.find((n) => n.instance_id === c.instanceId);
    if (!listed && node?.state !== 'up') return;
    assert.ok(Date.now() < deadline, `cluster ${c.name} is still listed (${listed?.status})`);
    await sleep(100);
  }
}

/** A job's folder on the node. */
export const jobDir = (c: RealCluster, jobId: string): string => path.join(c.nodeDir, 'home', 'jobs', jobId);

/** Processes (pids) whose working folder is `dir` or under it: a job's, and all they started. */
export function processesIn(dir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const cwd = fs.readlinkSync(`/proc/${e}/cwd`);
        return cwd === dir || cwd.startsWith(dir + path.sep);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Write files (relative path -> text) under `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}
