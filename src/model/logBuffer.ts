/**
 * Log text on its way to a terminal: lines are gathered and handed over in batches (one write per
 * frame, not one per line), with terminal line endings, and what waits is bounded twice:
 *   - by lines: a terminal keeps only its scrollback (VS Code's terminal.integrated.scrollback, 1,000
 *     lines by default) plus the screen, so when more lines than that arrive between two writes the
 *     older ones would scroll out of reach the moment they were drawn. They are not sent at all (a
 *     marker says how many were skipped). A job printing 100,000 lines in a burst then costs the
 *     extension host, the remote connection and the renderer a screenful per write, not megabytes;
 *   - by characters: when the terminal falls behind, the oldest waiting lines are dropped the same way.
 * Memory stays bounded however long the log, and a push costs the same when full. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { BoundedText } from './boundedText';

export interface LogBufferLimits {
  /** Characters waiting at most (default 1,000,000). */
  readonly maxChars?: number;
  /** Lines handed over in one write at most (default: unbounded). */
  readonly maxLines?: number;
}

export class LogBuffer {
  private readonly text: BoundedText;
  private readonly maxLines: number;
  private droppedLines = 0;

  constructor(limits: LogBufferLimits = {}) {
    this.maxLines = limits.maxLines ?? Infinity;
    this.text = new BoundedText(
      limits.maxChars ?? 1_000_000,
      (_old, lines) => (this.droppedLines += lines),
      this.maxLines,
    );
  }

  get pending(): number {
    return this.text.size;
  }

  /** Add text (one message or several lines); a missing final newline is added. */
  push(text: string): void {
    // One line without a newline (a job log's usual message) needs no regular expression.
    if (!text.includes('\n')) {
      this.text.push(`${text}\r\n`, 1);
      return;
    }
    const terminal = toTerminal(text.endsWith('\n') ? text : `${text}\n`);
    this.text.push(terminal, countLines(terminal));
  }

  /**
   * `count` lines joined with \n (none holding a newline, no final one), e.g. a run of a job's log lines
   * as one string. Beyond the lines a write holds, only the newest are kept (the others are counted).
   */
  pushLines(lines: string, count: number): void {
    let text = lines;
    if (count > this.maxLines) {
      let at = text.length;
      for (let i = 0; i < this.maxLines; i++) at = text.lastIndexOf('\n', at - 1);
      text = text.slice(at + 1);
      this.droppedLines += count - this.maxLines;
      count = this.maxLines;
    }
    this.text.push(`${text.replaceAll('\n', '\r\n')}\r\n`, count);
  }

  /** Everything waiting, as one string for one write (undefined when nothing waits). */
  take(): string | undefined {
    if (this.text.isEmpty) return undefined;
    const marker = this.droppedLines > 0 ? `\x1b[2m${droppedNote(this.droppedLines)}\x1b[0m\r\n` : '';
    const text = marker + this.text.text();
    this.text.clear();
    this.droppedLines = 0;
    return text;
  }
}

/** A terminal's escape and control sequences: CSI, OSC (to BEL, ST or the line's end), DCS/SOS/PM/APC
 *  strings, other ESC sequences, a lone ESC, C0 controls but tab, line feed and carriage return, and C1. */
const CONTROL =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]/g;
const SGR = /^\x1b\[[0-9;:]*m$/;

/**
 * A job's text as a terminal may receive it: colours and styles (SGR, `ESC[…m`) pass; every other
 * control sequence is removed, so the service or a job cannot put a link in the terminal (OSC 8), change
 * its title (OSC 0/2), move the cursor over what was printed, write to the clipboard (OSC 52) or query it.
 */
export function coloursOnly(text: string): string {
  // Most log lines hold no escape or control character: no replacement then.
  return /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/.test(text)
    ? text.replace(CONTROL, (m) => (SGR.test(m) ? m : ''))
    : text;
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

/** The dimmed line that stands for the lines the terminal skipped. */
function droppedNote(n: number): string {
  return n === 1
    ? l10n.t('… 1 line not shown: the log came faster than the terminal could draw it …')
    : l10n.t('… {0} lines not shown: the log came faster than the terminal could draw it …', n);
}
