/**
 * Secrets at the API client, in the answers that are easiest to get wrong: a credentials answer cut
 * off in the middle of the secret key (every cut position), per-field 422 messages that echo the
 * token, and an HTML error page that quotes it. The error messages, their field messages and the
 * trace log must hold no piece of a secret. (test/unit/client.security.test.ts covers the plain cases.)
 */
import * as assert from 'node:assert/strict';
import { type TensorPoolError } from '../../../src/api';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { credentialsRecord } from '../../fixtures/payloads';
import { findSecrets, type Secret } from '../catalogue';
import { ledger } from '../ledger';
import { apiClient } from '../../shared/apiClient';

type Err = TensorPoolError & { fieldErrors?: Array<{ field: string; message: string }> };

describe('reliability: secrets in awkward answers at the API client', function () {
  this.timeout(20_000);
  let engine: EngineHandle;
  let lines: string[];
  const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY';
  const secrets = (): Secret[] => [
    { name: 'the token', value: engine.token },
    { name: 'the secret key', value: SECRET },
  ];
  const make = () =>
    apiClient(engine, {
      userAgent: 'tensorpool-vscode/reliability',
      maxRetries: 0,
      log: (_l, m) => {
        lines.push(m);
      },
    });

  before(async () => {
    engine = await startTestEngine();
  });
  after(async () => {
    await engine?.close();
  });
  beforeEach(async () => {
    await engine.reset();
    lines = [];
  });

  /** Everything the failure produced: message, string form, field messages, the log. */
  function everything(e: Err): string {
    return [e.message, String(e), e.stack ?? '', JSON.stringify(e.fieldErrors ?? []), ...lines].join('\n');
  }

  const check = (name: string, fn: () => Promise<void>) => ledger.cover(it(name, fn), 'secrets:client');

  check(
    'a credentials answer cut off inside the secret key, at every position, leaks no piece of it',
    async () => {
      const c = make();
      // The client has seen the whole secret before (as after an earlier fetch), and has not.
      const body = JSON.stringify(credentialsRecord({ secret_access_key: SECRET }));
      const start = body.indexOf(SECRET);
      assert.ok(start > 0, 'the secret key is inside the answer, so the cuts fall around it');
      const findings: string[] = [];
      let cuts = 0;
      for (let cut = start - 3; cut <= start + SECRET.length + 2; cut++) {
        await engine.fault({
          method: 'GET',
          path: '/object-storage/credentials',
          status: 200,
          rawBody: body.slice(0, cut),
        });
        lines = [];
        const e = await c.objectStorageCredentials().then(
          () => undefined,
          (err: Err) => err,
        );
        assert.ok(e, `cut at ${cut} was refused`);
        assert.equal(e.kind, 'bad-response');
        findings.push(
          ...findSecrets(everything(e), secrets()).map(
            (f) => `cut ${cut - start} characters into the secret: ${f}`,
          ),
        );
        cuts++;
      }
      ledger.searched(`credentials answers cut at ${cuts} positions around the secret key`, findings);
      assert.deepEqual(findings, []);
      // Every cut answer was really served (the client asked once per cut, and did not retry it).
      assert.equal((await engine.calls('GET', '/object-storage/credentials')).length, cuts);
    },
  );

  check('422 field messages that echo the token or the secret are masked', async () => {
    const c = make();
    c.transport.secrets.add(SECRET);
    await engine.fault({
      method: 'POST',
      path: '/cluster/create',
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'tp_cluster_name'],
            msg: `name taken by token ${engine.token}`,
            type: 'value_error',
          },
          { loc: ['body', 'container'], msg: `registry said: secret ${SECRET} invalid`, type: 'value_error' },
        ],
      },
    });
    const e = await c.createCluster({ instance_type: '1xH100' }).then(
      () => undefined,
      (err: Err) => err,
    );
    assert.equal(e?.kind, 'validation');
    assert.equal(e.fieldErrors?.length, 2, 'the fields are still named');
    const findings = findSecrets(everything(e), secrets());
    ledger.searched('422 field messages', findings);
    assert.deepEqual(findings, []);
  });

  check('a long plain-text error whose shortened form would cut the token in half is masked', async () => {
    const c = make();
    const findings: string[] = [];
    for (const pad of [180, 190, 195, 199]) {
      lines = [];
      await engine.fault({
        method: 'GET',
        path: '/me',
        status: 503,
        contentType: 'text/plain',
        rawBody: `${'x'.repeat(pad)} ${engine.token} more text after it`,
      });
      const e = await c.me().then(
        () => undefined,
        (err: Err) => err,
      );
      assert.equal(e?.kind, 'server');
      findings.push(...findSecrets(everything(e), secrets()).map((f) => `token at ${pad}: ${f}`));
    }
    ledger.searched('long plain-text errors with the token where they are shortened', findings);
    assert.deepEqual(findings, []);
  });

  check('an HTML error page that quotes the Authorization header is masked', async () => {
    await engine.fault({
      method: 'GET',
      path: '/me',
      status: 502,
      contentType: 'text/html',
      rawBody: `<html><head><title>Bad gateway for Bearer ${engine.token}</title></head><body>Authorization: Bearer ${engine.token}</body></html>`,
    });
    const e = await make()
      .me()
      .then(
        () => undefined,
        (err: Err) => err,
      );
    assert.equal(e?.kind, 'server');
    const findings = findSecrets(everything(e), secrets());
    ledger.searched('an HTML error page', findings);
    assert.deepEqual(findings, []);
  });
});
