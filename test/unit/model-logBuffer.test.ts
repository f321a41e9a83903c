import * as assert from 'node:assert/strict';
import { coloursOnly, LogBuffer, toTerminal } from '../../src/model/logBuffer';

describe('job log buffer', () => {
  it('hands over everything waiting in one write, with terminal line endings', () => {
    const b = new LogBuffer();
    assert.equal(b.take(), undefined);
    b.push('epoch 1');
    b.push('loss 0.5\nloss 0.4\n');
    b.push('windows\r\nline');
    assert.equal(b.take(), 'epoch 1\r\nloss 0.5\r\nloss 0.4\r\nwindows\r\nline\r\n');
    assert.equal(b.take(), undefined, 'taken once');
    assert.equal(b.pending, 0);
  });

  it('keeps colours (escape sequences pass through)', () => {
    assert.equal(toTerminal('\x1b[32mok\x1b[0m\n'), '\x1b[32mok\x1b[0m\r\n');
  });

  it('bounds what waits: the oldest lines are dropped and counted when the terminal falls behind', () => {
    const b = new LogBuffer({ maxChars: 100 });
    for (let i = 0; i < 1_000; i++) b.push(`line ${i}`);
    assert.ok(b.pending <= 100, `pending ${b.pending}`);
    const text = b.take()!;
    const lines = text.split('\r\n').filter(Boolean);
    assert.match(lines[0], /… \d+ lines not shown: the log came faster than the terminal could draw it …/);
    const dropped = Number(/… (\d+) lines/.exec(lines[0])![1]);
    assert.equal(dropped + lines.length - 1, 1_000, 'every line is either shown or counted');
    assert.equal(lines.at(-1), 'line 999', 'the newest line is kept');
    b.push('after');
    assert.equal(b.take(), 'after\r\n', 'the count starts again');
  });

  it('a single message larger than the bound is still shown whole', () => {
    const b = new LogBuffer({ maxChars: 10 });
    b.push('x'.repeat(50));
    assert.equal(b.take(), `${'x'.repeat(50)}\r\n`);
  });

  it('a write holds at most the lines the terminal keeps: older lines of a burst are counted, not sent', () => {
    const b = new LogBuffer({ maxLines: 1_200 });
    for (let i = 1; i <= 100_000; i++) b.push(`line ${i}`);
    b.push('two\nlines');
    const lines = b.take()!.split('\r\n').filter(Boolean);
    assert.equal(lines.length, 1 + 1_200, 'the marker and the last 1,200 lines');
    assert.match(lines[0], /… 98802 lines not shown/);
    assert.equal(lines[1], 'line 98803');
    assert.deepEqual(lines.slice(-3), ['line 100000', 'two', 'lines']);
    for (let i = 0; i < 500; i++) b.push(`slow ${i}`);
    const next = b.take()!;
    assert.doesNotMatch(next, /not shown/, 'a slower log loses nothing');
    assert.equal(next.split('\r\n').filter(Boolean).length, 500);
  });

  it('lines handed over as one string are written as if pushed one by one', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `\x1b[32mline ${i}\x1b[0m`);
    const one = new LogBuffer({ maxLines: 1_200 });
    for (const line of lines) one.push(line);
    const run = new LogBuffer({ maxLines: 1_200 });
    run.pushLines(lines.slice(0, 4).join('\n'), 4);
    run.pushLines(lines.slice(4).join('\n'), 6);
    assert.equal(run.take(), one.take());
  });

  it('a run of more lines than a write holds keeps its newest lines and counts the others', () => {
    const b = new LogBuffer({ maxLines: 1_200 });
    b.push('before');
    const run = Array.from({ length: 2_000 }, (_, i) => `line ${i + 1}`);
    b.pushLines(run.join('\n'), run.length);
    const lines = b.take()!.split('\r\n').filter(Boolean);
    assert.equal(lines.length, 1 + 1_200, 'the marker and the last 1,200 lines');
    assert.match(lines[0], /… 801 lines not shown/);
    assert.equal(lines[1], 'line 801');
    assert.equal(lines.at(-1), 'line 2000');
  });

  it('a many-line message counts as its lines', () => {
    const b = new LogBuffer({ maxLines: 3 });
    b.push('a');
    b.push('b\nc\nd\n');
    assert.equal(
      b.take(),
      '\x1b[2m… 1 line not shown: the log came faster than the terminal could draw it …\x1b[0m\r\nb\r\nc\r\nd\r\n',
    );
  });
});

describe('coloursOnly: what a job terminal receives', () => {
  it('keeps colours and styles (SGR), tabs, line breaks and carriage returns', () => {
    const text = '\x1b[31mred\x1b[0m \x1b[1;38;5;208mbold\x1b[m\tx\r\n50%\r60%\n\x1b[38:2:1:2:3mrgb\x1b[0m';
    assert.equal(coloursOnly(text), text);
    assert.equal(coloursOnly('plain line'), 'plain line');
  });

  it('removes an OSC 8 link, keeping its words', () => {
    assert.equal(coloursOnly('see \x1b]8;;https://evil.example/x\x07here\x1b]8;;\x07 now'), 'see here now');
    assert.equal(coloursOnly('\x1b]8;id=1;file:///etc/passwd\x1b\\open\x1b]8;;\x1b\\'), 'open');
  });

  it('removes title changes (OSC 0/2), clipboard writes (OSC 52) and an unterminated OSC up to the line end', () => {
    assert.equal(coloursOnly('\x1b]0;pwned title\x07a'), 'a');
    assert.equal(coloursOnly('\x1b]2;title\x1b\\b'), 'b');
    assert.equal(coloursOnly('\x1b]52;c;cm0gLXJmIH4=\x07c'), 'c');
    assert.equal(coloursOnly('x\x1b]8;;https://e.example\ny'), 'x\ny');
  });

  it('removes cursor moves, erasing, queries, DCS strings, other escapes, C0 and C1 controls', () => {
    assert.equal(coloursOnly('a\x1b[2J\x1b[H\x1b[1A\x1b[K\x1b[6n\x1b[?1049hb'), 'ab');
    assert.equal(coloursOnly('a\x1bP+q544e\x1b\\b'), 'ab');
    assert.equal(coloursOnly('a\x1bcb\x1b(0c\x1b'), 'abc');
    assert.equal(coloursOnly('a\x07\x08\x00b\u009b31mc\u009d0;t\u009cd'), 'ab31mc0;td');
  });
});
