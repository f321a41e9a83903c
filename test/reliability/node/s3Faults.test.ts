/**
 * Object storage under faults: the extension's S3 layer (src/s3, what Upload Files… / Download… run) against
 * the engine's real S3 server (s3rver), through a small fault-injecting HTTP relay in front of it (test
 * code; the server is the real one). Nothing may be lost or half-written: an upload either completes byte
 * for byte or leaves no object and no pending multipart upload; a download never leaves a file under its
 * final name unless it is complete.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEngine, type RunningEngine } from '../../../engine/server';
import {
  S3Session,
  downloadMany,
  fileItem,
  listAll,
  listPage,
  uploadFile,
  type S3Credentials,
} from '../../../src/s3';
import { S3_FAULTS, s3FaultSubject, type S3Fault } from '../catalogue';
import { ledger } from '../ledger';
import { engineCall } from '../../fixtures/engineCall';
import { EngineControl } from '../../shared/engineControl';

type Rule = (
  req: http.IncomingMessage,
  n: number,
) => 'pass' | '500' | 'drop-request' | 'drop-response' | number;

/** An HTTP relay to `upstream`; `rule` decides per request (n counts the requests it matched so far). */
async function startRelay(upstream: string): Promise<{ url: string; rule: Rule; close(): Promise<void> }> {
  const target = new URL(upstream);
  const state: { rule: Rule; seen: number } = { rule: () => 'pass', seen: 0 };
  const server = http.createServer((req, res) => {
    const action = state.rule(req, state.seen++);
    if (action === '500') {
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>injected</Message></Error>',
        );
      });
      return;
    }
    if (action === 'drop-request') {
      let got = 0;
      req.on('data', (c: Buffer) => {
        got += c.length;
        if (got > 256 * 1024) req.socket.destroy();
      });
      req.on('end', () => req.socket.destroy());
      return;
    }
    const forward = () => {
      const up = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          if (action === 'drop-response') {
            let sent = 0;
            upRes.on('data', (c: Buffer) => {
              sent += c.length;
              res.write(c);
              if (sent > 64 * 1024) {
                upRes.destroy();
                res.socket?.destroy();
              }
            });
          } else upRes.pipe(res);
        },
      );
      up.on('error', () => res.socket?.destroy());
      req.pipe(up);
    };
    if (typeof action === 'number') setTimeout(forward, action);
    else forward();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get rule() {
      return state.rule;
    },
    set rule(r: Rule) {
      state.rule = r;
      state.seen = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const isPart = (req: http.IncomingMessage) => req.method === 'PUT' && /[?&]partNumber=/.test(req.url ?? '');

describe('reliability: object storage (S3) faults', function () {
  this.timeout(60_000);
  let engine: RunningEngine;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let dir: string;
  let reads = 0;
  const tp = (method: string, path: string): Promise<unknown> => engineCall(engine)(method, path);
  const source = async (): Promise<S3Credentials> => {
    reads++;
    const c = (await tp('GET', '/object-storage/credentials')) as Record<string, string>;
    return {
      endpoint: relay.url,
      region: c.region,
      accessKeyId: c.access_key_id,
      secretAccessKey: c.secret_access_key,
    };
  };
  const pending = async () => (await new EngineControl(engine.url).s3()).pendingUploads;
  const check = (kind: S3Fault, name: string, fn: () => Promise<void>) =>
    ledger.cover(it(`${S3_FAULTS[kind]}: ${name}`, fn), s3FaultSubject(kind));

  before(async () => {
    engine = await startEngine({ s3: true });
    await tp('POST', '/object-storage/enable');
    await tp('PUT', '/object-storage/bucket/create/faults');
    relay = await startRelay(engine.s3Endpoint!);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-s3-faults-'));
  });
  after(async () => {
    await relay?.close();
    await engine?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    relay.rule = () => 'pass';
    reads = 0;
  });

  async function bigFile(name: string, mb: number): Promise<string> {
    const f = path.join(dir, name);
    fs.writeFileSync(f, randomBytes(mb * 1024 * 1024 + 11));
    return f;
  }
  async function readBack(session: S3Session, key: string): Promise<Buffer> {
    const out = path.join(dir, `back-${Date.now()}`);
    const r = await downloadMany(session, 'faults', key, out, { overwrite: true });
    assert.deepEqual(r.failed, []);
    return fs.readFileSync(path.join(out, path.posix.basename(key)));
  }

  check('drop-mid-part', 'the part is sent again and the object is complete, byte for byte', async () => {
    const f = await bigFile('drop.bin', 12);
    const session = new S3Session(source);
    relay.rule = (req, n) => (isPart(req) && n < 3 ? 'drop-request' : 'pass');
    await session.run(async (c) =>
      uploadFile(c, 'faults', await fileItem(f, 'drop.bin'), { partSize: 5 * 1024 * 1024 }),
    );
    relay.rule = () => 'pass';
    assert.ok((await readBack(session, 'drop.bin')).equals(fs.readFileSync(f)));
    assert.deepEqual(await pending(), []);
    session.dispose();
  });

  check('part-500', 'once: retried and complete; on every try: no object and no pending upload', async () => {
    const f = await bigFile('p500.bin', 11);
    const session = new S3Session(source);
    let failed = 0;
    relay.rule = (req) => (isPart(req) && failed++ === 0 ? '500' : 'pass');
    await session.run(async (c) =>
      uploadFile(c, 'faults', await fileItem(f, 'p500.bin'), { partSize: 5 * 1024 * 1024 }),
    );
    assert.ok((await readBack(session, 'p500.bin')).equals(fs.readFileSync(f)));

    relay.rule = (req) => (isPart(req) ? '500' : 'pass');
    await assert.rejects(
      session.run(async (c) =>
        uploadFile(c, 'faults', await fileItem(f, 'never.bin'), { partSize: 5 * 1024 * 1024 }),
      ),
      (e: Error) => /InternalError|500/.test(`${e.name} ${e.message}`),
    );
    relay.rule = () => 'pass';
    assert.deepEqual(await session.run((c) => listAll(c, 'faults', 'never')), []);
    assert.deepEqual(await pending(), []);
    session.dispose();
  });

  check('commit-500', 'a failed commit is never sent twice: no object, no pending upload', async () => {
    const f = await bigFile('commit.bin', 11);
    const session = new S3Session(source);
    let commits = 0;
    relay.rule = (req) => {
      const commit = req.method === 'POST' && /[?&]uploadId=/.test(req.url ?? '');
      if (commit) commits++;
      return commit ? '500' : 'pass';
    };
    await assert.rejects(
      session.run(async (c) =>
        uploadFile(c, 'faults', await fileItem(f, 'commit.bin'), { partSize: 5 * 1024 * 1024 }),
      ),
      (e: Error) => e.name === 'NotRetriedError' && /injected|InternalError|500/.test(e.message),
    );
    assert.equal(commits, 1, 'the commit went out once');
    relay.rule = () => 'pass';
    assert.deepEqual(await session.run((c) => listAll(c, 'faults', 'commit')), []);
    assert.deepEqual(await pending(), []);
    session.dispose();
  });

  check('rotated-403', 'the keys are re-read once and the upload completes', async () => {
    const f = await bigFile('rot.bin', 1);
    const session = new S3Session(source);
    await session.run((c) => listPage(c, 'faults', ''));
    await tp('POST', '/object-storage/rotate-keys');
    await session.run(async (c) => uploadFile(c, 'faults', await fileItem(f, 'rot.bin')));
    assert.equal(session.rereads, 1);
    assert.equal(reads, 2);
    assert.ok((await readBack(session, 'rot.bin')).equals(fs.readFileSync(f)));
    session.dispose();
  });

  check('slow', 'every answer 300 ms late: listing, upload and download still complete', async () => {
    const f = await bigFile('slow.bin', 6);
    const session = new S3Session(source);
    relay.rule = () => 300;
    await session.run(async (c) =>
      uploadFile(c, 'faults', await fileItem(f, 'slow.bin'), { partSize: 5 * 1024 * 1024 }),
    );
    const page = await session.run((c) => listPage(c, 'faults', ''));
    assert.ok(page.objects.some((o) => o.key === 'slow.bin'));
    assert.ok((await readBack(session, 'slow.bin')).equals(fs.readFileSync(f)));
    session.dispose();
  });

  check(
    'drop-mid-download',
    'reported as failed with no file, half or whole, left behind; the next download completes',
    async () => {
      const f = await bigFile('dl.bin', 2);
      const session = new S3Session(source);
      await session.run(async (c) => uploadFile(c, 'faults', await fileItem(f, 'dl.bin')));
      const out = path.join(dir, 'dl-out');
      relay.rule = (req) =>
        req.method === 'GET' && /dl\.bin/.test(req.url ?? '') ? 'drop-response' : 'pass';
      const r = await downloadMany(session, 'faults', 'dl.bin', out);
      assert.equal(r.written.length, 0);
      assert.equal(r.failed.length, 1);
      assert.deepEqual(fs.existsSync(out) ? fs.readdirSync(out) : [], [], 'no file and no .part left');
      relay.rule = () => 'pass';
      assert.ok((await readBack(session, 'dl.bin')).equals(fs.readFileSync(f)));
      session.dispose();
    },
  );
});
