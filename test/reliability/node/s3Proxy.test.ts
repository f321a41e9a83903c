/**
 * Object storage behind a forward proxy: the S3 layer (src/s3, with the transport the extension picks through
 * nodeClientOptions(), as the object browser does) talks to the engine's real S3 server only through Debian's
 * tinyproxy. The server sits behind a gate that accepts connections from the proxy's outgoing address
 * (tinyproxy's Bind 127.0.0.2) and drops every other, so a request that went direct fails. Covered: CONNECT
 * through the proxy (upload and download byte for byte), http.noProxy (goes direct, so the gate refuses),
 * a wrong proxy (a clear connection error naming it), and http.proxyAuthorization (407 without it, never in
 * an error message).
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEngine, type RunningEngine } from '../../../engine/server';
import { nodeClientOptions, type ProxySettings } from '../../../src/api/proxy';
import { S3Session, downloadMany, fileItem, listAll, s3ErrorMessage, uploadFile } from '../../../src/s3';
import {
  PROXY_AUTHORIZATION,
  PROXY_PASSWORD,
  PROXY_USER,
  startTinyproxy,
  type RunningProxy,
} from '../../fixtures/tinyproxy';
import { freePort } from '../../shared/net';
import { engineCall } from '../../fixtures/engineCall';

const PROXY_SOURCE = '127.0.0.2';

/** A TCP gate in front of `target`: only connections from PROXY_SOURCE get through; it counts both kinds. */
async function startGate(target: URL) {
  const counts = { proxied: 0, refused: 0 };
  const server = net.createServer((socket) => {
    if (socket.remoteAddress !== PROXY_SOURCE && socket.remoteAddress !== `::ffff:${PROXY_SOURCE}`) {
      counts.refused++;
      socket.destroy();
      return;
    }
    counts.proxied++;
    const up = net.connect(Number(target.port), target.hostname);
    socket.pipe(up).pipe(socket);
    const end = () => (socket.destroy(), up.destroy());
    socket.on('error', end).on('close', end);
    up.on('error', end).on('close', end);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('reliability: object storage through a proxy (tinyproxy)', function () {
  this.timeout(60_000);
  let engine: RunningEngine;
  let gate: Awaited<ReturnType<typeof startGate>>;
  let open: RunningProxy;
  let authed: RunningProxy;
  let dir: string;
  let keys: { region: string; accessKeyId: string; secretAccessKey: string };
  const tp = (method: string, path: string): Promise<unknown> => engineCall(engine)(method, path);
  /** A session set up as the object browser does it: nodeClientOptions() for the credentials' endpoint. */
  const session = (proxy: ProxySettings) =>
    new S3Session(
      async () => ({ endpoint: gate.url, ...keys }),
      async (creds) => {
        const o = await nodeClientOptions(creds.endpoint, proxy, {});
        return { strictSSL: o.rejectUnauthorized, ca: o.ca, proxy: o.proxy, connectionTimeoutMs: 3000 };
      },
    );
  const failure = async (work: Promise<unknown>): Promise<string> => {
    try {
      await work;
    } catch (e) {
      return s3ErrorMessage(e);
    }
    assert.fail('the request succeeded');
  };

  before(async () => {
    engine = await startEngine({ s3: true });
    const c = (await tp('POST', '/object-storage/enable')) as Record<string, string>;
    keys = { region: c.region, accessKeyId: c.access_key_id, secretAccessKey: c.secret_access_key };
    await tp('PUT', '/object-storage/bucket/create/proxied');
    gate = await startGate(new URL(engine.s3Endpoint!));
    [open, authed] = await Promise.all([
      startTinyproxy({ bind: PROXY_SOURCE }),
      startTinyproxy({ bind: PROXY_SOURCE, basicAuth: { user: PROXY_USER, password: PROXY_PASSWORD } }),
    ]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-s3-proxy-'));
  });
  after(async () => {
    await Promise.all([open?.close(), authed?.close(), gate?.close()]);
    await engine?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uploads and downloads through the proxy (CONNECT), byte for byte; the server sees only the proxy', async () => {
    const body = randomBytes(6 * 1024 * 1024 + 5);
    const file = path.join(dir, 'through.bin');
    fs.writeFileSync(file, body);
    const s = session({ url: open.url });
    try {
      const item = await fileItem(file, 'via/through.bin');
      await s.run((c) => uploadFile(c, 'proxied', item));
      const out = path.join(dir, 'down');
      const r = await downloadMany(s, 'proxied', 'via/', out);
      assert.deepEqual(r.failed, []);
      assert.ok(fs.readFileSync(path.join(out, 'via', 'through.bin')).equals(body), 'content differs');
    } finally {
      s.dispose();
    }
    assert.ok(gate.counts.proxied > 0);
    assert.equal(gate.counts.refused, 0, 'a request went around the proxy');
    assert.match(open.log(), new RegExp(`CONNECT ${new URL(gate.url).host.replace(/\./g, '\\.')}`));
  });

  it('http.noProxy for the endpoint goes direct (here refused by the gate), not through the proxy', async () => {
    const s = session({ url: open.url, noProxy: ['127.0.0.1'] });
    const before = gate.counts.refused;
    try {
      const message = await failure(s.run((c) => listAll(c, 'proxied', '')));
      assert.match(message, /socket hang up|ECONNRESET|EPIPE/, message);
    } finally {
      s.dispose();
    }
    assert.ok(gate.counts.refused > before, 'the direct connection never reached the gate');
  });

  it('a proxy that is not there fails with a connection error naming it', async () => {
    const port = await freePort();
    const s = session({ url: `http://127.0.0.1:${port}` });
    try {
      const message = await failure(s.run((c) => listAll(c, 'proxied', '')));
      assert.match(message, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`), message);
    } finally {
      s.dispose();
    }
  });

  it('http.proxyAuthorization is sent to the proxy; without it a clear 407 message without the secret', async () => {
    const without = session({ url: authed.url });
    const withIt = session({ url: authed.url, authorization: PROXY_AUTHORIZATION });
    try {
      const message = await failure(without.run((c) => listAll(c, 'proxied', '')));
      assert.match(message, /proxy requires authentication \(407\)/, message);
      const listed = await withIt.run((c) => listAll(c, 'proxied', 'via/'));
      assert.deepEqual(
        listed.map((o) => o.key),
        ['via/through.bin'],
      );
      assert.ok(!message.includes(PROXY_PASSWORD) && !message.includes(PROXY_AUTHORIZATION));
    } finally {
      without.dispose();
      withIt.dispose();
    }
  });
});
