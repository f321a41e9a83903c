/** The test API's record of job-terminal text: every line in order, and bounded however long the log. */
import * as assert from 'node:assert/strict';
import { TerminalTapRecord } from '../../src/vscode/testing/terminalTap';

describe('job terminal tap (test API record)', () => {
  it('keeps every message in order, one line each', () => {
    const tap = new TerminalTapRecord();
    tap.record('job a', 'first');
    tap.record('job a', 'second\n');
    assert.equal(tap.text(), 'first\nsecond\n');
  });

  it('keeps only the most recent text when a log is very long', () => {
    const tap = new TerminalTapRecord();
    const line = 'x'.repeat(999);
    for (let i = 0; i < 5000; i++) tap.record('job b', `${i} ${line}`);
    const text = tap.text();
    assert.ok(text.length <= 2_000_000, `bounded: ${text.length}`);
    assert.ok(text.endsWith(`4999 ${line}\n`), 'the newest line is kept');
    assert.ok(!text.startsWith('0 '), 'the oldest lines are dropped');
  });
});
