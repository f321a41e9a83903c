/**
 * Base URL rules, local validation before any request, and secrets kept out of every string.
 */
import * as assert from 'node:assert/strict';
import { SecretRegistry, type ClientOptions, type LogLevel } from '../../src/api';
import { testClient, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';
import { ED25519_KEY, RSA_PRIVATE_KEY_HEAD, createInput } from '../fixtures/payloads';
import { apiClient } from '../shared/apiClient';

describe('API client: base URL, local validation, secrets', function () {
  this.timeout(10_000);
  let engine: EngineHandle;
  let lines: Array<[LogLevel, string]>;
  const make = (over: Partial<ClientOptions> = {}) =>
    testClient(engine, {
      retryBaseMs: 1,
      maxRetries: 1,
      log: (level, message) => lines.push([level, message]),
      ...over,
    });

  useTestEngine((e) => (engine = e));
  beforeEach(() => {
    lines = [];
  });

  describe('base URL', () => {
    const base = { userAgent: 'ua' };
    for (const url of [
      'http://engine.tensorpool.dev',
      'http://10.0.0.5:8750',
      'ftp://127.0.0.1',
      'not a url',
      'https://user:pw@engine.tensorpool.dev',
    ]) {
      it(`refuses ${url}`, () => {
        assert.throws(
          () => apiClient({ url, token: 't' }, base),
          (e: Error & { kind?: string }) => e.kind === 'validation' && e.message.length > 10,
        );
      });
    }
    for (const url of [
      'https://engine.tensorpool.dev',
      'http://127.0.0.1:8750',
      'http://localhost:8750/',
      'http://[::1]:8750',
      'http://127.1.2.3',
    ]) {
      it(`accepts ${url}`, () => {
        const c = apiClient({ url, token: 't' }, base);
        assert.ok(!c.baseUrl.endsWith('/'));
      });
    }
  });

  describe('requests are validated before anything is sent', () => {
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['missing instance_type', { num_nodes: 1 }, 'instance_type'],
      ['instance type xH100', { instance_type: 'xH100' }, 'instance_type'],
      ['instance type 8x', { instance_type: '8x' }, 'instance_type'],
      ['instance type with spaces', { instance_type: '8 x H100' }, 'instance_type'],
      ['non-ASCII digit', { instance_type: '\u0663xH100' }, 'instance_type'],
      ['zero nodes', { instance_type: '1xH100', num_nodes: 0 }, 'num_nodes'],
      ['negative nodes', { instance_type: '1xH100', num_nodes: -2 }, 'num_nodes'],
      ['fractional nodes', { instance_type: '1xH100', num_nodes: 1.5 }, 'num_nodes'],
      ['10^9 nodes', { instance_type: '1xH100', num_nodes: 1e9 }, 'num_nodes'],
      ['nodes as a string', { instance_type: '1xH100', num_nodes: '2' }, 'num_nodes'],
      [
        'both image fields',
        { instance_type: '1xH100', container: 'a:1', experimental_container: 'b:2' },
        'container',
      ],
      ['image with spaces', { instance_type: '1xH100', container: 'my image' }, 'container'],
      [
        'name with control characters',
        { instance_type: '1xH100', tp_cluster_name: 'a\u0007b' },
        'tp_cluster_name',
      ],
      [
        '10,000-character name',
        { instance_type: '1xH100', tp_cluster_name: 'a'.repeat(10_000) },
        'tp_cluster_name',
      ],
      [
        'a private key as public key',
        { instance_type: '1xH100', public_keys: [RSA_PRIVATE_KEY_HEAD] },
        'public_keys',
      ],
      ['garbage key', { instance_type: '1xH100', public_keys: ['hello world'] }, 'public_keys'],
      ['unknown field', { instance_type: '1xH100', gpus: 8 }, ''],
    ];
    for (const [what, body, field] of bad) {
      it(`create: ${what}`, async () => {
        await assert.rejects(
          make().createCluster(body as never),
          (
            e: Error & {
              kind?: string;
              local?: boolean;
              fieldErrors?: Array<{ field: string; message: string }>;
            },
          ) => {
            assert.equal(e.kind, 'validation');
            assert.equal(e.local, true);
            assert.ok(
              e.fieldErrors?.some((f) => f.field === field && f.message.length > 10),
              JSON.stringify(e.fieldErrors),
            );
            return true;
          },
        );
      });
    }
    it('edit with neither field is refused locally', async () => {
      await assert.rejects(make().editCluster('c-1', {}), /Nothing to change/);
      await assert.rejects(
        make().editCluster('c-1', { cluster_name: null, deletion_protection: null }),
        /Nothing to change/,
      );
    });
    it('none of the refused requests reached the engine', async () => {
      await assert.rejects(make().createCluster({ instance_type: '8x' }));
      await assert.rejects(make().editCluster('c-1', {}));
      await assert.rejects(make().addSshKey({ public_key: RSA_PRIVATE_KEY_HEAD }));
      assert.deepEqual(await engine.log(), []);
    });
    it('a valid key and body pass', async () => {
      await make().createCluster(createInput({ public_keys: [ED25519_KEY] }));
      assert.equal((await engine.calls('POST', '/cluster/create')).length, 1);
    });
  });

  describe('secrets', () => {
    it('the token never appears in errors, their string forms or trace logs', async () => {
      const wrong = 'tp_wrong_secret_token_5555';
      await engine.fault({
        method: 'GET',
        path: '/me',
        status: 401,
        body: { error: `token ${wrong} is not valid`, echo: `Bearer ${wrong}` },
      });
      const c = make({ getToken: () => wrong });
      const err = await c.me().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      assert.ok(err);
      const everything = [
        err.message,
        String(err),
        JSON.stringify(err),
        err.stack ?? '',
        ...lines.map((l) => l[1]),
      ].join('\n');
      assert.ok(!everything.includes(wrong), 'token leaked');
      assert.match(err.message, /\[redacted\]/);
      await make().me();
      assert.ok(lines.length > 0);
      assert.ok(!lines.some(([, m]) => m.includes(engine.token)));
    });

    it('object-storage secret keys are masked in trace logs and later errors', async () => {
      const c = make();
      const creds = await c.enableObjectStorage();
      await c.objectStorageCredentials();
      const traces = lines
        .filter(([l]) => l === 'trace')
        .map(([, m]) => m)
        .join('\n');
      assert.ok(traces.includes(creds.access_key_id), 'trace logging is on and shows the non-secret key id');
      assert.ok(!traces.includes(creds.secret_access_key), 'secret key leaked into the log');
      await engine.fault({
        method: 'GET',
        path: '/me',
        status: 500,
        body: { message: `oops ${creds.secret_access_key}` },
        times: 5,
      });
      await assert.rejects(
        c.me(),
        (e: Error) => !e.message.includes(creds.secret_access_key) && e.message.includes('[redacted]'),
      );
    });

    it('the user agent names the extension and never carries the token', async () => {
      await make({ userAgent: 'tensorpool-vscode/0.1.0 (VS Code 1.100.3; node 20)' }).me();
      const [call] = await engine.calls('GET', '/me');
      assert.equal(call.userAgent, 'tensorpool-vscode/0.1.0 (VS Code 1.100.3; node 20)');
      assert.ok(!JSON.stringify(await engine.log()).includes(engine.token));
    });

    it('SecretRegistry masks registered values and credential-looking patterns', () => {
      const r = new SecretRegistry();
      r.add('abcdefghij-secret');
      r.add('abc'); // too short to register: would mask ordinary text
      assert.equal(r.redact('x abcdefghij-secret y abc'), 'x [redacted] y abc');
      assert.equal(r.redact('Authorization: Bearer zzz.yyy'), 'Authorization: [redacted]');
      assert.equal(r.redact('header Bearer q1w2e3r4'), 'header Bearer [redacted]');
      assert.equal(
        r.redact('{"secret_access_key": "S3CR3T", "a": 1}'),
        '{"secret_access_key": "[redacted]", "a": 1}',
      );
      assert.equal(
        r.redact('aws_secret_access_key = S3CR3T\nregion = x'),
        'aws_secret_access_key = [redacted]\nregion = x',
      );
      assert.equal(
        r.redact('export AWS_SECRET_ACCESS_KEY=S3CR3T'),
        'export AWS_SECRET_ACCESS_KEY=[redacted]',
      );
      r.delete('abcdefghij-secret');
      assert.equal(r.redact('abcdefghij-secret'), 'abcdefghij-secret');
    });
  });
});
