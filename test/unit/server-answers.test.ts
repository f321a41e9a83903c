/**
 * Reading what the server said: a 2xx body against its schema, and an error status with its body
 * as the typed error the UI acts on, in the server's own (redacted) words when it gave any.
 */
import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import {
  BadResponseError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from '../../src/api/errors';
import { detailToFieldErrors, parseSuccess, serverMessage, snippet } from '../../src/api/parse';
import { SecretRegistry } from '../../src/api/redact';
import { statusError } from '../../src/api/statusErrors';

const TOKEN = 'tp_secret_token_1234567890';
const secrets = new SecretRegistry();
secrets.add(TOKEN);
const ctx = { method: 'POST', path: '/cluster/create' };
const answer = (status: number, text: string, more: { contentType?: string; retryAfterMs?: number } = {}) =>
  statusError(
    { status, text, contentType: more.contentType, retryAfterMs: more.retryAfterMs },
    { ...ctx, status },
    secrets,
  );

describe('server error text', () => {
  it('takes the message from whichever member the server used', () => {
    assert.equal(serverMessage({ message: ' No capacity. ' }), 'No capacity.');
    assert.equal(serverMessage({ error: 'Bad token' }), 'Bad token');
    assert.equal(serverMessage({ detail: 'Not Found' }), 'Not Found');
    assert.equal(serverMessage({ external_message: 'Try later' }), 'Try later');
    assert.equal(serverMessage({ error: { message: 'nested' } }), 'nested');
    assert.equal(serverMessage('plain words'), 'plain words');
    assert.equal(serverMessage({ detail: [{ msg: 'x' }] }), undefined);
    assert.equal(serverMessage({ message: '  ' }), undefined);
    assert.equal(serverMessage(null), undefined);
  });

  it("reads FastAPI's per-field details, dropping the body/query/path prefix", () => {
    assert.deepEqual(
      detailToFieldErrors([
        { loc: ['body', 'num_nodes'], msg: 'must be at most 128' },
        { loc: ['query', 'include_org'], msg: 'not a bool' },
        { loc: ['body'], msg: 'give one image field' },
        { loc: ['body', 'public_keys', 0] },
        'junk',
      ]),
      [
        { field: 'num_nodes', message: 'must be at most 128' },
        { field: 'include_org', message: 'not a bool' },
        { field: '', message: 'give one image field' },
        { field: 'public_keys', message: 'Invalid value.' },
      ],
    );
  });

  it('folds whitespace and cuts long text with an ellipsis', () => {
    assert.equal(snippet('  a\n\n b\tc  '), 'a b c');
    assert.equal(snippet('x'.repeat(10), 4), 'xxxx…');
  });
});

describe('error statuses', () => {
  it('maps each status to its error kind, with the server message or a default', () => {
    assert.ok(answer(401, '{"error":"Invalid token"}') instanceof UnauthorizedError);
    assert.equal(answer(401, '{"error":"Invalid token"}').message, 'Invalid token');
    assert.equal(answer(401, '').message, 'The API token is missing, invalid or revoked.');
    assert.ok(answer(403, '') instanceof ForbiddenError);
    assert.equal(answer(404, '').message, 'Not found: /cluster/create.');
    assert.ok(answer(404, '') instanceof NotFoundError);
    assert.ok(answer(409, '{"detail":"busy"}') instanceof ConflictError);
    assert.equal(answer(503, '{"message":"Maintenance"}').message, 'Maintenance (HTTP 503).');
    assert.ok(answer(503, '') instanceof ServerError);
    const odd = answer(418, 'short and stout');
    assert.ok(odd instanceof BadResponseError);
    assert.equal(odd.message, 'Unexpected HTTP 418: short and stout.');
    assert.equal(odd.status, 418);
  });

  it('a 422 keeps the per-field messages and names them in its message', () => {
    const err = answer(422, JSON.stringify({ detail: [{ loc: ['body', 'num_nodes'], msg: 'too many' }] }));
    assert.ok(err instanceof ValidationError);
    assert.equal(err.messageFor('num_nodes'), 'too many');
    assert.equal(err.message, 'num_nodes: too many');
    assert.equal(err.local, false);
  });

  it('a 429 says when to try again', () => {
    const err = answer(429, '{"message":"Slow down."}', { retryAfterMs: 2500 });
    assert.ok(err instanceof RateLimitedError);
    assert.equal(err.message, 'Slow down. Try again in 3 s.');
    assert.equal(err.retryAfterMs, 2500);
    assert.equal(answer(429, '').message, 'Too many requests. Try again shortly.');
  });

  it('an HTML error page is named by its title', () => {
    const html =
      '<html><head><title>502 Bad Gateway</title><style>p{}</style></head><body><p>nginx</p></body></html>';
    assert.equal(answer(502, html, { contentType: 'text/html' }).message, '502 Bad Gateway (HTTP 502).');
  });

  it('never repeats a secret the server echoed, in the message or in a field message', () => {
    const errors = [
      answer(401, JSON.stringify({ error: `token ${TOKEN} revoked` })),
      answer(422, JSON.stringify({ detail: [{ loc: ['body', 'x'], msg: `bad ${TOKEN}` }] })),
      answer(500, `Traceback: Authorization: Bearer ${TOKEN}`),
      answer(418, `echo ${TOKEN}`),
    ];
    for (const err of errors) {
      const all = JSON.stringify({ m: err.message, e: err });
      assert.ok(!all.includes(TOKEN), all);
      assert.ok(!all.includes(TOKEN.slice(0, 12)), all);
    }
  });
});

describe('success bodies', () => {
  const call = { method: 'GET', path: '/me', schema: z.object({ id: z.string() }) };
  const ok = { method: 'GET', path: '/me', status: 200 };

  it('returns the parsed body, or nothing when none is expected', () => {
    assert.deepEqual(parseSuccess(call, '{"id":"usr_1"}', ok, secrets), { id: 'usr_1' });
    assert.equal(parseSuccess({ ...call, schema: null }, 'ignored', ok, secrets), undefined);
  });

  it('an empty, non-JSON or wrongly shaped body is a BadResponseError that says which', () => {
    assert.throws(
      () => parseSuccess(call, '  ', ok, secrets),
      (e: Error) => e instanceof BadResponseError && /empty body/.test(e.message),
    );
    assert.throws(
      () => parseSuccess(call, `<html>${TOKEN}</html>`, ok, secrets),
      (e: Error) => e instanceof BadResponseError && /not JSON/.test(e.message) && !e.message.includes(TOKEN),
    );
    assert.throws(
      () => parseSuccess(call, '{"id":5}', ok, secrets),
      (e: Error) => e instanceof BadResponseError && /unexpected shape \(id: /.test(e.message),
    );
  });
});
