// CLI of the local engine: `npm run engine -- --port 9000 --seed demo` (bundled to dist/engine.js).
// Prints exactly one `TensorPool local engine listening on http://127.0.0.1:<port>` line when ready,
// then which token to use. Exits cleanly on SIGINT / SIGTERM.

import { startEngine, type EngineOptions } from './server';
import { parseVersion } from './offered';
import { readPricesFile } from './quotes';
import { DEFAULT_TOKEN } from './state';

const USAGE = `Usage: node dist/engine.js [options]   (or: npm run engine -- [options])

  --port <n>             port to listen on (default 8750; 0 = any free port)
  --host <addr>          interface to listen on (default 127.0.0.1)
  --token <t>            full-access API token; repeat for more users (default ${DEFAULT_TOKEN})
  --readonly-token <t>   token of a read-only user (403 on every change); may repeat
  --seed demo|none       start with demo clusters (default none)
  --pending-ms <n>       how long new requests stay PENDING (default 1500)
  --processing-ms <n>    how long they then stay PROCESSING (default 6000)
  --retry-after <s>      Retry-After seconds on unfinished request info (default 2)
  --instance-types <l>   comma-separated instance types to offer (default: the service's list)
  --min-client-version <v>  POST /health refuses clients older than v (default: none)
  --prices <file.json>   price table of GET /cluster/quote and /storage/quote (engine/quotes.ts)
  --s3                   run a real S3 server (s3rver) on a free port; object storage's credentials point at it
  --real-nodes <m>       cluster nodes: auto (default: OpenSSH's sshd on 127.0.0.1 when installed, else
                         unreachable addresses and a warning), require (exit 1 without sshd), off
  --data-dir <dir>       folder for the nodes' folders (default: a temporary folder removed at stop)
  --real-jobs            jobs upload with rsync and run their commands on the cluster's first node, in
                         the data folder (the default whenever the nodes are real); exit 1 without them
  --simulated-jobs       jobs print made-up lines and serve generated outputs (no process runs)
  --verbose              print one line per call to stderr
  --help                 show this help`;

class UsageError extends Error {}

function parseArgs(argv: string[]): EngineOptions & { help?: boolean } {
  const opts: EngineOptions & { help?: boolean } = {
    port: 8750,
    host: '127.0.0.1',
    seed: 'none',
    quiet: false,
    nodes: 'auto',
  };
  const tokens: string[] = [];
  const readonlyTokens: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    // Accept both `--port 9000` and `--port=9000`.
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0 && arg.startsWith('--')) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    const number = (min: number): number => {
      const v = value();
      const n = Number(v);
      if (v.trim() === '' || !Number.isInteger(n) || n < min)
        throw new UsageError(`${name} needs an integer >= ${min}, got '${v}'`);
      return n;
    };
    switch (name) {
      case '--port': {
        const p = number(0);
        if (p > 65535) throw new UsageError('--port must be at most 65535');
        opts.port = p;
        break;
      }
      case '--host':
        opts.host = value();
        break;
      case '--token':
        tokens.push(value());
        break;
      case '--readonly-token':
        readonlyTokens.push(value());
        break;
      case '--seed': {
        const s = value();
        if (s !== 'demo' && s !== 'none') throw new UsageError(`--seed must be demo or none, got '${s}'`);
        opts.seed = s;
        break;
      }
      case '--pending-ms':
        opts.pendingMs = number(0);
        break;
      case '--processing-ms':
        opts.processingMs = number(0);
        break;
      case '--retry-after':
        opts.retryAfterSeconds = number(0);
        break;
      case '--instance-types': {
        const list = value()
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        if (list.length === 0) throw new UsageError('--instance-types needs at least one type');
        opts.instanceTypes = list;
        break;
      }
      case '--min-client-version': {
        const v = value();
        if (!parseVersion(v))
          throw new UsageError(`--min-client-version needs a version like 1.2.0, got '${v}'`);
        opts.minClientVersion = v;
        break;
      }
      case '--verbose':
        opts.verbose = true;
        break;
      case '--s3':
        opts.s3 = true;
        break;
      case '--prices': {
        const file = value();
        try {
          opts.prices = readPricesFile(file);
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
        break;
      }
      case '--real-nodes': {
        const m = value();
        if (m !== 'auto' && m !== 'require' && m !== 'off')
          throw new UsageError(`--real-nodes must be auto, require or off, got '${m}'`);
        opts.nodes = m;
        break;
      }
      case '--data-dir':
        opts.dataDir = value();
        break;
      case '--real-jobs':
        opts.realJobs = true;
        break;
      case '--simulated-jobs':
        opts.realJobs = false;
        break;
      case '--help':
      case '-h':
        opts.help = true;
        break;
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  if (tokens.length) opts.tokens = tokens;
  if (readonlyTokens.length) opts.readonlyTokens = readonlyTokens;
  return opts;
}

async function main(): Promise<void> {
  let opts: ReturnType<typeof parseArgs>;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`tensorpool engine: ${err.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // The handlers come first: a signal while the engine starts (its nodes' sshd being started) is answered once
  // it is up, by closing it, rather than by the default action that would leave those sshd behind.
  let engine: Awaited<ReturnType<typeof startEngine>> | undefined;
  let stopping: string | undefined;
  const stop = (signal: string): void => {
    if (stopping !== undefined) return;
    stopping = signal;
    if (engine) close(engine, signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  try {
    engine = await startEngine(opts);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `port ${opts.port} is already in use (try --port 0)`
        : err instanceof Error
          ? err.message
          : String(err);
    process.stderr.write(`tensorpool engine: cannot start: ${why}\n`);
    process.exit(1);
  }
  // The ready line was printed by startEngine (quiet: false). Then the token(s) to use; tokens given
  // on the command line are the caller's own secrets and are not echoed.
  if (opts.tokens === undefined) process.stdout.write(`Development token: ${DEFAULT_TOKEN}\n`);
  else
    process.stdout.write(
      `Using ${engine.tokens.length} token(s) from --token${engine.readonlyTokens.length ? ` and ${engine.readonlyTokens.length} read-only` : ''}\n`,
    );
  if (stopping !== undefined) close(engine, stopping);
}

function close(engine: Awaited<ReturnType<typeof startEngine>>, signal: string): void {
  process.stdout.write(`Received ${signal}, shutting down\n`);
  void engine.close().then(() => process.exit(0));
}

void main();
