/**
 * One cell's outputs while it runs on a Jupyter kernel: the kernel's IOPub messages become the cell's
 * outputs (model/jupyterOutputs.ts gives the items). Streams are coalesced into one output per run of the
 * same stream, its new text appended at most every STREAM_MS (at once past STREAM_CHARS), bounded (the cut
 * is said); `clear_output(wait=True)` clears just before the next output, so a progress bar redraws in
 * place; `update_display_data` replaces the output that showed its display id, also in a cell that finished
 * before (a later cell updating it).
 * Every change to the cell goes through one queue, in order.
 */
import * as vscode from 'vscode';
import type { KernelMessage } from '@jupyterlab/services';
import { BoundedStream, mimeItems } from '../../../model/jupyterOutputs';

const STREAM_MS = 100;
/** New stream text that is sent at once, not at the next redraw (while nothing was cut: only the new text goes
 *  out), so that a cell printing fast has little left to send when it ends. */
const STREAM_CHARS = 64 * 1024;

/** The display ids shown by a notebook's cells (across cells: a later cell may update an earlier one's). */
export type DisplayOutputs = Map<string, { output: vscode.NotebookCellOutput; owner: CellOutputs }>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function items(data: Readonly<Record<string, unknown>>): vscode.NotebookCellOutputItem[] {
  const tooBig = (mime: string, bytes: number) =>
    vscode.l10n.t(
      'This {0} output is {1} MB, more than a notebook cell shows: it was cut and is not shown.',
      mime,
      (bytes / 1e6).toFixed(1),
    );
  return mimeItems(data, tooBig).map((i) => new vscode.NotebookCellOutputItem(i.data, i.mime));
}

/** The stream output being written: what it holds and, of that, what the window was last asked to show. */
interface StreamOutput {
  name: string;
  output: vscode.NotebookCellOutput;
  text: BoundedStream;
  sent: string;
  /** Characters received since the output was last sent. */
  unsent: number;
}

/** The most output operations asked of the window and not yet answered; the next ones wait their turn. */
const IN_FLIGHT = 4;

/** An update of a display whose cell's run ended: the client library hands it to that finished request only
 *  (which drops it), so the kernel's IOPub messages are watched for it and it is replaced in that cell. */
export function updateEndedDisplay(displays: DisplayOutputs, msg: KernelMessage.IIOPubMessage): void {
  if (msg.header.msg_type !== 'update_display_data') return;
  const c = msg.content as Record<string, unknown>;
  const id = (c.transient as { display_id?: string } | undefined)?.display_id;
  const shown = id ? displays.get(id) : undefined;
  if (shown?.owner.ended)
    shown.owner.updateEnded(shown.output, items((c.data ?? {}) as Record<string, unknown>));
}

export class CellOutputs {
  /** The cell's output operations not asked yet, in order (the first one, clearing what the cell showed
   *  before, is asked at once, not awaited: the cell's request goes to the kernel meanwhile). VS Code applies
   *  an execution's operations in the order they are asked, so up to IN_FLIGHT go out before the first is
   *  answered, and the run ends (execution.end, which sends what VS Code still holds) once all were asked,
   *  without waiting for their answers. */
  private readonly waiting: Array<() => Thenable<unknown> | void> = [];
  private inFlight = 0;
  private allAsked: (() => void) | undefined;
  /** The updates of this cell's displays after its run ended, in order. */
  private afterEnd: Promise<unknown> = Promise.resolve();
  private endSummary: vscode.NotebookCellExecutionSummary | undefined;
  private clearOnNext = false;
  private stream: StreamOutput | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The run ended: everything it sent is in the cell. */
  ended = false;

  constructor(
    private readonly execution: vscode.NotebookCellExecution,
    private readonly displays: DisplayOutputs,
    /** The kernel's controller: a display updated after this run ended is replaced through it. */
    private readonly controller: vscode.NotebookController,
  ) {
    this.then(() => execution.clearOutput());
  }

  private then(op: () => Thenable<unknown> | void): void {
    this.waiting.push(op);
    this.ask();
  }

  private ask(): void {
    while (this.inFlight < IN_FLIGHT && this.waiting.length > 0) {
      const op = this.waiting.shift()!;
      this.inFlight++;
      const answered = () => {
        this.inFlight--;
        this.ask();
      };
      try {
        Promise.resolve(op()).then(answered, answered);
      } catch {
        answered(); // the execution refused it (ended): nothing to wait for
      }
    }
    if (this.waiting.length === 0) this.allAsked?.();
  }

  /** Add an output (after a waiting clear). */
  private append(output: vscode.NotebookCellOutput): void {
    this.flushStream();
    this.stream = undefined;
    this.takeClear();
    this.then(() => this.execution.appendOutput(output));
  }

  private takeClear(): void {
    if (!this.clearOnNext) return;
    this.clearOnNext = false;
    this.stream = undefined;
    this.then(() => this.execution.clearOutput());
  }

