/**
 * Log text on its way to a terminal: lines are gathered and handed over in batches (one write per
 * frame, not one per line), with terminal line endings, and what waits is bounded: when the terminal
 * falls behind by more than `maxPendingChars`, the oldest waiting lines are dropped and a marker says
 * how many. Memory stays bounded however long the log, and a push costs the same when full. No `vscode`
 * import.
 */
import { BoundedText } from './boundedText';

export class LogBuffer {
  private readonly text: BoundedText;
  private droppedLines = 0;

  constructor(maxPendingChars = 1_000_000) {
    this.text = new BoundedText(maxPendingChars, (old) => (this.droppedLines += countLines(old)));
  }

  get pending(): number {
    return this.text.size;
  }

  /** Add text (one message or several lines); a missing final newline is added. */
  push(text: string): void {
    // One line without a newline (a job log's usual message) needs no regular expression.
    this.text.push(
      text.includes('\n') ? toTerminal(text.endsWith('\n') ? text : `${text}\n`) : `${text}\r\n`,
    );
  }

  /** Everything waiting, as one string for one write (undefined when nothing waits). */
  take(): string | undefined {
    if (this.text.isEmpty) return undefined;
    const marker =
      this.droppedLines > 0
        ? `\x1b[2m… ${this.droppedLines} line${this.droppedLines === 1 ? '' : 's'} not shown: the log came faster than the terminal could draw it …\x1b[0m\r\n`
        : '';
    const text = marker + this.text.text();
    this.text.clear();
    this.droppedLines = 0;
    return text;
  }
}

/** Terminal line endings: every bare \n becomes \r\n (a \r\n stays as it is). */
export function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function countLines(chunk: string): number {
  let n = 0;
  for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) n++;
  return n;
}
