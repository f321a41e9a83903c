// Measurements in a fresh Node process, one per invocation (the runner starts this file many times, with
// this machine's Node and with the Node that VS Code 1.139's extension host runs on):
//
//   node out/test/bench/node.js load-extension <dist/extension.js>
//       require() of the activation bundle in an empty module cache: read + compile + evaluate. The
//       `vscode` module is an empty stand-in (in the extension host it is an object VS Code already has).
//   node out/test/bench/node.js first-use <dist/api.js> <engine url> <token>
//       the first use of the API layer: require(dist/api.js) + a client + its first GET /me, minus what a
//       warm GET /me costs (so the extra of first use: loading undici and zod/mini, their first-call setup).
//   node out/test/bench/node.js first-use-reference <reference bundle> <engine url> <token>
//       the same for a plain client of the same libraries (./reference.ts): the API layer's baseline.
//   node out/test/bench/node.js first-use-jobs <dist/api.js> <dist/jobFiles.js> <engine url> <token>
//       the jobs layer's first use once the API layer is warm: require(dist/jobFiles.js) (the job-file checker
//       with smol-toml, against the `vscode` stand-in) plus the first job WebSocket (undici's whole index with
//       its WebSocket, the handshake, the token message; a listen to a job the engine does not know, which it
//       closes with 4404), minus what a warm listen costs.
//   node out/test/bench/node.js first-use-volumes <dist/api.js> <engine url> <token>
//       the volumes layer's first use once the API layer is warm (GET /me answered): the first GET
//       /storage/list (its schemas built, the answer read), minus a warm one.
//   node out/test/bench/node.js overhead <dist/api.js> <engine url> <token> <pairs>
//       client.me() against a bare undici.request() with the same headers to the same route, interleaved.
//
// Each prints one JSON line on stdout.
import Module from 'node:module';
import { performance } from 'node:perf_hooks';

type ApiModule = typeof import('../../src/api'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- a type of a require()d bundle

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function stubVscode(): void {
  const id = '/__bench__/vscode.js';
  const internals = Module as unknown as {
    _resolveFilename(request: string, ...rest: unknown[]): string;
    _cache: Record<string, unknown>;
  };
  const resolve = internals._resolveFilename;
  internals._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? id : resolve.call(this, request, ...rest);
  };
  const stub = new Module(id);
  stub.filename = id;
  stub.loaded = true;
  // What the bundles touch while they load (module-level constants); everything else is only used by
  // activate() and later, which this probe does not call.
  class Range {
    constructor(
      readonly startLine: number,
      readonly startCharacter: number,
      readonly endLine: number,
      readonly endCharacter: number,
    ) {}
  }
  stub.exports = { Uri: { parse: (value: string) => ({ toString: () => value }) }, Range };
  internals._cache[id] = stub;
}

function clientFor(api: ApiModule, url: string, token: string) {
  const secrets = new api.SecretRegistry();
  // What the extension's log sink does with every line (redaction happens in the transport).
  const tail: string[] = [];
  return new api.TensorPoolClient({
    baseUrl: url,
    getToken: () => token,
    userAgent: 'tensorpool-vscode/bench (VS Code bench; linux)',
    secrets,
    log: (level, message) => {
      tail.push(`[${level}] ${message}`);
      if (tail.length > 500) tail.shift();
    },
    // The extension passes its output channel's level; Info is VS Code's default.
    logLevel: () => 'info',
  });
}

/** A client whose connection and first-call setup are warm (GET /me answered several times). */
async function warmClient(api: ApiModule, url: string, token: string) {
  const client = clientFor(api, url, token);
  for (let i = 0; i < 5; i++) await client.me();
  return client;
}