  /** One IOPub message of this cell's request. */
  handle(msg: KernelMessage.IIOPubMessage): void {
    if (this.ended) return;
    const c = msg.content as Record<string, unknown>;
    switch (msg.header.msg_type) {
      case 'stream':
        this.onStream(String(c.name), str(c.text));
        break;
      case 'execute_result':
      case 'display_data': {
        const output = new vscode.NotebookCellOutput(items((c.data ?? {}) as Record<string, unknown>), {
          outputType: msg.header.msg_type,
          ...(msg.header.msg_type === 'execute_result' ? { executionCount: c.execution_count } : {}),
          metadata: c.metadata ?? {},
        });
        const id = (c.transient as { display_id?: string } | undefined)?.display_id;
        if (id) this.displays.set(id, { output, owner: this });
        this.append(output);
        break;
      }
      case 'update_display_data': {
        const id = (c.transient as { display_id?: string } | undefined)?.display_id;
        const shown = id ? this.displays.get(id) : undefined;
        if (shown && !shown.owner.ended) {
          const next = items((c.data ?? {}) as Record<string, unknown>);
          shown.owner.then(() => shown.owner.execution.replaceOutputItems(next, shown.output));
        }
        break;
      }
      case 'clear_output':
        if (c.wait) this.clearOnNext = true;
        else {
          this.clearOnNext = true;
          this.takeClear();
        }
        break;
      case 'error':
        this.append(
          new vscode.NotebookCellOutput(
            [
              vscode.NotebookCellOutputItem.error({
                name: str(c.ename) || 'Error',
                message: str(c.evalue),
                stack: Array.isArray(c.traceback) ? c.traceback.join('\n') : undefined,
              }),
            ],
            { outputType: 'error' },
          ),
        );
        break;
    }
  }

  /** Replace a display this run showed after the run ended (a later cell updated it): a short execution of the
   *  cell's own that keeps its count, time and result. Nothing when the cell runs again or no longer shows it. */
  updateEnded(output: vscode.NotebookCellOutput, next: vscode.NotebookCellOutputItem[]): void {
    // One after the other: a cell has one execution at a time.
    this.afterEnd = this.afterEnd
      .then(async () => {
        const cell = this.execution.cell;
        // The summary the run left: between a short execution's start and its end the cell's is empty, so
        // the last one seen is kept for the next update.
        const now = cell.executionSummary;
        const s = now?.success !== undefined ? now : (this.endSummary ?? now);
        this.endSummary = s;
        const run = this.controller.createNotebookCellExecution(cell);
        run.executionOrder = s?.executionOrder;
        run.start(s?.timing?.startTime);
        const replaced = run.replaceOutputItems(next, output);
        run.end(s?.success, s?.timing?.endTime); // sends the replacement first, then the end, at once
        await replaced;
      })
      .catch(() => undefined);
  }

  /** Add an error output of ours (what went wrong outside the code). */
  fail(name: string, message: string): void {
    this.append(
      new vscode.NotebookCellOutput(
        [vscode.NotebookCellOutputItem.error({ name, message, stack: undefined })],
        {
          outputType: 'error',
        },
      ),
    );
  }

  private onStream(name: string, chunk: string): void {
    if (!this.stream || this.stream.name !== name || this.clearOnNext) {
      this.flushStream();
      this.takeClear();
      const text = new BoundedStream();
      text.append(chunk);
      const s: StreamOutput = {
        name,
        text,
        sent: '',
        unsent: 0,
        output: new vscode.NotebookCellOutput([], { outputType: 'stream' }),
      };
      s.sent = this.shown(s);
      s.output.items.push(this.streamItem(s.name, s.sent));
      this.stream = s;
      this.then(() => this.execution.appendOutput(s.output));
      return;
    }
    const s = this.stream;
    const changed = s.text.append(chunk);
    s.unsent += chunk.length;
    if (changed && s.unsent >= STREAM_CHARS && s.text.cut === 0) this.flushStream();
    else if (changed || s.text.cut > 0) this.scheduleStream();
  }

  private shown(s: StreamOutput): string {
    return s.text.text((n) => vscode.l10n.t('… output cut here: {0} more characters not shown.', n));
  }

  private streamItem(name: string, text: string): vscode.NotebookCellOutputItem {
    return name === 'stderr'
      ? vscode.NotebookCellOutputItem.stderr(text)
      : vscode.NotebookCellOutputItem.stdout(text);
  }

  private scheduleStream(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flushStream();
    }, STREAM_MS);
  }

  /** Show what the current stream output holds now: only the new text where the output shows the start of it
   *  already (VS Code joins a stream output's items: neither the window nor the page gets the whole text again),
   *  else all of it (a carriage return rewrote a line sent before, or the cut is said). */
  private flushStream(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const s = this.stream;
    if (!s) return;
    s.unsent = 0;
    const shown = this.shown(s);
    if (shown === s.sent) return;
    const added = shown.startsWith(s.sent) ? shown.slice(s.sent.length) : undefined;
    s.sent = shown;
    this.then(() =>
      added !== undefined
        ? this.execution.appendOutputItems(this.streamItem(s.name, added), s.output)
        : this.execution.replaceOutputItems(this.streamItem(s.name, shown), s.output),
    );
  }

  /** Every output operation asked of the window (the run ends after this: end() sends them in order). */
  async done(): Promise<void> {
    this.flushStream();
    if (this.waiting.length > 0) await new Promise<void>((r) => (this.allAsked = r));
    this.allAsked = undefined;
    this.ended = true;
  }
}
