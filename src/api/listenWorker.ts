/**
 * The job log reader's worker thread (dist/listenWorker.js; out/src/api/listenWorker.js in the tests).
 * One /job/listen/{id} connection (listenJob), run off the extension host's main thread: a job that
 * prints a burst of lines fills the socket faster than anybody reads it, and undici parses everything a
 * socket read returns (megabytes) in one go, which on the main thread blocked the extension host for
 * hundreds of milliseconds. Here the parsing blocks only this thread; the messages go to the main thread
 * in batches (ListenThreadMessage, at most every BATCH_MS or BATCH_SIZE messages), then the outcome.
 * In a batch, consecutive log lines (a message without status or newline) travel as one string
 * (LineRun: the lines joined with \n), so the main thread gets one string per run instead of an object
 * and a string per line: less to copy across, to allocate and to collect on the extension host.
 * With `metrics`, each line is also read for metrics here (parseMetricLine, off the extension host's
 * thread) and the batch carries the records of its metric lines (MetricBatcher: at most MAX_BATCH_RECORDS
 * a batch; a batch is sent early when that many wait), column by column, their buffers moved, not copied.
 * The token arrives in workerData (memory only) and goes out in the socket's first message only.
 * It loads dist/api.js (the API layer) rather than bundling its own copy.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ListenMessage, ListenOutcome, SocketOptions } from './jobSocket';
import type { LogLevel } from './log';
import type { ProxySettings } from './proxy';
import { setL10nContents, type L10nContents } from '../model/l10nSlot';
import { columnsTransfer, MetricBatcher, type MetricColumns } from '../model/metrics/batch';
import type * as ApiModule from './index';

// The API layer as a whole (dist/api.js beside this file once bundled: esbuild.mjs maps it), so the
// worker adds no second copy of undici to the package.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (api-bundle)
const { listenJob, outboundDispatcher, SecretRegistry } = require('./index.js') as typeof ApiModule;

export interface ListenWorkerData {
  /** ws(s)://host[/prefix], without the path. */
  readonly base: string;
  readonly jobId: string;
  readonly token: string | undefined;
  readonly userAgent: string;
  readonly proxy: ProxySettings | undefined;
  readonly opts: SocketOptions;
  /** The display language's translations (vscode.l10n.bundle), for the messages this thread writes. */
  readonly l10n: L10nContents | undefined;
  /** Parse each line for metrics (parseMetricLine) and send the records with the batch. */
  readonly metrics?: boolean;
}

/** Consecutive log lines (messages with only a text, no newline in it): their texts joined with \n. */
export interface LineRun {
  readonly lines: string;
  readonly count: number;
}

export type ListenThreadMessage =
  | {
      readonly type: 'messages';
      readonly batch: readonly (ListenMessage | LineRun)[];
      /** The metric lines among them (with `metrics`), by their index on this connection. */
      readonly metrics?: MetricColumns;
    }
  | { readonly type: 'log'; readonly level: LogLevel; readonly text: string }
  | { readonly type: 'end'; readonly outcome: ListenOutcome };

const BATCH_MS = 20;
const BATCH_SIZE = 2000;

function run(port: NonNullable<typeof parentPort>, data: ListenWorkerData): void {
  const secrets = new SecretRegistry();
  secrets.add(data.token);
  const proxyAuth = data.proxy?.authorization?.trim();
  secrets.add(proxyAuth);
  secrets.add(proxyAuth?.replace(/^\S+\s+/, ''));
  const post = (m: ListenThreadMessage) => port.postMessage(m);
  const host = {
    secrets,
    socketTarget: async (path: string) => ({
      url: data.base + path,
      token: data.token,
      dispatcher: await outboundDispatcher(data.proxy, process.env, data.base),
      userAgent: data.userAgent,
    }),
    log: (level: LogLevel, text: string) => post({ type: 'log', level, text: secrets.redact(text) }),
  };
  let batch: (ListenMessage | LineRun)[] = [];
  let run: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  let index = 0;
  const metrics = data.metrics ? new MetricBatcher() : undefined;
  const endRun = () => {
    if (run.length === 0) return;
    batch.push({ lines: run.join('\n'), count: run.length });
    run = [];
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    endRun();
    size = 0;
    if (batch.length === 0) return;
    const records = metrics?.take();
    if (records) port.postMessage({ type: 'messages', batch, metrics: records }, columnsTransfer(records));
    else post({ type: 'messages', batch });
    batch = [];
  };
  const ac = new AbortController();
  port.on('message', (m: { type?: string }) => {
    if (m?.type === 'abort') ac.abort();
  });
  void listenJob(
    host,
    data.jobId,
    {
      signal: ac.signal,
      onMessage: (m) => {
        index++;
        if (metrics && m.message !== undefined) metrics.add(index, m.message);
        if (m.status === undefined && m.message !== undefined && !m.message.includes('\n'))
          run.push(m.message);
        else {
          endRun();
          batch.push(m);
        }
        if (++size >= BATCH_SIZE || metrics?.full) flush();
        else timer ??= setTimeout(flush, BATCH_MS);
      },
    },
    data.opts,
  ).then(
    (outcome) => {
      flush();
      post({ type: 'end', outcome });
    },
    (err: unknown) => {
      flush();
      const reason = secrets.redact(err instanceof Error ? err.message : String(err));
      post({ type: 'end', outcome: { kind: 'ended', code: 1006, reason, opened: false } });
    },
  );
}

/**
 * This thread yields the CPU to the extension host's own thread (10 nice steps below it): a burst keeps it
 * busy parsing for seconds, and on a machine with few cores the host's event loop waited for it. On Linux a
 * thread's nice value is its own (setpriority on id 0 is the calling thread); elsewhere it would lower the
 * whole process, so not there.
 */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, Math.min(19, getPriority(0) + 10));
  } catch {
    // Not allowed or not supported: the thread runs at the host's priority, as before.
  }
}

if (parentPort) {
  lowerPriority();
  setL10nContents((workerData as ListenWorkerData).l10n);
  run(parentPort, workerData as ListenWorkerData);
}
