/** After a failed create/edit/destroy: when the outcome is unknown, and how that is explained. */
import * as assert from 'node:assert/strict';
import { outcomeUnknown, unknownCreateReason } from '../../src/model/outcome';

describe('unknown outcome of a mutating request', () => {
  it('is unknown after a lost connection or answer, a 5xx or an unreadable answer that may have arrived', () => {
    for (const kind of ['network', 'timeout', 'server', 'bad-response']) {
      assert.equal(outcomeUnknown(kind, true), true, kind);
      assert.equal(outcomeUnknown(kind, false), false, `${kind}, never sent`);
    }
  });

  it('is known after the service refused the request', () => {
    for (const kind of ['validation', 'conflict', 'forbidden', 'unauthorized', 'not-found', 'unknown'])
      assert.equal(outcomeUnknown(kind, true), false, kind);
  });

  it('says why the create may have happened', () => {
    assert.match(unknownCreateReason('network'), /connection failed after the create request was sent/);
    assert.match(unknownCreateReason('timeout'), /connection failed/);
    assert.match(unknownCreateReason('server'), /server error/);
    assert.match(unknownCreateReason('bad-response'), /could not be read/);
  });
});
