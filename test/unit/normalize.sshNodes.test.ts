/**
 * Real nodes (the engine's sshd per instance) read from every answer shape: the structured list and
 * info, and their text-only answers in every table and key/value style, give each instance its
 * address, ssh port and login user.
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { type TensorPoolClient } from '../../src/api';
import { clusterFromText, toCluster } from '../../src/api/normalize';
import { startTestEngine, type EngineHandle } from '../fixtures/engine';
import { createInput } from '../fixtures/payloads';
import type { TextStyle } from '../../engine/types';
import { apiClient } from '../shared/apiClient';

const STYLES: TextStyle[] = ['plain', 'markdown', 'grid', 'box', 'heavy', 'keyValue'];

describe('real nodes: ssh port and user from structured and text-only answers', function () {
  this.timeout(60_000);
  let engine: EngineHandle;
  let client: TensorPoolClient;
  let clusterId: string;
  let want: { id: string; ip: string; sshPort: number; sshUser: string }[];

  before(async () => {
    engine = await startTestEngine({ pendingMs: 10, processingMs: 10, nodes: 'require' });
    client = apiClient(engine, {
      userAgent: 'test',
      retryBaseMs: 5,
    });
    const created = await client.createCluster(createInput({ tp_cluster_name: 'real', num_nodes: 2 }));
    clusterId = created.cluster_id;
    for (let i = 0; i < 200; i++) {
      const info = await client.clusterInfo(clusterId);
      if (info.cluster?.status === 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const nodes = await engine.nodes();
    want = nodes.nodes
      .map((n) => ({ id: n.instance_id, ip: n.host, sshPort: n.port, sshUser: n.user }))
      .sort((a, b) => a.id.localeCompare(b.id));
    assert.equal(want.length, 2);
    assert.notEqual(want[0].sshPort, want[1].sshPort, 'each node its own port');
    assert.equal(want[0].sshUser, os.userInfo().username);
  });
  after(async () => engine?.close());
  afterEach(async () =>
    engine.config({ listMode: 'both', answers: { clusterList: null, clusterInfo: null } }),
  );

  const nodesOf = (instances: readonly { id: string; ip?: string; sshPort?: number; sshUser?: string }[]) =>
    instances
      .map((i) => ({ id: i.id, ip: i.ip, sshPort: i.sshPort, sshUser: i.sshUser }))
      .sort((a, b) => a.id.localeCompare(b.id));

  it('the structured list and info carry each node’s ssh port and user', async () => {
    const listed = (await client.listClusters()).clusters?.find((c) => c.id === clusterId);
    assert.deepEqual(nodesOf(listed?.instances ?? []), want);
    const info = await client.clusterInfo(clusterId);
    assert.deepEqual(nodesOf(info.cluster?.instances ?? []), want);
  });

  for (const style of STYLES) {
    it(`a text-only list in the ${style} style names the nodes with their ssh port and user`, async () => {
      await engine.config({ answers: { clusterList: { mode: 'text', style } } });
      const listing = await client.listClusters();
      assert.equal(listing.clusters, undefined);
      const c = listing.textClusters?.find((x) => x.id === clusterId);
      assert.deepEqual(nodesOf(c?.instances ?? []), want);
    });

    it(`text-only cluster info in the ${style} style names the nodes with their ssh port and user`, async () => {
      await engine.config({ answers: { clusterInfo: { mode: 'text', style } } });
      const info = await client.clusterInfo(clusterId);
      assert.equal(info.cluster?.source, 'text');
      assert.deepEqual(nodesOf(info.cluster?.instances ?? []), want);
    });
  }
});

describe('text-only cluster info that is only an instances table', () => {
  it('names the asked cluster’s nodes (the "No node … is known yet" bug)', () => {
    const text =
      'Instances:\nINSTANCE ID   STATUS   PUBLIC IP   SSH PORT  SSH USER\ni-1  RUNNING  127.0.0.1  40001  root\ni-2  RUNNING  127.0.0.1  40002  root';
    const c = clusterFromText(text, 'c-1');
    assert.equal(c?.id, 'c-1');
    assert.equal(c?.source, 'text');
    assert.deepEqual(
      c?.instances.map((i) => [i.id, i.ip, i.sshPort, i.sshUser]),
      [
        ['i-1', '127.0.0.1', 40001, 'root'],
        ['i-2', '127.0.0.1', 40002, 'root'],
      ],
    );
    assert.equal(
      clusterFromText('INSTANCE ID  STATUS\ni-9  RUNNING', 'c-2')?.instances[0].id,
      'i-9',
      'ids alone',
    );
    assert.equal(
      clusterFromText('INSTANCE ID  CLUSTER ID\ni-9  c-other', 'c-2'),
      undefined,
      'nodes of another cluster are not taken',
    );
    assert.equal(clusterFromText('Busy.', 'c-2'), undefined);
  });
});

describe('an instance record’s ssh port and user', () => {
  it('are taken only from fields that say ssh, and only when ssh could use them as they are', () => {
    const c = toCluster({
      id: 'c-1',
      instances: [
        { id: 'i-1', ip: '1.2.3.4', ssh_port: 2222, ssh_user: 'ubuntu' },
        { id: 'i-2', ip: '1.2.3.4', sshPort: '2200', sshUser: 'alice' },
        { id: 'i-3', ip: '1.2.3.4', port: 8888, user: 'usr_owner' },
        { id: 'i-4', ip: '1.2.3.4', ssh_port: 70000, ssh_user: '-oProxyCommand=touch' },
        { id: 'i-5', ip: '1.2.3.4', ssh_port: 22.5, ssh_user: 'a b' },
      ],
    });
    assert.deepEqual(
      c?.instances.map((i) => [i.id, i.sshPort, i.sshUser]),
      [
        ['i-1', 2222, 'ubuntu'],
        ['i-2', 2200, 'alice'],
        ['i-3', undefined, undefined],
        ['i-4', undefined, undefined],
        ['i-5', undefined, undefined],
      ],
    );
  });
});
