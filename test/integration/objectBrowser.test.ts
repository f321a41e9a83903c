// Inside buckets, in the real extension host against the engine's real S3 server (s3rver): paging with
// Load more and a prefix filter, uploads (small and multipart) read back byte for byte, a cancelled multipart
// upload leaving nothing behind, a folder download, deleting a folder, a presigned URL, and a 403 after the
// keys were rotated elsewhere re-reading the credentials once.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { StorageNode } from '../../src/vscode/objectStorage/objectStorageTree';
import { fileItem, S3Session, uploadFile, listAll } from '../../src/s3';
import { ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engine } from './helpers';
import { accountIs, api, control, signIn } from './control';

interface Creds {
  endpoint: string;
  region: string;
  access_key_id: string;
  secret_access_key: string;
}

async function tp(method: string, apiPath: string): Promise<unknown> {
  const r = await fetch(engine.url + apiPath, {
    method,
    headers: { authorization: `Bearer ${engine.token}` },
  });
  assert.ok(r.ok, `${method} ${apiPath}: ${r.status}`);
  return r.status === 204 ? undefined : r.json();
}

async function s3(): Promise<S3Client> {
  const c = (await tp('GET', '/object-storage/credentials')) as Creds;
  return new S3Client({
    endpoint: c.endpoint,
    region: c.region,
    forcePathStyle: true,
    credentials: { accessKeyId: c.access_key_id, secretAccessKey: c.secret_access_key },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

async function labelled(ext: TensorPoolExtensionApi, parent?: StorageNode) {
  const provider = ext.views.objectStorage;
  const nodes = (await provider.getChildren(parent)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = await provider.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return { node, label, item };
    }),
  );
}

async function child(ext: TensorPoolExtensionApi, parent: StorageNode | undefined, label: string) {
  const found = (await labelled(ext, parent)).find((r) => r.label === label);
  assert.ok(found, `a row ${label}`);
  return found.node;
}

async function bucketNode(ext: TensorPoolExtensionApi, name: string): Promise<StorageNode> {
  const buckets = await child(ext, undefined, 'Buckets');
  return child(ext, buckets, name);
}

suite('Object storage: browsing and moving objects (real S3 server)', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let dir: string;
  const bucket = 'browse-data';

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    await tp('POST', '/object-storage/enable');
    await tp('PUT', `/object-storage/bucket/create/${bucket}`);
    await ext.testing.refreshObjectStorage();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-objects-'));
  });
  suiteTeardown(() => {
    ext.setPrompter(undefined);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a bucket lists its folders and objects a page at a time, with Load more and a prefix filter', async () => {
    const client = await s3();
    const keys = Array.from({ length: 230 }, (_, i) => `paged/item-${String(i).padStart(3, '0')}.txt`);
    for (let i = 0; i < keys.length; i += 20)
      await Promise.all(
        keys
          .slice(i, i + 20)
          .map((Key) => client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'x' }))),
      );
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'paged/sub/inner.txt', Body: 'inner' }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'top.txt', Body: 'hello top' }));
    client.destroy();

    const b = await bucketNode(ext, bucket);
    const top = await labelled(ext, b);
    assert.deepEqual(
      top.map((r) => r.label),
      ['paged', 'top.txt'],
    );
    const topFile = top[1].item;
    assert.match(String(topFile.description), /^9 B · /);
    assert.equal(topFile.resourceUri?.scheme, 'tensorpool-s3');
    const folder = top[0].node;
    const first = await labelled(ext, folder);
    assert.equal(first.length, 201, '200 rows and Load more');
    assert.equal(first[0].label, 'item-000.txt', 'keys in order: paged/sub/ comes after the items');
    assert.ok(!first.some((r) => r.label === 'sub'));
    assert.equal(first[200].label, 'Load more…');
    await vscode.commands.executeCommand('tensorpool.loadMoreObjects', first[200].node);
    const all = await labelled(ext, folder);
    assert.equal(all.length, 231, 'every row, no Load more at the end');
    assert.ok(all.some((r) => r.label === 'item-229.txt'));
    const sub = all.find((r) => r.label === 'sub');
    assert.equal(sub?.item.contextValue, 's3Folder');

    await vscode.commands.executeCommand('tensorpool.filterBucket', b, 'paged/item-01');
    const filtered = await labelled(ext, await bucketNode(ext, bucket));
    assert.deepEqual(
      filtered.map((r) => r.label),
      Array.from({ length: 10 }, (_, i) => `item-01${i}.txt`),
    );
    await vscode.commands.executeCommand('tensorpool.filterBucket', b, '');
    assert.equal((await labelled(ext, b)).length, 2);
  });

  test('Upload Files puts a small and a multipart file into a folder, read back byte for byte', async () => {
    const small = path.join(dir, 'small.bin');
    const big = path.join(dir, 'big.bin');
    fs.writeFileSync(small, randomBytes(4096));
    fs.writeFileSync(big, randomBytes(40 * 1024 * 1024 + 7));
    const folder = await bucketNode(ext, bucket);
    const result = await vscode.commands.executeCommand<{ uploaded: string[] }>(
      'tensorpool.uploadFiles',
      folder,
      [vscode.Uri.file(small), vscode.Uri.file(big)],
    );
    assert.deepEqual(result.uploaded.sort(), ['big.bin', 'small.bin']);
    const rows = await labelled(ext, folder);
    assert.ok(
      rows.some((r) => r.label === 'big.bin'),
      'the tree shows the upload',
    );

    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    const bigRow = rows.find((r) => r.label === 'big.bin')!;
    await vscode.commands.executeCommand('tensorpool.downloadObjects', bigRow.node, vscode.Uri.file(out));
    assert.ok(fs.readFileSync(path.join(out, 'big.bin')).equals(fs.readFileSync(big)));
    const smallRow = rows.find((r) => r.label === 'small.bin')!;
    await vscode.commands.executeCommand('tensorpool.downloadObjects', smallRow.node, vscode.Uri.file(out));
    assert.ok(fs.readFileSync(path.join(out, 'small.bin')).equals(fs.readFileSync(small)));
    assert.deepEqual((await control.s3()).pendingUploads, []);
  });

  test('an existing object is asked about: skip keeps it, overwrite replaces it', async () => {
    const f = path.join(dir, 'top.txt');
    fs.writeFileSync(f, 'replaced');
    const b = await bucketNode(ext, bucket);
    ext.setPrompter(new ScriptedPrompter(['Skip Existing']));
    const skipped = await vscode.commands.executeCommand<{
      skipped: string[];
    }>('tensorpool.uploadFiles', b, [vscode.Uri.file(f)]);
    assert.deepEqual(skipped.skipped, ['top.txt']);
    ext.setPrompter(new ScriptedPrompter(['Overwrite']));
    const replaced = await vscode.commands.executeCommand<{
      uploaded: string[];
    }>('tensorpool.uploadFiles', b, [vscode.Uri.file(f)]);
    assert.deepEqual(replaced.uploaded, ['top.txt']);
  });

  test('a multipart upload cancelled part-way leaves no object and no pending upload', async () => {
    const big = path.join(dir, 'cancel.bin');
    fs.writeFileSync(big, randomBytes(64 * 1024 * 1024));
    const creds = (await tp('GET', '/object-storage/credentials')) as Creds;
    const session = new S3Session(async () => ({
      endpoint: creds.endpoint,
      region: creds.region,
      accessKeyId: creds.access_key_id,
      secretAccessKey: creds.secret_access_key,
    }));
    const stop = new AbortController();
    let sent = 0;
    await assert.rejects(
      session.run(async (c) =>
        uploadFile(c, bucket, await fileItem(big, 'cancelled/big.bin'), {
          signal: stop.signal,
          onBytes: (n) => {
            sent += n;
            stop.abort();
          },
        }),
      ),
      (e: Error) => e.name === 'AbortError',
    );
    assert.ok(sent > 0 && sent < 64 * 1024 * 1024, 'cancelled part-way');
    assert.deepEqual(await session.run((c) => listAll(c, bucket, 'cancelled/')), []);
    assert.deepEqual((await control.s3()).pendingUploads, []);
    session.dispose();
  });

  test('Download a folder writes its tree under the folder name, and Delete removes it after a confirmation', async () => {
    const client = await s3();
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'docs/a.txt', Body: 'a' }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'docs/deep/b.txt', Body: 'inner' }));
    await vscode.commands.executeCommand('tensorpool.filterBucket', await bucketNode(ext, bucket), '');
    const folder = await child(ext, await bucketNode(ext, bucket), 'docs');
    const out = path.join(dir, 'folder-out');
    fs.mkdirSync(out);
    const result = await vscode.commands.executeCommand<{
      written: string[];
    }>('tensorpool.downloadObjects', folder, vscode.Uri.file(out));
    assert.equal(result.written.length, 2);
    assert.equal(fs.readFileSync(path.join(out, 'docs', 'deep', 'b.txt'), 'utf8'), 'inner');
    assert.deepEqual(fs.readdirSync(path.join(out, 'docs')).sort(), ['a.txt', 'deep'], 'no .part file left');

    const prompter = new ScriptedPrompter(['Delete']);
    ext.setPrompter(prompter);
    const deleted = await vscode.commands.executeCommand('tensorpool.deleteObjects', folder);
    assert.equal(deleted, 2);
    assert.match(prompter.shown[0].message ?? '', /2 object/);
    assert.deepEqual(await listAllKeys(client, 'docs/'), []);
    assert.ok(!(await labelled(ext, await bucketNode(ext, bucket))).some((r) => r.label === 'docs'));
    client.destroy();
  });

  test('Copy Presigned URL gives a link that fetches the object without credentials', async () => {
    const obj = await child(ext, await bucketNode(ext, bucket), 'top.txt');
    const url = await vscode.commands.executeCommand<string>('tensorpool.copyPresignedUrl', obj, 3600);
    assert.equal(await vscode.env.clipboard.readText(), url);
    const r = await fetch(url);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), 'replaced');
    assert.equal(await vscode.commands.executeCommand('tensorpool.copyS3Uri', obj), `s3://${bucket}/top.txt`);
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.copyRclonePath', obj),
      `tp:${bucket}/top.txt`,
    );
  });

  test('a text object opens read-only in the editor; a possibly binary one is asked about first', async () => {
    const obj = await child(ext, await bucketNode(ext, bucket), 'top.txt');
    assert.equal(await vscode.commands.executeCommand('tensorpool.openS3Object', obj), true);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), `tensorpool-s3:/${bucket}/top.txt`);
    assert.equal(editor?.document.getText(), 'replaced');
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(editor.document.uri, Buffer.from('no'))),
      'the file system is read-only',
    );
    const bin = await child(ext, await bucketNode(ext, bucket), 'small.bin');
    const prompter = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(prompter);
    assert.equal(await vscode.commands.executeCommand('tensorpool.openS3Object', bin), false);
    assert.match(prompter.shown[0].message ?? '', /may be binary/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Delete Bucket on a bucket with objects deletes them and the bucket after a second confirmation', async () => {
    await tp('PUT', '/object-storage/bucket/create/doomed');
    const client = await s3();
    await client.send(new PutObjectCommand({ Bucket: 'doomed', Key: 'a.txt', Body: 'a' }));
    await client.send(new PutObjectCommand({ Bucket: 'doomed', Key: 'deep/b.txt', Body: 'b' }));
    client.destroy();
    const prompter = new ScriptedPrompter(['Delete', 'Delete Objects and Bucket']);
    ext.setPrompter(prompter);
    assert.equal(await vscode.commands.executeCommand('tensorpool.deleteBucket', 'doomed'), true);
    assert.match(prompter.shown[1].message ?? '', /not empty/);
    assert.match(prompter.shown[1].detail ?? '', /2 objects/);
    const listed = (await tp('GET', '/object-storage/bucket/list')) as { buckets: string[] };
    assert.ok(!listed.buckets.includes('doomed'));
  });

  test('keys rotated elsewhere: the 403 re-reads the credentials once and the listing works', async () => {
    const b = await bucketNode(ext, bucket);
    await labelled(ext, b);
    await tp('POST', '/object-storage/rotate-keys');
    await control.clearLog();
    await vscode.commands.executeCommand('tensorpool.filterBucket', b, '');
    const rows = await labelled(ext, await bucketNode(ext, bucket));
    assert.ok(
      rows.some((r) => r.label === 'top.txt'),
      rows.map((r) => r.label).join(', '),
    );
    assert.equal((await control.calls('GET', '/object-storage/credentials')).length, 1);
  });
});

async function listAllKeys(client: S3Client, prefix: string): Promise<string[]> {
  const { ListObjectsCommand } = await import('@aws-sdk/client-s3');
  const out = await client.send(new ListObjectsCommand({ Bucket: 'browse-data', Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key ?? '');
}
