// The engine's stand-in `nvidia-smi` (bundled to dist/nvidia-smi.js; a node's bin/nvidia-smi runs it),
// behaving like NVIDIA's tool for what the extension and a person in a node terminal would run:
//   nvidia-smi                                   the table (engine/smiTable.ts)
//   nvidia-smi -L | --list-gpus                  one line per GPU
//   nvidia-smi --version
//   nvidia-smi --query-gpu=<fields> --format=csv[,noheader][,nounits]
//   nvidia-smi --query-compute-apps=<fields> --format=csv[,noheader][,nounits]
//   ... -l N | --loop=N  (seconds)  /  -lms N | --loop-ms=N  (milliseconds): repeat until killed;
//       a CSV header is printed once, the table every time.
// Errors as the real tool words them (test/fixtures/nvidia-smi/): an unknown field prints
// `Field "x" is not a valid field to query.` and a blank line, exit 2; a format other than csv
// `Format modifier is not recognized.`, exit 2. Assumptions (not in the fixtures): a query without
// --format and an unknown option print the messages below, exit 2; a driver failure exits 9 (the
// real tool's status for it).
// Node: env TP_INSTANCE_TYPE and TP_NODE_DIR (engine/smiLoad.ts). A CPU instance has no nvidia-smi
// (the node's bin/ only gets this for GPU types); run anyway, it answers as a shell would for a
// missing command (stderr, exit 127). An unset or unknown type: "No devices were found", exit 6.

import { gpusOf } from './gpuSpecs';
import { nodeNow, type NodeNow } from './smiLoad';
import {
  APP_FIELDS,
  DRIVER_FAILURE_TEXT,
  GPU_FIELDS,
  csvLine,
  fieldError,
  headerLine,
  listLines,
  parseFormat,
  unknownField,
  versionText,
  type CsvFormat,
} from './smiFormat';
import { table } from './smiTable';

interface Args {
  mode: 'table' | 'list' | 'version' | 'gpu' | 'apps';
  fields: string[];
  format: string | undefined;
  loopMs: number | undefined;
}

/** What the tool prints when it refuses, and its exit status. */
class Refusal extends Error {
  constructor(
    readonly text: string,
    readonly code: number,
    readonly stream: 'stdout' | 'stderr' = 'stdout',
  ) {
    super(text.trim());
  }
}

const invalid = () =>
  new Refusal("Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.\n", 2);

function parseArgs(argv: string[]): Args {
  const args: Args = { mode: 'table', fields: [], format: undefined, loopMs: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined) throw invalid();
      return v;
    };
    const count = (scale: number): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw invalid();
      return n * scale;
    };
    switch (name) {
      case '--query-gpu':
      case '--query-compute-apps':
        if (args.mode !== 'table') throw invalid();
        args.mode = name === '--query-gpu' ? 'gpu' : 'apps';
        args.fields = value()
          .split(',')
          .map((f) => f.trim())
          .filter((f) => f !== '');
        break;
      case '--format':
        args.format = value();
        break;
      case '-l':
      case '--loop':
        args.loopMs = count(1000);
        break;
      case '-lms':
      case '--loop-ms':
        args.loopMs = count(1);
        break;
      case '-L':
      case '--list-gpus':
        args.mode = 'list';
        break;
      case '--version':
        args.mode = 'version';
        break;
      default:
        throw invalid();
    }
  }
  return args;
}

/** Check the query before anything runs; returns the CSV format (query modes) or undefined. */
function checkQuery(args: Args): CsvFormat | undefined {
  if (args.mode !== 'gpu' && args.mode !== 'apps') return undefined;
  const catalogue = args.mode === 'gpu' ? GPU_FIELDS : APP_FIELDS;
  if (args.fields.length === 0) throw invalid();
  const bad = unknownField(args.fields, catalogue);
  if (bad !== undefined) throw new Refusal(fieldError(bad), 2);
  if (args.format === undefined)
    throw new Refusal(
      'Format must be specified for --query-gpu and --query-compute-apps (e.g. --format=csv).\n',
      2,
    );
  const format = parseFormat(args.format);
  if (!format) throw new Refusal('Format modifier is not recognized.\n', 2);
  return format;
}

/** One round of output; `first` prints the CSV header (once per run). */
function render(args: Args, format: CsvFormat | undefined, node: NodeNow, first: boolean): string {
  const header = first && format?.header === true;
  if (!format && (args.mode === 'gpu' || args.mode === 'apps')) return '';
  switch (args.mode) {
    case 'table':
      return table(node, new Date());
    case 'list':
      return listLines(node.gpus);
    case 'version':
      return versionText();
    case 'gpu': {
      const rows = node.gpus.map((g) => csvLine(g, args.fields, GPU_FIELDS, format!));
      return [...(header ? [headerLine(args.fields, GPU_FIELDS, format)] : []), ...rows]
        .map((l) => `${l}\n`)
        .join('');
    }
    case 'apps': {
      const rows = node.procs.map((p) => {
        const gpu = node.gpus[p.gpu];
        return csvLine({ ...p, gpuName: gpu.name, gpuBusId: gpu.busId }, args.fields, APP_FIELDS, format!);
      });
      return [...(header ? [headerLine(args.fields, APP_FIELDS, format)] : []), ...rows]
        .map((l) => `${l}\n`)
        .join('');
    }
  }
}

function main(argv: string[], env: NodeJS.ProcessEnv): void {
  const gpus = gpusOf(env.TP_INSTANCE_TYPE);
  if (gpus.kind === 'cpu') throw new Refusal('nvidia-smi: command not found\n', 127, 'stderr');
  const args = parseArgs(argv);
  if (args.mode === 'version') {
    process.stdout.write(versionText());
    return;
  }
  if (gpus.kind === 'unknown') throw new Refusal('No devices were found\n', 6);
  const format = checkQuery(args);
  const nodeDir = env.TP_NODE_DIR || undefined;
  const sample = (): NodeNow => nodeNow(gpus.spec, gpus.count, nodeDir, Date.now());
  const once = sample();
  if (once.fault === 'driver') throw new Refusal(DRIVER_FAILURE_TEXT, 9);
  process.stdout.write(render(args, format, once, true));
  if (args.loopMs === undefined || args.mode === 'list') return;
  const interval = args.loopMs;
  // Until killed. A driver that goes away mid-loop prints the failure once and ends the loop (exit 9).
  const tick = (): void => {
    const node = sample();
    if (node.fault === 'driver') {
      process.stdout.write(DRIVER_FAILURE_TEXT);
      process.exitCode = 9;
      return;
    }
    process.stdout.write(render(args, format, node, false));
    setTimeout(tick, interval);
  };
  setTimeout(tick, interval);
  // A closed pipe (the reader went away) ends the loop like a kill would.
  process.stdout.on('error', () => process.exit(0));
}

try {
  main(process.argv.slice(2), process.env);
} catch (err) {
  if (!(err instanceof Refusal)) throw err;
  (err.stream === 'stdout' ? process.stdout : process.stderr).write(err.text);
  process.exitCode = err.code;
}
