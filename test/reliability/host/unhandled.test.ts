// Runs last: no unhandled rejection or uncaught exception came from the extension during the whole
// host run (spy.ts listens from the start; VS Code's own handlers log them too).
import * as assert from 'node:assert/strict';
import * as spy from './spy';
import { sleep } from './util';

suite('Reliability: the extension host stayed clean', () => {
  test('the spies were in force for the whole run', () => {
    assert.equal(
      spy.installed,
      true,
      'vscode.window could not be wrapped: notifications and input boxes were not observed',
    );
    assert.ok(spy.notifications.length > 0, 'notifications were observed');
  });

  test('the unhandled-rejection listener works (a deliberate one from this test is seen, and not blamed on the extension)', async () => {
    const before = spy.problems.length;
    void Promise.reject(new Error('reliability suite: deliberate unhandled rejection'));
    await sleep(200);
    const seen = spy.problems.slice(before).find((p) => p.text.includes('deliberate unhandled rejection'));
    assert.ok(seen, 'the listener saw it');
    assert.equal(seen.ours, false);
  });

  test('no unhandled rejection or uncaught exception from the extension', async () => {
    await sleep(1500); // let anything still in flight settle
    const ours = spy.problems.filter((p) => p.ours);
    assert.deepEqual(
      ours.map((p) => `${p.kind}: ${p.text.split('\n').slice(0, 4).join(' | ')}`),
      [],
    );
  });
});
