/**
 * A download's GETs (src/s3/gets.ts): signed by the client's own SigV4 signer and sent by its own HTTP
 * handler without the SDK's middleware stack. They must ask for exactly what the SDK asks for (the same
 * path for any key, the same credential scope), take only a 200/206 themselves and hand anything else to
 * the SDK's full path; and a download must still keep files that are in the way. Against the engine's real
 * S3 server (s3rver), which does not check V4 signatures: the request itself is compared with the SDK's.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startEngine, type RunningEngine } from '../../../engine/server';
import { S3Session, createS3Client, downloadMany, type S3Credentials } from '../../../src/s3';
import { sdkGets, signedGets, type Get } from '../../../src/s3/gets';
import { engineCall } from '../../fixtures/engineCall';

const KEYS = ['plain/a.bin', "odd/k e+y%20&=?#!'()*~ü€.bin", 'dots/./c'];

interface Sent {
  path: string;
  headers: Record<string, string>;
}

/** Every request the client's handler is given (then passed on, or refused with `fail`). */
function recordSent(client: S3Client, fail?: (n: number) => boolean): Sent[] {
  const sent: Sent[] = [];
  const handler = client.config.requestHandler;
  const handle = handler.handle.bind(handler);
  handler.handle = async (request: Sent, options?: object) => {
    sent.push({ path: request.path, headers: { ...request.headers } });
    if (fail?.(sent.length)) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    return handle(request, options);
  };
  return sent;
}

async function bodyOf(get: Get, client: S3Client, key: string, range?: string): Promise<Buffer> {
  const out = await get(client, { Bucket: 'downloads', Key: key, Range: range });
  const chunks: Buffer[] = [];
  for await (const c of out.Body as Readable) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('S3 download GETs without the middleware stack', function () {
  this.timeout(60_000);
  let engine: RunningEngine;
  let creds: S3Credentials;
  let dir: string;
  const noFallback: Get = async (_c, input) => assert.fail(`fell back to the SDK for ${input.Key}`);

  before(async () => {
    engine = await startEngine({ s3: true });
    const call = engineCall(engine);
    await call('POST', '/object-storage/enable');
    await call('PUT', '/object-storage/bucket/create/downloads');
    const r = (await call('GET', '/object-storage/credentials')) as Record<string, string>;
    creds = {
      endpoint: r.endpoint,
      region: r.region,
      accessKeyId: r.access_key_id,
      secretAccessKey: r.secret_access_key,
    };
    dir = mkdtempSync(join(tmpdir(), 'tp-s3-dl-'));
  });
  after(async () => {
    await engine.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('asks for the path the SDK asks for, whatever the key, with the same credential scope', async () => {
    // A base path on the endpoint and a region of its own; nothing listens on port 9.
    const client = createS3Client({ ...creds, endpoint: 'http://127.0.0.1:9/base/', region: 'eu-west-3' });
    const sent = recordSent(client, () => true);
    const scope = (s: Sent) =>
      /Credential=([^,]+)/.exec(s.headers.authorization)?.[1].replace(/\/\d{8}\//, '/D/');
    // (s3rver cannot store a key with an empty segment; the SDK can ask for one.)
    for (const key of [...KEYS, 'a//b']) {
      sent.length = 0;
      const input = { Bucket: 'b-1', Key: key, Range: 'bytes=0-1' };
      const viaSdk: Get = async (c) => c.send(new GetObjectCommand(input));
      await signedGets(undefined, viaSdk)(client, input).catch(() => undefined);
      const [ours, sdk] = [sent[0], sent[1]];
      assert.ok(ours && sdk, `${key}: ${sent.length} requests`);
      assert.equal(ours.path, sdk.path, key);
      assert.equal(scope(ours), scope(sdk));
      assert.equal(scope(ours), `${creds.accessKeyId}/D/eu-west-3/s3/aws4_request`);
      assert.equal(ours.headers.range, 'bytes=0-1');
      assert.match(ours.headers.authorization, /SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,/);
      assert.equal(ours.headers['x-amz-content-sha256'], sdk.headers['x-amz-content-sha256']);
    }
    client.destroy();
  });

  it('fetches objects and ranges byte for byte without falling back to the SDK', async () => {
    const client = createS3Client(creds);
    const bodies = KEYS.map((_, i) => Buffer.from(`body ${i} `.repeat(1000 + i)));
    for (const [i, key] of KEYS.entries())
      await client.send(new PutObjectCommand({ Bucket: 'downloads', Key: key, Body: bodies[i] }));
    const get = signedGets(undefined, noFallback);
    for (const [i, key] of KEYS.entries()) {
      assert.ok((await bodyOf(get, client, key)).equals(bodies[i]), key);
      assert.ok((await bodyOf(get, client, key, 'bytes=5-20')).equals(bodies[i].subarray(5, 21)), key);
    }
    client.destroy();
  });

  it('hands an error answer or a failed connection to the SDK, which retries and names the error', async () => {
    const client = createS3Client(creds);
    await client.send(new PutObjectCommand({ Bucket: 'downloads', Key: 'there.txt', Body: 'there' }));
    const asked: string[] = [];
    const sdk = sdkGets();
    const get = signedGets(undefined, (c, input) => (asked.push(input.Key ?? ''), sdk(c, input)));
    await assert.rejects(bodyOf(get, client, 'missing.txt'), { name: 'NoSuchKey' });
    // The first connection fails before any answer: the SDK's path asks again.
    recordSent(client, (n) => n === 1);
    assert.equal((await bodyOf(get, client, 'there.txt')).toString(), 'there');
    assert.deepEqual(asked, ['missing.txt', 'there.txt']);
    client.destroy();
  });

  it('keeps files in the way in a folder that holds some, writes the rest, skips nothing in a new folder', async () => {
    const session = new S3Session(async () => creds);
    const client = (await session.current(false)).client;
    for (const key of ['keep/mine.txt', 'keep/theirs.txt', 'keep/sub/deep.txt'])
      await client.send(new PutObjectCommand({ Bucket: 'downloads', Key: key, Body: `from s3: ${key}` }));
    const out = join(dir, 'keep-out');
    mkdirSync(join(out, 'keep'), { recursive: true });
    writeFileSync(join(out, 'keep', 'mine.txt'), 'local');
    const r = await downloadMany(session, 'downloads', 'keep/', out);
    assert.deepEqual(r.skipped, [join(out, 'keep', 'mine.txt')]);
    assert.equal(readFileSync(join(out, 'keep', 'mine.txt'), 'utf8'), 'local');
    assert.equal(readFileSync(join(out, 'keep', 'theirs.txt'), 'utf8'), 'from s3: keep/theirs.txt');
    assert.equal(readFileSync(join(out, 'keep', 'sub', 'deep.txt'), 'utf8'), 'from s3: keep/sub/deep.txt');
    const fresh = await downloadMany(session, 'downloads', 'keep/', join(dir, 'fresh-out'));
    assert.deepEqual([fresh.written.length, fresh.skipped.length], [3, 0]);
    session.dispose();
  });
});
