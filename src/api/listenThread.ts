/**
 * One /job/listen/{id} connection read in a worker thread (listenWorker.ts), with listenJob's contract:
 * every message to onMessage in order (delivered in batches), then how it ended; an abort closes it.
 * With onLines, a run of consecutive log lines comes as one string instead (LineRun: the texts joined
 * with \n, `count` of them, none with a newline or a status), in its place in the order.
 * With onMetrics, the lines are also parsed for metrics in the worker (records after their batch).
 * The caller's thread only handles a batch now and then, however fast the job prints. When the worker
 * cannot run (the caller gave its own dispatcher, which cannot cross threads, or the worker script is
 * missing or fails before saying anything) the connection is read here instead, as before.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import * as l10n from '@vscode/l10n';
import type { Transport } from './http';
import { listenJob, type ListenMessage, type ListenOutcome, type SocketOptions } from './jobSocket';
import type { LineRun, ListenThreadMessage, ListenWorkerData } from './listenWorker';
import { l10nContents } from '../model/l10nSlot';
import { MetricBatcher, type MetricColumns } from '../model/metrics/batch';

/** Beside this module: dist/listenWorker.js in the bundle, out/src/api/listenWorker.js in the tests. */
export const LISTEN_WORKER_FILE = path.join(__dirname, 'listenWorker.js');

export interface ThreadHandlers {
  readonly onMessage: (m: ListenMessage) => void;
  /** Runs of log lines as one string each; without it, each line goes to onMessage. */
  readonly onLines?: (lines: string, count: number) => void;
  /** The metric lines' records (MetricColumns: `lines` are the messages' indexes on this connection,
   *  1-based), each time after the messages they came from; parsed in the worker. */
  readonly onMetrics?: (records: MetricColumns) => void;
  readonly signal?: AbortSignal;
}

/** For a connection read on this thread: `handlers` that also parse each message for metrics. */
export function withMetrics<H extends ThreadHandlers>(handlers: H): H {
  const onMetrics = handlers.onMetrics;
  if (!onMetrics) return handlers;
  const batcher = new MetricBatcher();
  let index = 0;
  return {
    ...handlers,
    onMessage: (m: ListenMessage) => {
      index++;
      if (m.message !== undefined) batcher.add(index, m.message);
      handlers.onMessage(m);
      const records = batcher.take();
      if (records) onMetrics(records);
    },
  };
}

function isRun(item: ListenMessage | LineRun): item is LineRun {
  return typeof (item as LineRun).lines === 'string';
}

export async function listenJobInThread(
  transport: Transport,
  jobId: string,
  handlers: ThreadHandlers,
  opts: SocketOptions = {},
  file = LISTEN_WORKER_FILE,
): Promise<ListenOutcome> {
  const proxy = transport.socketProxy();
  if (!proxy || !existsSync(file)) return listenJob(transport, jobId, withMetrics(handlers), opts);
  const target = await transport.socketTarget('');
  const data: ListenWorkerData = {
    base: target.url,
    jobId,
    token: target.token,
    userAgent: target.userAgent,
    proxy: proxy.proxy,
    opts: { pingMs: opts.pingMs, idleTimeoutMs: opts.idleTimeoutMs, deadAfterMs: opts.deadAfterMs },
    l10n: l10nContents(),
    metrics: handlers.onMetrics !== undefined,
  };
  return new Promise((resolve) => {
    let settled = false;
    let heard = false;
    const worker = new Worker(file, { workerData: data });
    const abort = () => worker.postMessage({ type: 'abort' });
    const settle = (outcome: ListenOutcome | Promise<ListenOutcome>) => {
      if (settled) return;
      settled = true;
      handlers.signal?.removeEventListener('abort', abort);
      void worker.terminate();
      resolve(outcome);
    };
    handlers.signal?.addEventListener('abort', abort, { once: true });
    if (handlers.signal?.aborted) abort();
    worker.on('message', (m: ListenThreadMessage) => {
      if (settled) return;
      heard = true;
      if (m.type === 'messages') {
        for (const item of m.batch) {
          if (!isRun(item)) handlers.onMessage(item);
          else if (handlers.onLines) handlers.onLines(item.lines, item.count);
          else for (const message of item.lines.split('\n')) handlers.onMessage({ message });
        }
        if (m.metrics) handlers.onMetrics?.(m.metrics);
      } else if (m.type === 'log') transport.log(m.level, m.text);
      else settle(m.outcome);
    });
    worker.on('error', (err) => {
      transport.log('warn', `Job ${jobId}: the log reader thread stopped: ${err.message}`);
      settle(
        heard
          ? { kind: 'ended', code: 1006, reason: l10n.t('the log reader stopped'), opened: true }
          : listenJob(transport, jobId, withMetrics(handlers), opts),
      );
    });
    worker.on('exit', () =>
      settle({ kind: 'ended', code: 1006, reason: l10n.t('the log reader stopped'), opened: heard }),
    );
  });
}
