/**
 * One cell run on a node's kernel: its outputs (cellOutputs.ts, the old ones cleared as the request goes), the
 * session opened or reattached first (and a save just before it sent by the folder sync), `input()` through an
 * input box, the execution count and time, and how it ends: the reply, a kernel that died (Restart Kernel
 * offered), a connection lost or the cluster gone (said in the cell).
 */
import * as vscode from 'vscode';
import type { KernelMessage } from '@jupyterlab/services';
import { CellOutputs, updateEndedDisplay, type DisplayOutputs } from './cellOutputs';
import type { NodeController } from './kernelControllers';
import { askInput, type KernelSession } from './kernelSession';
import { NotebookServerError } from './nodeServer';
import { syncFlushed } from './notebookFolder';
import type { NotebookDeps } from './notebookKernels';

/** The cell running on a session now: its end (`abort`) when the tunnel drops or the cluster goes. */
export interface RunningCell {
  readonly execution: vscode.NotebookCellExecution;
  readonly abort: (why: string) => void;
  readonly forwardId: string;
  readonly node: number;
}

export interface CellRunContext {
  readonly d: NotebookDeps;
  /** The notebook's session on the node (opened, reattached or started). */
  session(): Promise<KernelSession>;
  /** The notebook's outputs shown by display id (updated by later cells too). */
  readonly displays: DisplayOutputs;
  /** The cells running, by session key (this run's under `key` while it runs). */
  readonly running: Map<string, RunningCell>;
  readonly key: string;
  offerRestart(): void;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The most a run waits for a kernel Jupyter starts again to be back. */
const START_WAIT_MS = 60_000;

/** Wait while the kernel is starting again, up to START_WAIT_MS: undefined, or why the run ended meanwhile. */
async function restarted(session: KernelSession, aborted: Promise<string>): Promise<string | undefined> {
  if (!session.starting) return undefined;
  const back = session.back();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), START_WAIT_MS)));
  try {
    return await Promise.race([back.done.then(() => undefined), limit, aborted]);
  } finally {
    clearTimeout(timer);
    back.dispose();
  }
}

/** Run one cell on its notebook's kernel session; whether it succeeded. */
export async function runCell(
  x: CellRunContext,
  cell: vscode.NotebookCell,
  notebook: vscode.NotebookDocument,
  c: NodeController,
): Promise<boolean> {
  const execution = c.controller.createNotebookCellExecution(cell);
  execution.start(Date.now());
  const outputs = new CellOutputs(execution, x.displays, c.controller);
  const finish = async (ok: boolean) => {
    await outputs.done();
    execution.end(ok, Date.now());
    return ok;
  };
  if (cell.document.languageId !== 'python') {
    outputs.fail(
      'TensorPool',
      vscode.l10n.t('This kernel runs Python; this cell is {0}.', cell.document.languageId),
    );
    return finish(false);
  }
  let session: KernelSession;
  try {
    session = await x.session();
    await syncFlushed(x.d.syncStatus, notebook, c.target);
  } catch (e) {
    outputs.fail(e instanceof NotebookServerError ? 'TensorPool' : 'Error', message(e));
    return finish(false);
  }
  const key = x.key;
  let abort: (why: string) => void = () => undefined;
  const aborted = new Promise<string>((resolve) => (abort = resolve));
  x.running.set(key, { execution, abort, forwardId: session.link.forwardId, node: c.target.node });
  // A kernel that dies mid-cell: Jupyter restarts it (autorestarting) or gives up (dead).
  let died = false;
  const onStatus = (_: unknown, status: string) => {
    if (status !== 'autorestarting' && status !== 'dead') return;
    died = true;
    // The reply may never come: end the run now (a tick later, so what the kernel printed is in).
    setTimeout(() => abort(''), 1000);
  };
  session.kernel.statusChanged.connect(onStatus);
  // A display of a cell that finished, updated by this one (the client library would drop it).
  const onIOPub = (_: unknown, m: KernelMessage.IIOPubMessage) => updateEndedDisplay(x.displays, m);
  session.kernel.iopubMessage.connect(onIOPub);
  const diedFail = async () => {
    outputs.fail(
      'TensorPool',
      vscode.l10n.t(
        'The kernel died while this cell ran (on node {0}): its variables are gone. What it printed before is above. Restart the kernel to start clean.',
        c.target.node,
      ),
    );
    x.offerRestart();
    return finish(false);
  };
  // A kernel Jupyter is starting again (it died, or Restart): the request waits for it, as one sent in between
  // can be lost with the old process. The stop button ends the wait.
  const stopped = await restarted(session, aborted);
  if (stopped !== undefined) {
    if (died) return await diedFail();
    if (stopped) outputs.fail('TensorPool', stopped);
    return await finish(false);
  }
  const future = session.execute(cell.document.getText());
  future.onIOPub = (m) => outputs.handle(m);
  future.onStdin = (m) => askInput(x.d.prompts, session, m);
  try {
    const reply = await Promise.race([future.done, aborted]);
    if (typeof reply === 'string' && died) return await diedFail();
    if (typeof reply === 'string') {
      outputs.fail('TensorPool', reply);
      return await finish(false);
    }
    execution.executionOrder = reply.content.execution_count ?? undefined;
    return await finish(reply.content.status === 'ok');
  } catch (e) {
    x.d.log.warn(`A cell on ${c.target.instance.id} ended without its reply: ${message(e)}`);
    if (died || session.kernel.status === 'dead' || session.kernel.status === 'autorestarting')
      return await diedFail();
    outputs.fail(
      'TensorPool',
      vscode.l10n.t(
        'The kernel stopped before this cell finished (it died, was restarted, or the connection to node {0} ended). What it printed before is above.',
        c.target.node,
      ),
    );
    return finish(false);
  } finally {
    session.kernel.statusChanged.disconnect(onStatus);
    session.kernel.iopubMessage.disconnect(onIOPub);
    if (x.running.get(key)?.execution === execution) x.running.delete(key);
  }
}
