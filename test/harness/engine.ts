// Start the local TensorPool engine (dist/engine.js, built by `npm run build`) as a child process in its
// own process group, with fresh random tokens, and wait for its ready line.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killGroup, registerScratch, spawnGroup } from './processes';
import { REPO, randomToken } from './util';

export interface LocalEngine {
  url: string;
  /** Full-access token (what a user pastes into "TensorPool: Sign In"). */
  token: string;
  /** Token that may read but not change anything. */
  readonlyToken: string;
  /** The engine's data folder (nodes, jobs): a run's marker, so that a node's sshd or a job process left
   *  after cleanup is found (processes.ts leftovers() reads command lines and working folders). */
  dataDir: string;
  /** GET a path with the full-access token and parse the JSON answer. */
  get(apiPath: string): Promise<unknown>;
  stop(): Promise<void>;
}

const READY = /TensorPool local engine listening on (http:\/\/127\.0\.0\.1:\d+)/;

export async function startLocalEngine(
  opts: {
    seed?: 'demo' | 'none';
    port?: number;
    quick?: boolean;
    realNodes?: 'auto' | 'require';
    /** Jobs print made-up lines (engine --simulated-jobs); by default they really run on the nodes. */
    simulatedJobs?: boolean;
  } = {},
): Promise<LocalEngine> {
  const main = path.join(REPO, 'dist', 'engine.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  // Port 0 unless asked: the engine binds a free one itself and prints it (a port picked here and passed
  // on could be taken by another process's connection in between: 'port … is already in use').
  const port = opts.port ?? 0;
  const token = randomToken('tp_dev');
  const readonlyToken = randomToken('tp_ro');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-engine-data-'));
  registerScratch(dataDir);
  const args = [
    main,
    '--port',
    String(port),
    '--token',
    token,
    '--readonly-token',
    readonlyToken,
    '--seed',
    opts.seed ?? 'demo',
    // A real S3 server (s3rver) on a free loopback port; object storage's credentials point at it.
    '--s3',
    // Cluster nodes are OpenSSH's sshd (engine/nodes.ts): the suites need them (the engine exits with
    // the install command when sshd is missing); the demo still starts without (unreachable nodes).
    '--real-nodes',
    opts.realNodes ?? 'require',
    // Its nodes and jobs run in a folder of this run (removed at the end), never the real user's.
    '--data-dir',
    dataDir,
  ];
  // Jobs really run on the first node whenever the nodes are real (the engine's default).
  if (opts.simulatedJobs) args.push('--simulated-jobs');
  // Tests want provisioning to move along quickly; the demo keeps the engine's own (human) pace.
  if (opts.quick !== false) args.push('--pending-ms', '200', '--processing-ms', '600');
  const child = spawnGroup('engine', process.execPath, args, {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the engine did not print its ready line within 15 s:\n${output}`)),
      15_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the engine exited (${code}) before it was ready:\n${output}`));
    });
  });
  // Keep draining its output so it never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url,
    token,
    readonlyToken,
    dataDir,
    async get(apiPath: string) {
      const response = await fetch(url + apiPath, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`engine GET ${apiPath}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    stop: () => killGroup(child.pid!),
  };
}
