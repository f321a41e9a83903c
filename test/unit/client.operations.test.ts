/**
 * Every client operation against the local engine over real HTTP on 127.0.0.1, with the exact
 * request bodies read back from the engine's request log.
 */
import * as assert from 'node:assert/strict';
import { type TensorPoolClient, trackRequest, type ClientOptions } from '../../src/api';
import { testClient, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';
import { ED25519_KEY, createInput } from '../fixtures/payloads';

describe('API client operations (local engine over HTTP)', function () {
  let engine: EngineHandle;
  let client: TensorPoolClient;
  const make = (over: Partial<ClientOptions> = {}) => testClient(engine, over);

  useTestEngine((e) => (engine = e));
  beforeEach(() => {
    client = make();
  });

  describe('account', () => {
    it('me() returns the account record and sends the bearer token and user agent', async () => {
      const me = await client.me();
      assert.equal(typeof me, 'object');
      assert.ok(Object.keys(me).length > 0, 'account record has fields');
      const [call] = await engine.calls('GET', '/me');
      assert.equal(call.status, 200);
      assert.equal(call.authorization, 'Bearer [redacted]');
      assert.equal(call.userAgent, 'tensorpool-vscode/test');
    });

    it('userInfo() and organizationInfo()', async () => {
      const info = await client.userInfo();
      assert.equal(typeof info.message, 'string');
      const org = await client.organizationInfo();
      assert.equal(typeof org.org_name, 'string');
      assert.ok(Array.isArray(org.members) && org.members.length > 0);
      assert.notEqual(org.balance, undefined);
    });

    it('ssh keys: add, list, remove', async () => {
      const added = await client.addSshKey({ public_key: ED25519_KEY, name: 'laptop' });
      assert.ok(added.key_id);
      const [call] = await engine.calls('POST', '/user/ssh-key/add');
      assert.deepEqual(call.body, { public_key: ED25519_KEY, name: 'laptop' });
      const list = await client.listSshKeys({ includeOrg: true });
      assert.match(JSON.stringify(list), /laptop/);
      const [listCall] = await engine.calls('GET', '/user/ssh-key/list');
      assert.equal(listCall.query.include_org, 'true');
      const removed = await client.removeSshKey(added.key_id);
      assert.equal(typeof removed.message, 'string');
      assert.equal((await engine.calls('DELETE', `/user/ssh-key/remove/${added.key_id}`)).length, 1);
    });
  });

  describe('clusters', () => {
    it('createCluster sends the seed field names exactly, image as `container` by default', async () => {
      const res = await client.createCluster({
        instance_type: '8xH100',
        num_nodes: 2,
        tp_cluster_name: 'train-a',
        public_keys: [ED25519_KEY],
        container: 'nvcr.io/nvidia/pytorch:24.05-py3',
        deletion_protection: true,
        save_keys: false,
      });
      assert.ok(res.cluster_id);
      assert.ok(res.request_id);
      const [call] = await engine.calls('POST', '/cluster/create');
      assert.equal(call.status, 202);
      assert.deepEqual(call.body, {
        instance_type: '8xH100',
        num_nodes: 2,
        tp_cluster_name: 'train-a',
        public_keys: [ED25519_KEY],
        container: 'nvcr.io/nvidia/pytorch:24.05-py3',
        deletion_protection: true,
        save_keys: false,
      });
    });

    it('the image field name is a client option (experimental_container)', async () => {
      await make({ imageField: 'experimental_container' }).createCluster(
        createInput({ container: 'ubuntu:22.04' }),
      );
      const [call] = await engine.calls('POST', '/cluster/create');
      assert.deepEqual(call.body, {
        instance_type: '1xH100',
        num_nodes: 1,
        experimental_container: 'ubuntu:22.04',
      });
    });

    it('listClusters returns structured clusters and the text table; include_org and instances as query params', async () => {
      await client.createCluster(createInput({ tp_cluster_name: 'mine' }));
      await make({ getToken: () => engine.otherToken }).createCluster(
        createInput({ tp_cluster_name: 'colleague' }),
      );
      const mine = await client.listClusters();
      assert.deepEqual(
        mine.clusters?.map((c) => c.name),
        ['mine'],
      );
      assert.equal(typeof mine.message, 'string');
      assert.ok(mine.clusters?.[0].instances.length === 1, 'instances included');
      const org = await client.listClusters({ includeOrg: true });
      assert.deepEqual(org.clusters?.map((c) => c.name).sort(), ['colleague', 'mine']);
      const calls = await engine.calls('GET', '/cluster/list');
      assert.deepEqual(
        calls.map((c) => c.query),
        [{ instances: 'true' }, { include_org: 'true', instances: 'true' }],
      );
    });

    it('a text-only list answer reaches the caller as message with clusters undefined', async () => {
      await client.createCluster(createInput({ tp_cluster_name: 'only-text' }));
      await engine.config({ listMode: 'text' });
      const listing = await client.listClusters();
      assert.equal(listing.clusters, undefined);
      assert.match(listing.message ?? '', /only-text/);
    });

    it('clusterInfo by id and by name', async () => {
      const { cluster_id } = await client.createCluster(
        createInput({ tp_cluster_name: 'info-me', num_nodes: 2 }),
      );
      const byId = await client.clusterInfo(cluster_id);
      assert.equal(byId.cluster?.id, cluster_id);
      assert.equal(byId.cluster?.numNodes, 2);
      assert.equal(byId.cluster?.instances.length, 2);
      assert.equal(typeof byId.message, 'string');
      const byName = await client.clusterInfo('info-me');
      assert.equal(byName.cluster?.id, cluster_id);
    });

    it('editCluster sends only the given fields and answers 202', async () => {
      const { cluster_id } = await client.createCluster(createInput({ tp_cluster_name: 'before' }));
      const res = await client.editCluster(cluster_id, { cluster_name: 'after' });
      assert.equal(typeof res.message, 'string');
      await client.editCluster(cluster_id, { deletion_protection: true });
      const calls = await engine.calls('PATCH', `/cluster/edit/${cluster_id}`);
      assert.deepEqual(
        calls.map((c) => [c.status, c.body]),
        [
          [202, { cluster_name: 'after' }],
          [202, { deletion_protection: true }],
        ],
      );
      const info = await client.clusterInfo(cluster_id);
      assert.equal(info.cluster?.name, 'after');
      assert.equal(info.cluster?.deletionProtection, true);
    });

    it('destroyCluster answers 202 with a request id; a protected cluster is refused with 409', async () => {
      const a = await client.createCluster(createInput({ tp_cluster_name: 'gone' }));
      const res = await client.destroyCluster(a.cluster_id);
      assert.ok(res.request_id);
      const b = await client.createCluster(
        createInput({ tp_cluster_name: 'keep', deletion_protection: true }),
      );
      await assert.rejects(
        client.destroyCluster(b.cluster_id),
        (e: Error & { kind?: string; status?: number }) => {
          assert.equal(e.kind, 'conflict');
          assert.equal(e.status, 409);
          assert.match(e.message, /protect/i);
          return true;
        },
      );
    });

    it('clusterOperations, requestInfo with Retry-After, sshCommand', async () => {
      const { cluster_id, request_id, instance_ids } = await client.createCluster(createInput());
      const ops = await client.clusterOperations(cluster_id);
      assert.equal(typeof ops, 'object');
      const pending = await client.requestInfo(request_id!);
      assert.equal(pending.info.request_id, request_id);
      assert.match(pending.info.status, /PENDING|PROCESSING/);
      assert.equal(pending.retryAfterMs, 1000, 'engine configured with Retry-After: 1');
      await assert.rejects(
        client.sshCommand(instance_ids![0]),
        (e: Error & { kind?: string }) => e.kind === 'conflict',
        'not reachable while provisioning',
      );
      const done = await trackRequest(client, request_id!, {
        sleep: (ms) => new Promise((r) => setTimeout(r, ms / 50)),
      });
      assert.equal(done.kind, 'completed');
      const ssh = await client.sshCommand(instance_ids![0], 'linux');
      assert.match(ssh.command, /ssh/);
      const [call] = await engine.calls('GET', `/ssh/${instance_ids![0]}`);
      assert.deepEqual(call.query, { system: 'linux' });
    });
  });

  describe('object storage', () => {
    it('credentials are 404 before enable; enable is idempotent; rotate changes both keys; disable clears', async () => {
      await assert.rejects(
        client.objectStorageCredentials(),
        (e: Error & { kind?: string }) => e.kind === 'not-found',
      );
      const first = await client.enableObjectStorage();
      for (const k of ['org_id', 'access_key_id', 'secret_access_key', 'endpoint', 'region'] as const)
        assert.ok(first[k], k);
      const again = await client.enableObjectStorage();
      assert.equal(again.access_key_id, first.access_key_id);
      assert.deepEqual(await client.objectStorageCredentials(), again);
      const rotated = await client.rotateObjectStorageKeys();
      assert.notEqual(rotated.access_key_id, first.access_key_id);
      assert.notEqual(rotated.secret_access_key, first.secret_access_key);
      const aws = await client.configureAws();
      assert.equal(aws.profile_name, 'tp');
      assert.match(aws.credentials_file ?? '', /aws_access_key_id/);
      const rclone = await client.configureRclone();
      assert.equal(rclone.remote_name, 'tp');
      assert.match(rclone.rclone_config ?? '', /\[tp\]/);
      await client.disableObjectStorage();
      await assert.rejects(
        client.objectStorageCredentials(),
        (e: Error & { kind?: string }) => e.kind === 'not-found',
      );
      assert.equal((await engine.calls('DELETE', '/object-storage/disable')).length, 1);
    });

    it('buckets: create (PUT), list, delete (DELETE); invalid names refused before sending', async () => {
      await client.enableObjectStorage();
      await client.createBucket('datasets-01');
      assert.deepEqual(
        (await client.listBuckets()).map((b) => b.name),
        ['datasets-01'],
      );
      const [put] = await engine.calls('PUT', '/object-storage/bucket/create/datasets-01');
      assert.equal(put.status, 201);
      await assert.rejects(
        client.createBucket('Bad_Name'),
        (e: Error & { kind?: string }) => e.kind === 'validation',
      );
      assert.equal((await engine.log()).filter((e) => e.path.includes('Bad_Name')).length, 0);
      await client.deleteBucket('datasets-01');
      const [del] = await engine.calls('DELETE', '/object-storage/bucket/delete/datasets-01');
      assert.equal(del.status, 204);
      assert.deepEqual(await client.listBuckets(), []);
    });
  });
});
