import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { nodeClientOptions, outboundDispatcher, proxyDispatcher, usesTls } from '../../../src/api/proxy';
import { pemBlocks, readSystemCertificates, tlsOptions } from '../../../src/api/systemCerts';

const [ROOT_A, ROOT_B] = tls.rootCertificates;

describe('system certificates: where they are read from', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-certs-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a bundle file is split into its PEM blocks (Windows line ends and stray text ignored)', () => {
    const text = `# comment\n${ROOT_A}\r\n\r\n${ROOT_B.replace(/\n/g, '\r\n')}\ntrailing garbage`;
    const blocks = pemBlocks(text);
    assert.equal(blocks.length, 2);
    assert.ok(blocks.every((b) => b.startsWith('-----BEGIN CERTIFICATE-----')));
    assert.ok(blocks[1].endsWith('-----END CERTIFICATE-----'));
  });

  it('Linux without the Node API: the first bundle path that exists is read', async () => {
    const missing = path.join(dir, 'missing.crt');
    const first = path.join(dir, 'first.crt');
    const second = path.join(dir, 'second.crt');
    fs.writeFileSync(first, `${ROOT_A}\n${ROOT_B}\n`);
    fs.writeFileSync(second, `${ROOT_A}\n`);
    const certs = await readSystemCertificates('linux', {}, [missing, first, second]);
    assert.equal(certs.length, 2);
    assert.deepEqual(await readSystemCertificates('linux', {}, [missing]), []);
  });

  it("where Node has tls.getCACertificates, its 'system' store is used on every platform", async () => {
    const asked: string[] = [];
    const api = {
      getCACertificates: (type: 'default' | 'system') => {
        asked.push(type);
        return [ROOT_B];
      },
    };
    assert.deepEqual(await readSystemCertificates('darwin', api, []), [ROOT_B]);
    assert.deepEqual(await readSystemCertificates('win32', api, []), [ROOT_B]);
    assert.deepEqual(asked, ['system', 'system']);
  });

  it('Windows without that API: none (the documented limit); macOS: the keychains (none here), no error', async () => {
    assert.deepEqual(await readSystemCertificates('win32', {}, []), []);
    const mac = await readSystemCertificates('darwin', {}, []);
    assert.ok(Array.isArray(mac));
    if (process.platform !== 'darwin') assert.deepEqual(mac, [], 'no /usr/bin/security here');
  });
});

describe('TLS and proxy options for other clients (the S3 client)', () => {
  it('strict SSL off: rejectUnauthorized false and no certificate list; system certificates off: no list', async () => {
    assert.deepEqual(await tlsOptions({ strictSSL: false }), { rejectUnauthorized: false });
    assert.deepEqual(await tlsOptions({ systemCertificates: false }), { rejectUnauthorized: true });
  });

  it('a list, when given, holds every Node root too (it replaces the defaults in an https.Agent)', async () => {
    const opts = await tlsOptions(undefined);
    assert.equal(opts.rejectUnauthorized, true);
    if (opts.ca) for (const root of tls.rootCertificates) assert.ok(opts.ca.includes(root));
  });

  it('the proxy: http.proxy first, else HTTPS_PROXY for https and HTTP_PROXY for http', async () => {
    const p = async (target: string, env: NodeJS.ProcessEnv, url?: string) =>
      (await nodeClientOptions(target, { url }, env)).proxy?.url;
    assert.equal(await p('https://s3.example', { HTTPS_PROXY: 'http://a:1' }, 'http://vs:2'), 'http://vs:2');
    assert.equal(
      await p('https://s3.example', { HTTPS_PROXY: 'http://a:1', HTTP_PROXY: 'http://b:1' }),
      'http://a:1',
    );
    assert.equal(
      await p('http://s3.example', { HTTPS_PROXY: 'http://a:1', HTTP_PROXY: 'http://b:1' }),
      'http://b:1',
    );
    assert.equal(await p('https://s3.example', {}), undefined);
  });

  it('noProxy entries as undici reads them: host, subdomains, .suffix, *.suffix, host:port, *', async () => {
    const direct = async (target: string, entry: string) =>
      (await nodeClientOptions(target, { url: 'http://proxy:3128', noProxy: [entry] }, {})).proxy ===
      undefined;
    assert.equal(await direct('https://s3.example.com', 'example.com'), true);
    assert.equal(await direct('https://example.com', '.example.com'), true);
    assert.equal(await direct('https://a.example.com', '*.example.com'), true);
    assert.equal(await direct('https://notexample.com', 'example.com'), false);
    assert.equal(await direct('https://s3.example.com:9000', 's3.example.com:9000'), true);
    assert.equal(await direct('https://s3.example.com', 's3.example.com:9000'), false);
    assert.equal(await direct('https://anything', '*'), true);
    assert.equal(
      (await nodeClientOptions('https://x.corp', { url: 'http://p:1' }, { NO_PROXY: 'corp' })).proxy,
      undefined,
      'NO_PROXY from the environment too',
    );
  });

  it('http.proxyAuthorization goes with the proxy, never without one', async () => {
    const auth = 'Basic dXNlcjpwYXNzd29yZA==';
    assert.deepEqual(
      (await nodeClientOptions('https://s3.example', { url: 'http://p:1', authorization: auth }, {})).proxy,
      {
        url: 'http://p:1',
        authorization: auth,
      },
    );
    assert.equal(
      (await nodeClientOptions('https://s3.example', { authorization: auth }, {})).proxy,
      undefined,
    );
  });

  it('TLS on the way: https/wss targets, or an http target behind an https proxy; plain http reads no store', async () => {
    assert.equal(usesTls('https://api.example', undefined, {}), true);
    assert.equal(usesTls('wss://api.example/job/listen', undefined, {}), true);
    assert.equal(usesTls('http://127.0.0.1:8080', undefined, {}), false);
    assert.equal(usesTls('ws://127.0.0.1:8080', undefined, {}), false);
    assert.equal(usesTls('http://engine.example', { url: 'https://proxy:443' }, {}), true);
    assert.equal(usesTls('http://engine.example', undefined, { HTTP_PROXY: 'https://proxy:443' }), true);
    assert.equal(usesTls('http://engine.example', undefined, { HTTPS_PROXY: 'https://proxy:443' }), false);
    assert.equal(
      usesTls('http://engine.example', { url: 'https://proxy:443', noProxy: ['engine.example'] }, {}),
      false,
    );
    // Whatever this machine's store holds: no proxy, strict TLS and plain http need undici's default only.
    assert.equal(await outboundDispatcher({}, {}, 'http://127.0.0.1:1'), undefined);
    assert.equal((await nodeClientOptions('http://127.0.0.1:1', {}, {})).ca, undefined);
  });

  it("the API client's dispatcher: undici's default unless a proxy, relaxed TLS or extra certificates need one", () => {
    assert.equal(proxyDispatcher({ authorization: 'Basic abc' }, {}), undefined);
    assert.ok(proxyDispatcher({}, {}, tls.createSecureContext()));
    assert.ok(proxyDispatcher({ url: 'http://p:1', authorization: 'Basic abc' }, {}));
  });
});
