/**
 * A job's log terminal: a Pseudoterminal (so the job's ANSI colours render) named after the job and its
 * state. Text is written in batches at most every FLUSH_MS through a bounded LogBuffer, so a job printing
 * hundreds of thousands of lines costs one write per frame and bounded memory; a write holds at most
 * the lines the terminal can keep (its scrollback plus a screen): older ones would scroll out of reach
 * as they were drawn, so they are counted in a marker instead of being sent. Closing the terminal
 * stops following (onClosed), never the job; after the job ends the terminal stays open and readable.
 * Only colour sequences reach it (logBuffer.ts coloursOnly): no links, titles or cursor moves.
 */
import * as vscode from 'vscode';
import { coloursOnly, LogBuffer } from '../../../model/logBuffer';

const FLUSH_MS = 50;
/** Lines on a screen, beyond the scrollback, that a write may still fill. */
const SCREEN_LINES = 200;

/** The lines a job terminal keeps: VS Code's terminal.integrated.scrollback (1,000 by default) + a screen. */
function keptLines(): number {
  const scrollback = vscode.workspace.getConfiguration('terminal.integrated').get<number>('scrollback');
  const n =
    typeof scrollback === 'number' && Number.isFinite(scrollback) && scrollback > 0 ? scrollback : 1000;
  return Math.floor(n) + SCREEN_LINES;
}

/** Where the text a job terminal receives is also recorded (the test API's tap; absent in production). */
export type TerminalTap = (terminalName: string, text: string) => void;

export class JobTerminal implements vscode.Disposable {
  readonly terminal: vscode.Terminal;
  private readonly write = new vscode.EventEmitter<string>();
  private readonly rename = new vscode.EventEmitter<string>();
  private readonly buffer = new LogBuffer({ maxLines: keptLines() });
  private timer: ReturnType<typeof setTimeout> | undefined;
  private opened = false;
  private closed = false;

  constructor(
    private jobName: string,
    /** The user closed the terminal: stop following (the job goes on). */
    private onClosed: () => void,
    show = true,
    private readonly tap?: TerminalTap,
  ) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.write.event,
      onDidChangeName: this.rename.event,
      open: () => {
        this.opened = true;
        this.flush();
      },
      close: () => {
        this.closed = true;
        this.onClosed();
        this.dispose();
      },
    };
    this.terminal = vscode.window.createTerminal({
      name: vscode.l10n.t('TensorPool job {0}', jobName),
      pty,
      iconPath: new vscode.ThemeIcon('server-process'),
    });
    if (show) this.terminal.show(true);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** What closing the terminal does from now on (a submit's terminal becomes the job's follower). */
  whenClosed(onClosed: () => void): void {
    this.onClosed = onClosed;
  }

  /** Name it after the job once the service has said its id. */
  setName(jobName: string): void {
    this.jobName = jobName;
    if (!this.closed) this.rename.fire(vscode.l10n.t('TensorPool job {0}', jobName));
  }

  show(): void {
    this.terminal.show(true);
  }

  /** A message from the job's log (or ours), shown as it comes: colours pass, no other control sequence. */
  append(message: string): void {
    if (this.closed) return;
    const text = coloursOnly(message);
    this.tap?.(this.jobName, text);
    this.buffer.push(text);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** `count` lines of the job's log, joined with \n (none holding a newline), as one string. */
  appendLines(text: string, count: number): void {
    if (this.closed) return;
    // A line break of its own would change the count: none comes through (\r is kept, a progress bar's).
    const lines = coloursOnly(text);
    this.tap?.(this.jobName, lines);
    this.buffer.pushLines(lines, count);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** A line of our own (dimmed), e.g. "Connection lost; reconnecting in 2 s…". */
  note(text: string): void {
    this.append(`\x1b[2m${text}\x1b[0m`);
  }

  /** The job's state in the terminal's title. */
  setState(state: string): void {
    if (!this.closed) this.rename.fire(vscode.l10n.t('TensorPool job {0} · {1}', this.jobName, state));
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.opened || this.closed) return;
    const text = this.buffer.take();
    if (text) this.write.fire(text);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.write.dispose();
    this.rename.dispose();
  }
}
