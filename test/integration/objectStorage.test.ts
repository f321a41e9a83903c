// The Object Storage section in every state, enable / rotate / disable, the secret access
// key only in SecretStorage, buckets.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { StorageNode } from '../../src/vscode/objectStorage/objectStorageTree';
import { ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engine, resolvedTooltip } from './helpers';
import { accountIs, api, control, signIn } from './control';

async function rows(
  ext: TensorPoolExtensionApi,
  parent?: StorageNode,
): Promise<Array<{ node: StorageNode; label: string; description: string }>> {
  const provider = ext.views.objectStorage;
  const nodes = (await provider.getChildren(parent)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = await provider.getTreeItem(node);
      return {
        node,
        label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
        description: String(item.description ?? ''),
      };
    }),
  );
}

async function engineCredentials(): Promise<
  { access_key_id: string; secret_access_key: string; endpoint: string } | undefined
> {
  const res = await fetch(`${engine.url}/object-storage/credentials`, {
    headers: { authorization: `Bearer ${engine.token}` },
  });
  return res.status === 404
    ? undefined
    : ((await res.json()) as { access_key_id: string; secret_access_key: string; endpoint: string });
}

suite('Object storage: state, credentials, buckets', () => {
  let ext: TensorPoolExtensionApi;
  const secretsSeen: string[] = [];

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
  });

  test('not enabled: one row that says so, with the Enable action', async () => {
    await ext.testing.refreshObjectStorage();
    const r = await rows(ext);
    assert.deepEqual(
      r.map((x) => x.label),
      ['Object storage is not enabled'],
    );
    assert.match(r[0].description, /S3-compatible/);
    const item = await ext.views.objectStorage.getTreeItem(r[0].node);
    assert.equal(item.contextValue, 'objectStorage disabled');
  });

  test('unknown with the reason when the server cannot be asked', async () => {
    await control.fault({
      method: 'GET',
      path: '/object-storage/credentials',
      status: 503,
      body: { message: 'storage backend down' },
      times: 10,
    });
    await ext.testing.refreshObjectStorage();
    const r = await rows(ext);
    assert.equal(r[0].label, 'Object storage state unknown');
    assert.match(r[0].description, /storage backend down/);
  });

  test('enable asks first (org-wide); cancelling sends nothing', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.enableObjectStorage'), false);
    assert.match(p.shown[0].message ?? '', /Enable TensorPool object storage/);
    assert.deepEqual(
      (await control.log()).filter((e) => e.method === 'POST'),
      [],
    );
  });

  test('enable: the record shows (status verbatim, endpoint, region, key id, times); the secret is masked', async () => {
    ext.setPrompter(new ScriptedPrompter(['Enable']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.enableObjectStorage'), true);
    const creds = await engineCredentials();
    assert.ok(creds);
    secretsSeen.push(creds.secret_access_key);
    const [status, buckets] = await rows(ext);
    assert.equal(status.label, 'Object storage');
    assert.equal(status.description, 'ACTIVE');
    assert.equal(buckets.label, 'Buckets');
    const fieldRows = await rows(ext, status.node);
    const fields = Object.fromEntries(fieldRows.map((x) => [x.label, x.description]));
    // Short rows (host, shortened key id, relative times); the full values are in the tooltips.
    assert.equal(fields.Endpoint, new URL(creds.endpoint).host);
    assert.equal(fields['Key ID'].length, 12);
    assert.ok(fields['Key ID'].startsWith(creds.access_key_id.slice(0, 6)), fields['Key ID']);
    assert.ok(fields['Key ID'].endsWith(creds.access_key_id.slice(-5)), fields['Key ID']);
    const tooltips = Object.fromEntries(
      await Promise.all(
        fieldRows.map(
          async (x) => [x.label, await resolvedTooltip(ext.views.objectStorage, x.node)] as const,
        ),
      ),
    );
    assert.ok(tooltips.Endpoint.includes(creds.endpoint), tooltips.Endpoint);
    assert.ok(tooltips['Key ID'].includes(creds.access_key_id), tooltips['Key ID']);
    assert.ok(fields.Region, JSON.stringify(fields));
    assert.match(fields.Created, /^(just now|\d+ (second|minute)s? ago)$/);
    assert.match(fields.Updated, /^(just now|\d+ (second|minute)s? ago)$/);
    assert.match(tooltips.Created, /\d{4}.*\d:\d\d:\d\d/);
    for (const t of Object.values(tooltips)) assert.ok(!t.includes(creds.secret_access_key));
    assert.ok(!fields['Secret key'].includes(creds.secret_access_key));
  });

  test('copy endpoint and the secret key (from SecretStorage, no request)', async () => {
    const creds = (await engineCredentials())!;
    await vscode.commands.executeCommand('tensorpool.copyStorageEndpoint');
    assert.equal(await vscode.env.clipboard.readText(), creds.endpoint);
    await control.clearLog();
    await vscode.commands.executeCommand('tensorpool.copyStorageSecretKey');
    assert.equal(await vscode.env.clipboard.readText(), creds.secret_access_key);
    assert.deepEqual(
      await control.calls('GET', '/object-storage/credentials'),
      [],
      'served from SecretStorage',
    );
    await vscode.env.clipboard.writeText('');
  });

  test('rotate: warned first, then both keys change and the stored secret is replaced', async () => {
    const before = (await engineCredentials())!;
    const p = new ScriptedPrompter(['Rotate Keys']);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.rotateObjectStorageKeys'), true);
    assert.match(p.shown[0].message ?? '', /Rotate/);
    const after = (await engineCredentials())!;
    secretsSeen.push(after.secret_access_key);
    assert.notEqual(after.access_key_id, before.access_key_id);
    const status = (await rows(ext))[0];
    const keyRow = (await rows(ext, status.node)).find((x) => x.label === 'Key ID');
    assert.ok(keyRow);
    assert.equal(keyRow.node.kind === 'field' && keyRow.node.value, after.access_key_id);
    assert.ok(keyRow.description.endsWith(after.access_key_id.slice(-5)), keyRow.description);
    await control.clearLog();
    await vscode.commands.executeCommand('tensorpool.copyStorageSecretKey');
    assert.equal(await vscode.env.clipboard.readText(), after.secret_access_key);
    await vscode.env.clipboard.writeText('');
  });

  test('buckets: create validates S3 names before sending; delete explains a non-empty bucket', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter(['Bad_Bucket', 'ab', 'itest-bucket']);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.createBucket'), 'itest-bucket');
    assert.equal(p.rejections.length, 2);
    assert.deepEqual(
      (await control.log()).filter((e) => e.method === 'PUT').map((e) => [e.path, e.status]),
      [['/object-storage/bucket/create/itest-bucket', 201]],
    );
    const bucketsRow = (await rows(ext))[1];
    assert.deepEqual(
      (await rows(ext, bucketsRow.node)).map((x) => x.label),
      ['itest-bucket'],
    );
    await control.putObject('itest-bucket', 'data/x.bin');
    ext.setPrompter(new ScriptedPrompter(['Delete', ESCAPE]));
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.deleteBucket', 'itest-bucket'),
      false,
      'a non-empty bucket is kept when deleting its objects is declined',
    );
    await control.reset('none');
    ext.setPrompter(new ScriptedPrompter(['Enable']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.enableObjectStorage'), true);
    secretsSeen.push((await engineCredentials())!.secret_access_key);
    ext.setPrompter(new ScriptedPrompter(['empty-one']));
    await vscode.commands.executeCommand('tensorpool.createBucket');
    ext.setPrompter(new ScriptedPrompter(['Delete']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.deleteBucket', 'empty-one'), true);
    assert.equal((await control.calls('DELETE', '/object-storage/bucket/delete/empty-one'))[0].status, 204);
  });

  test('disable: confirmed, then the section says not enabled and the secret is gone', async () => {
    ext.setPrompter(new ScriptedPrompter(['Disable']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.disableObjectStorage'), true);
    assert.deepEqual(
      (await rows(ext)).map((x) => x.label),
      ['Object storage is not enabled'],
    );
    await control.clearLog();
    await vscode.commands.executeCommand('tensorpool.copyStorageSecretKey');
    assert.equal(
      (await control.calls('GET', '/object-storage/credentials'))[0]?.status,
      404,
      'nothing stored: asked the server, which says not enabled',
    );
  });

  test('no secret key appears in the log, settings, global state or the store', async () => {
    assert.ok(secretsSeen.length >= 3);
    const places = [
      ext.testing.logTail.join('\n'),
      JSON.stringify(vscode.workspace.getConfiguration('tensorpool')),
      JSON.stringify(ext.testing.globalState()),
      JSON.stringify(ext.store.objectStorage),
    ];
    for (const secret of secretsSeen)
      for (const p of places) assert.ok(!p.includes(secret), `secret found in ${p.slice(0, 120)}`);
  });
});
