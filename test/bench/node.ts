// Measurements in a fresh Node process, one per invocation (the runner starts this file many times, with
// this machine's Node and with the Node that VS Code 1.139's extension host runs on):
//
//   node out/test/bench/node.js load-extension <dist/extension.js>
//       require() of the activation bundle in an empty module cache: read + compile + evaluate. The
//       `vscode` module is an empty stand-in (in the extension host it is an object VS Code already has).
//   node out/test/bench/node.js first-use <dist/api.js> <engine url> <token>
//       the first use of the API layer: require(dist/api.js) + a client + its first GET /me, minus what a
//       warm GET /me costs (so the extra of first use: loading undici and zod/mini, their first-call setup).
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
  // What the bundle touches while it loads (a module-level constant); everything else is only used by
  // activate() and later, which this probe does not call.
  stub.exports = { Uri: { parse: (value: string) => ({ toString: () => value }) } };
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
