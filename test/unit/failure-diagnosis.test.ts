/**
 * What the user is told when no HTTP answer came (refused, DNS, TLS, proxy, reset, timeout), and
 * whether the request may have reached the server: only one that certainly was not sent may be
 * retried when it mutates.
 */
import * as assert from 'node:assert/strict';
import { CancelledError, NetworkError, TimeoutError } from '../../src/api/errors';
import { failureError, timeoutError, type FailedAttempt } from '../../src/api/diagnose';
import { SecretRegistry } from '../../src/api/redact';

const TOKEN = 'tp_secret_token_abcdefghij';
const secrets = new SecretRegistry();
secrets.add(TOKEN);
const ctx = { method: 'POST', path: '/cluster/create' };
const at: FailedAttempt = {
  baseUrl: 'https://engine.tensorpool.dev',
  viaDispatcher: false,
  responded: false,
  timeoutMs: 30_000,
  secrets,
};
const fail = (code: string | undefined, more: Record<string, unknown> = {}) =>
  Object.assign(new Error(`failed ${code ?? ''}`), code ? { code } : {}, more);

function network(e: unknown, where: Partial<FailedAttempt> = {}): NetworkError {
  const err = failureError(e, ctx, { ...at, ...where });
  assert.ok(err instanceof NetworkError, `${err.name}: ${err.message}`);
  return err;
}

describe('failure diagnosis', () => {
  it('a refused connection, DNS and TLS failures were not sent, and say what to check', () => {
    const refused = network(fail('ECONNREFUSED', { port: 443, address: '203.0.113.5' }));
    assert.equal(
      refused.message,
      'Connection refused by engine.tensorpool.dev: is the service (or the local engine) running?',
    );
    assert.equal(refused.sent, false);
    const dns = network(fail('ENOTFOUND'));
    assert.match(dns.message, /^Cannot resolve engine\.tensorpool\.dev: check the API URL/);
    assert.equal(dns.sent, false);
    // Node and undici put the code on a cause, sometimes two levels down.
    const tls = network(
      new Error('fetch failed', { cause: new Error('x', { cause: fail('CERT_HAS_EXPIRED') }) }),
    );
    assert.match(
      tls.message,
      /^TLS error talking to engine\.tensorpool\.dev \(CERT_HAS_EXPIRED\).*proxyStrictSSL/,
    );
    assert.equal(tls.code, 'CERT_HAS_EXPIRED');
    assert.equal(tls.sent, false);
  });

  it('a refusal on another port than the service with a proxy in use names the proxy', () => {
    const err = network(fail('ECONNREFUSED', { port: 3128, address: '10.0.0.1' }), { viaDispatcher: true });
    assert.equal(
      err.message,
      'Connection refused by the proxy at 10.0.0.1:3128: check http.proxy or HTTPS_PROXY.',
    );
    const direct = network(fail('ECONNREFUSED', { port: 3128, address: '10.0.0.1' }));
    assert.match(direct.message, /^Connection refused by engine\.tensorpool\.dev/);
  });

  it("a proxy's own failure is quoted, without any secret it repeated", () => {
    const err = network(fail('UND_ERR_ABORTED', { message: `Proxy response (407) Bearer ${TOKEN}` }), {
      viaDispatcher: true,
    });
    assert.match(
      err.message,
      /^The proxy refused or failed the connection to engine\.tensorpool\.dev \(Proxy response \(407\)/,
    );
    assert.ok(!err.message.includes(TOKEN), err.message);
  });

  it('a reset, an unknown failure or a failure after the headers may have reached the server', () => {
    const reset = network(fail('ECONNRESET'));
    assert.equal(
      reset.message,
      'The connection to engine.tensorpool.dev was closed before an answer arrived.',
    );
    assert.equal(reset.sent, true);
    const unknown = network(new Error('mystery'));
    assert.equal(unknown.message, 'Network error talking to engine.tensorpool.dev.');
    assert.equal(unknown.sent, true);
    assert.equal(network(fail('ECONNREFUSED'), { responded: true }).sent, true);
  });

  it("undici's own timeouts are timeouts; an aborted call is cancelled, whatever the error", () => {
    const t = failureError(fail('UND_ERR_HEADERS_TIMEOUT'), ctx, at);
    assert.ok(t instanceof TimeoutError);
    assert.equal(t.message, 'No answer from engine.tensorpool.dev in time.');
    assert.ok(failureError(fail('UND_ERR_BODY_TIMEOUT'), ctx, at) instanceof TimeoutError);
    const cancelled = failureError(fail('ECONNRESET'), ctx, { ...at, signal: AbortSignal.abort() });
    assert.ok(cancelled instanceof CancelledError);
  });

  it('the timer timeout says how long it waited, in seconds or milliseconds', () => {
    assert.equal(
      timeoutError(ctx, at.baseUrl, 30_000).message,
      'No answer from engine.tensorpool.dev within 30 s.',
    );
    assert.equal(
      timeoutError(ctx, 'http://127.0.0.1:8750', 250).message,
      'No answer from 127.0.0.1:8750 within 250 ms.',
    );
    assert.equal(timeoutError(ctx, at.baseUrl, 250).mayHaveReachedServer, true);
  });
});
