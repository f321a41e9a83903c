/**
 * The object-storage (S3) layer in plain Node against the engine's real S3 server (s3rver on loopback, the
 * credentials record pointing at it): paging and prefixes, small and multipart uploads compared byte for
 * byte, a cancelled multipart upload leaving neither object nor pending upload, folder download with a `..`
 * key refused, delete, presigned GET, and a 403 after a key rotation re-reading the keys once.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startEngine, type RunningEngine } from '../../../engine/server';
import {
  S3Session,
  deleteKeys,
  downloadMany,
  fileItem,
  listAll,
  listPage,
  objectsUnder,
  planDownload,
  presignGet,
  uploadFile,
  uploadFiles,
  KeysRejectedError,
  type S3Credentials,
} from '../../../src/s3';
import { engineCall } from '../../fixtures/engineCall';
import { EngineControl } from '../../shared/engineControl';

interface Record {
  endpoint: string;
  region: string;
  access_key_id: string;
  secret_access_key: string;
}

describe('S3 layer against a real S3 server (s3rver)', function () {
  this.timeout(60_000);
  let engine: RunningEngine;
  let dir: string;
  let reads = 0;
  const call = (method: string, path: string): Promise<unknown> => engineCall(engine)(method, path);
  const source = async (): Promise<S3Credentials> => {
    reads++;
    const r = (await call('GET', '/object-storage/credentials')) as Record;
    return {
      endpoint: r.endpoint,
      region: r.region,
      accessKeyId: r.access_key_id,
      secretAccessKey: r.secret_access_key,
    };
  };
  let session: S3Session;

  before(async () => {
    engine = await startEngine({ s3: true });
    await call('POST', '/object-storage/enable');
    await call('PUT', '/object-storage/bucket/create/data');
    dir = mkdtempSync(join(tmpdir(), 'tp-s3-unit-'));
  });
  after(async () => {
    session?.dispose();
    await engine.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    reads = 0;
    session = new S3Session(source);
  });

  it('points the credentials record at the S3 server on loopback', async () => {
    const creds = await source();
    assert.equal(creds.endpoint, engine.s3Endpoint);
    assert.match(creds.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('lists folders and objects a page at a time under a prefix', async () => {
    await session.run(async (c) => {
      for (let i = 0; i < 25; i++)
        await c.send(
          new PutObjectCommand({
            Bucket: 'data',
            Key: `paged/f${String(i).padStart(2, '0')}.txt`,
            Body: `n${i}`,
          }),
        );
      await c.send(new PutObjectCommand({ Bucket: 'data', Key: 'paged/sub/inner.txt', Body: 'x' }));
    });
    const first = await session.run((c) => listPage(c, 'data', 'paged/', { pageSize: 10 }));
    assert.equal(first.objects.length + first.folders.length, 10);
    assert.ok(first.next, 'a continuation token');
    const seen = [...first.objects.map((o) => o.key), ...first.folders];
    let next: string | undefined = first.next;
    while (next) {
      const continuation: string = next;
      const page = await session.run((c) => listPage(c, 'data', 'paged/', { pageSize: 10, continuation }));
      seen.push(...page.objects.map((o) => o.key), ...page.folders);
      next = page.next;
    }
    assert.equal(seen.length, 26);
    assert.ok(seen.includes('paged/sub/'));
    assert.ok(seen.includes('paged/f24.txt'));
    const top = await session.run((c) => listPage(c, 'data', ''));
    assert.ok(top.folders.includes('paged/'));
  });

  it('uploads a small file and a multipart file that read back byte for byte (the large one in ranges)', async () => {
    const small = join(dir, 'small.bin');
    const big = join(dir, 'big.bin');
    writeFileSync(small, randomBytes(1000));
    writeFileSync(big, randomBytes(40 * 1024 * 1024 + 123));
    let bytes = 0;
    await session.run(async (c) => uploadFile(c, 'data', await fileItem(small, 'up/small.bin')));
    await session.run(async (c) =>
      uploadFile(c, 'data', await fileItem(big, 'up/big.bin'), {
        partSize: 5 * 1024 * 1024,
        onBytes: (n) => (bytes += n),
      }),
    );
    assert.equal(bytes, 40 * 1024 * 1024 + 123);
    const out = join(dir, 'down');
    const result = await downloadMany(session, 'data', 'up/', out);
    assert.deepEqual(result.failed, []);
    assert.ok(readFileSync(join(out, 'up', 'small.bin')).equals(readFileSync(small)));
    assert.ok(readFileSync(join(out, 'up', 'big.bin')).equals(readFileSync(big)));
    assert.deepEqual(await new EngineControl(engine.url).s3(), {
      endpoint: engine.s3Endpoint,
      region: 'us-east-1',
      pendingUploads: [],
    });
  });

  it('a cancelled multipart upload leaves no object and no pending upload', async () => {
    const big = join(dir, 'cancel.bin');
    writeFileSync(big, randomBytes(30 * 1024 * 1024));
    const stop = new AbortController();
    let sent = 0;
    await assert.rejects(
      session.run(async (c) =>
        uploadFile(c, 'data', await fileItem(big, 'cancel/big.bin'), {
          partSize: 5 * 1024 * 1024,
          queueSize: 2,
          signal: stop.signal,
          onBytes: (n) => {
            sent += n;
            if (sent >= 5 * 1024 * 1024) stop.abort();
          },
        }),
      ),
      (e: Error) => e.name === 'AbortError',
    );
    const left = await session.run((c) => listAll(c, 'data', 'cancel/'));
    assert.deepEqual(left, []);
    const s3 = await new EngineControl(engine.url).s3();
    assert.deepEqual(s3.pendingUploads, []);
  });

  it('plans a folder download inside the folder and refuses keys that climb out with ..', () => {
    // s3rver cannot store such a key (its file store resolves the ..), so the listing is given here.
    const out = join(dir, 'trav-out');
    const plan = planDownload(
      [
        { key: 'trav/ok.txt', size: 2 },
        { key: 'trav/../../escape.txt', size: 3 },
        { key: 'trav/a/../../../x', size: 1 },
      ],
      'trav/',
      out,
    );
    assert.deepEqual(plan.todo, [{ key: 'trav/ok.txt', path: join(out, 'trav', 'ok.txt') }]);
    assert.deepEqual(
      plan.refused.map((r) => r.key),
      ['trav/../../escape.txt', 'trav/a/../../../x'],
    );
    assert.match(plan.refused[0].reason, /\.\./);
  });

  it('downloads a folder with its sub-folders and never leaves a .part file behind', async () => {
    await session.run(async (c) => {
      await c.send(new PutObjectCommand({ Bucket: 'data', Key: 'tree/ok.txt', Body: 'ok' }));
      await c.send(new PutObjectCommand({ Bucket: 'data', Key: 'tree/sub/deep.txt', Body: 'deep' }));
    });
    const out = join(dir, 'tree-out');
    const result = await downloadMany(session, 'data', 'tree/', out);
    assert.equal(result.written.length, 2);
    assert.deepEqual(readdirSync(join(out, 'tree')).sort(), ['ok.txt', 'sub']);
    assert.equal(readFileSync(join(out, 'tree', 'sub', 'deep.txt'), 'utf8'), 'deep');
    const again = await downloadMany(session, 'data', 'tree/', out);
    assert.equal(again.skipped.length, 2, 'existing files are kept unless overwrite is asked');
  });

  it('a folder download cancelled midway stops, leaves no .part file and only complete files', async () => {
    const body = (i: number) => Buffer.alloc(40_000 + i, i % 251);
    await session.run(async (c) => {
      for (let i = 0; i < 60; i++)
        await c.send(new PutObjectCommand({ Bucket: 'data', Key: `many/f${i}.bin`, Body: body(i) }));
    });
    const out = join(dir, 'many-out');
    const stop = new AbortController();
    let received = 0;
    const result = await downloadMany(session, 'data', 'many/', out, {
      signal: stop.signal,
      concurrency: 4,
      onBytes: (n) => {
        received += n;
        if (received > 400_000) stop.abort();
      },
    });
    assert.equal(result.cancelled, true);
    const names = readdirSync(join(out, 'many'));
    assert.ok(names.length < 60, `${names.length} files: the cancel stopped nothing`);
    assert.deepEqual(
      names.filter((n) => n.endsWith('.part')),
      [],
    );
    for (const n of names) {
      const i = Number(/^f(\d+)\.bin$/.exec(n)?.[1]);
      assert.ok(readFileSync(join(out, 'many', n)).equals(body(i)), `${n} is not complete`);
    }
  });

  it('deletes a folder and every object under it', async () => {
    const f = join(dir, 'd.txt');
    writeFileSync(f, 'd');
    await uploadFiles(session, 'data', [await fileItem(f, 'del/a.txt'), await fileItem(f, 'del/b/c.txt')]);
    const objects = await session.run((c) => objectsUnder(c, 'data', 'del/'));
    assert.equal(objects.length, 2);
    assert.deepEqual(
      await session.run((c) =>
        deleteKeys(
          c,
          'data',
          objects.map((o) => o.key),
        ),
      ),
      [],
    );
    assert.deepEqual(await session.run((c) => listAll(c, 'data', 'del/')), []);
  });

  it('presigns a GET URL that fetches the object without credentials', async () => {
    await session.run((c) =>
      c.send(new PutObjectCommand({ Bucket: 'data', Key: 'share/hello.txt', Body: 'hello there' })),
    );
    const url = await session.run((c) => presignGet(c, 'data', 'share/hello.txt', 3600));
    assert.match(url, /X-Amz-Expires=3600/);
    const r = await fetch(url);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), 'hello there');
  });

  it('after the keys are rotated elsewhere, a 403 re-reads the credentials once and succeeds', async () => {
    await session.run((c) => listPage(c, 'data', ''));
    assert.equal(reads, 1);
    await call('POST', '/object-storage/rotate-keys');
    const page = await session.run((c) => listPage(c, 'data', ''));
    assert.ok(page.folders.length > 0);
    assert.equal(reads, 2);
    assert.equal(session.rereads, 1);
  });

  it('keys that still fail after one re-read end in KeysRejectedError, not a loop', async () => {
    // s3rver checks the access key id (it does not verify V4 signatures): a revoked id is refused.
    const stale = new S3Session(async () => {
      reads++;
      const c = await source();
      return { ...c, accessKeyId: 'TPAKREVOKED0000000' };
    });
    await assert.rejects(
      stale.run((c) => listPage(c, 'data', '')),
      KeysRejectedError,
    );
    stale.dispose();
  });
});