/** The median of five timed calls. */
async function warmMedian(fn: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push(await fn());
  return times.sort((a, b) => a - b)[2];
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === 'load-extension') {
    stubVscode();
    const started = performance.now();
    const ext = require(args[0]) as { activate?: unknown };
    const ms = performance.now() - started;
    if (typeof ext.activate !== 'function') throw new Error(`${args[0]} exports no activate()`);
    print({ ms });
    return;
  }
  if (mode === 'first-use') {
    const [bundle, url, token] = args;
    const started = performance.now();
    const api = require(bundle) as ApiModule;
    const client = clientFor(api, url, token);
    const loadMs = performance.now() - started;
    await client.me();
    const firstMs = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await client.me();
      warm.push(performance.now() - t);
    }
    warm.sort((a, b) => a - b);
    const warmMs = warm[2];
    print({ loadMs, firstMs, warmMs, extraMs: firstMs - warmMs });
    return;
  }
  if (mode === 'first-use-reference') {
    // The baseline of the API layer's first use (./reference.ts): a plain client of the same libraries.
    const [bundle, url, token] = args;
    const started = performance.now();
    const ref = require(bundle) as {
      request: typeof import('undici').request; // eslint-disable-line @typescript-eslint/consistent-type-imports -- a type of a require()d bundle
      parseMe(body: unknown): unknown;
    };
    const loadMs = performance.now() - started;
    const me = async () => {
      const res = await ref.request(`${url}/me`, { headers: { authorization: `Bearer ${token}` } });
      ref.parseMe(await res.body.json());
    };
    await me();
    const firstMs = performance.now() - started;
    const warmMs = await warmMedian(async () => {
      const t = performance.now();
      await me();
      return performance.now() - t;
    });
    print({ loadMs, firstMs, warmMs, extraMs: firstMs - warmMs });
    return;
  }
  if (mode === 'first-use-jobs') {
    const [bundle, jobFiles, url, token] = args;
    stubVscode();
    const client = await warmClient(require(bundle) as ApiModule, url, token);
    const started = performance.now();
    require(jobFiles);
    const tomlMs = performance.now() - started;
    const listen = async () => {
      const t = performance.now();
      const outcome = await client.jobs.listen('job_bench_unknown', { onMessage: () => undefined });
      return { ms: performance.now() - t, outcome: JSON.stringify(outcome).slice(0, 200) };
    };
    const first = await listen();
    const warm = await warmMedian(async () => (await listen()).ms);
    print({
      tomlMs,
      wsFirstMs: first.ms,
      wsWarmMs: warm,
      wsExtraMs: first.ms - warm,
      outcome: first.outcome,
    });
    return;
  }
  if (mode === 'first-use-volumes') {
    const [bundle, url, token] = args;
    const client = await warmClient(require(bundle) as ApiModule, url, token);
    const list = async () => {
      const t = performance.now();
      await client.volumes.listVolumes();
      return performance.now() - t;
    };
    const firstMs = await list();
    const warmMs = await warmMedian(list);
    print({ firstMs, warmMs, extraMs: firstMs - warmMs });
    return;
  }
  if (mode === 'overhead') {
    const [bundle, url, token, pairsText] = args;
    const pairs = Number(pairsText);
    const api = require(bundle) as ApiModule;
    // eslint-disable-next-line @typescript-eslint/consistent-type-imports -- required, not imported, on purpose
    const undici = require('undici') as typeof import('undici');
    const client = clientFor(api, url, token);
    const headers = {
      accept: 'application/json',
      'user-agent': 'tensorpool-vscode/bench (VS Code bench; linux)',
      authorization: `Bearer ${token}`,
    };
    const bare = async () => {
      const res = await undici.request(`${url}/me`, { method: 'GET', headers });
      if (res.statusCode !== 200) throw new Error(`bare GET /me: ${res.statusCode}`);
      return res.body.json();
    };
    const viaClient = () => client.me();
    for (let i = 0; i < 50; i++) {
      await viaClient();
      await bare();
    }
    const clientMs: number[] = [];
    const bareMs: number[] = [];
    const time = async (fn: () => Promise<unknown>, into: number[]) => {
      const t = performance.now();
      await fn();
      into.push(performance.now() - t);
    };
    for (let i = 0; i < pairs; i++) {
      // Alternate which goes first, so neither always gets the warmer connection or the quieter moment.
      if (i % 2) {
        await time(viaClient, clientMs);
        await time(bare, bareMs);
      } else {
        await time(bare, bareMs);
        await time(viaClient, clientMs);
      }
    }
    print({ clientMs, bareMs });
    return;
  }
  throw new Error(`unknown mode ${mode}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error)?.stack ?? err}\n`);
    process.exit(1);
  },
);
