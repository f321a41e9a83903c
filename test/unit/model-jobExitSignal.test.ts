// exitSignal: an exit code 128+n is the signal n as on Linux (where jobs run); any other code is none.
import * as assert from 'node:assert/strict';
import { exitSignal } from '../../src/model/job';

describe('model: exitSignal', () => {
  it('names the signal of 128+n', () => {
    assert.equal(exitSignal(137), 'SIGKILL');
    assert.equal(exitSignal(143), 'SIGTERM');
    assert.equal(exitSignal(139), 'SIGSEGV');
    assert.equal(exitSignal(130), 'SIGINT');
  });
  it('is undefined for ordinary exit codes and unknown signals', () => {
    for (const code of [undefined, 0, 1, 3, 127, 128, 160, 255])
      assert.equal(exitSignal(code), undefined, String(code));
  });
});
