// A call to the UI suite's engine as its first user (set-up the flows need around the workbench): fails the
// flow on a non-2xx answer, returns the JSON body ({} when empty).
import * as assert from 'node:assert/strict';
import type { LocalEngine } from '../harness/engine';

export async function engineCall(
  engine: LocalEngine,
  method: string,
  p: string,
  body?: unknown,
): Promise<any> {
  const response = await fetch(engine.url + p, {
    method,
    headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${p}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : {};
}
