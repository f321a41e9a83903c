// The baselines of the bench's ratio rows, built at the start of a run with the project's own esbuild (minified,
// as dist/ is for production), so that each carries the same noise as what it is compared with:
//
//   reference API client (bench-reference-api.js): undici's request (the same undici files the API layer
//     loads, set up the same way) and a zod/mini schema for the /me answer, bundled and minified as
//     dist/api.js is. In the same fresh Node processes as the API
//     layer's first use (./node.ts first-use-reference, interleaved with first-use), it does the same first
//     GET /me against the same engine. The ratio is what our client adds over a plain client of the same
//     libraries: code we write (schemas, redaction, errors, logging) or a dependency we add moves it; the
//     machine's load moves both sides.
//   reference extension (bench-reference.vsix): a plain extension installed beside ours in the same
//     code-server, activated by VS Code at the same moment (onStartupFinished) in the same launches. Its
//     bundle is about the size of our activation bundle and of the same nature (three small libraries:
//     smol-toml, semver, js-yaml, about 90 KB minified), and its activate() does what an extension's usually
//     does (parses a little configuration, registers 40 commands, an output channel, a status bar item).
//     VS Code's own marks time both (load + activate()), so the ratio is our activation in units of an
//     ordinary extension's, in the same launch.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { REPO } from '../harness/util';

// The same undici files the API layer loads (src/api/undici.ts), set up the same way, and zod/mini.
const API_ENTRY = `
import * as z from 'zod/mini';
const api = require('undici/lib/api/index.js');
Object.assign(require('undici/lib/dispatcher/dispatcher.js').prototype, api);
const { parseURL } = require('undici/lib/core/util.js');
const { getGlobalDispatcher } = require('undici/lib/global.js');
export function request(url, opts) {
  const parsed = parseURL(url);
  return api.request.call(getGlobalDispatcher(), { ...opts, origin: parsed.origin, path: parsed.pathname, method: 'GET' });
}
const me = z.looseObject({ id: z.optional(z.string()), email: z.optional(z.string()), name: z.optional(z.nullable(z.string())) });
export const parseMe = (body) => me.parse(body);
`;

const EXTENSION_ENTRY = `
const toml = require('smol-toml');
const semver = require('semver');
const yaml = require('js-yaml');
const vscode = require('vscode');
exports.activate = (context) => {
  const config = toml.parse('[cluster]\\nname = "reference"\\nnodes = 2\\n');
  const more = yaml.load('refresh: 10\\nsections: [a, b, c]\\n');
  const ok = semver.satisfies(vscode.version.replace(/-.*/, ''), '>=1.100.0');
  for (let i = 0; i < 40; i++)
    context.subscriptions.push(
      vscode.commands.registerCommand('benchReference.command' + i, () => [config, more, ok, i]),
    );
  context.subscriptions.push(vscode.window.createOutputChannel('Bench reference', { log: true }));
  const item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  item.text = 'reference';
  context.subscriptions.push(item);
};
exports.deactivate = () => undefined;
`;

const MANIFEST = {
  name: 'bench-reference',
  displayName: 'Bench reference',
  description: 'The baseline of the TensorPool bench activation ratio.',
  publisher: 'tensorpool-bench',
  version: '0.0.1',
  license: 'MIT',
  engines: { vscode: '^1.100.0' },
  main: './extension.js',
  activationEvents: ['onStartupFinished'],
  repository: { type: 'git', url: 'https://example.invalid/bench-reference.git' },
};

async function bundle(contents: string, outfile: string): Promise<void> {
  await build({
    stdin: { contents, resolveDir: REPO, loader: 'js' },
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outfile,
    logLevel: 'error',
  });
}

function vscePackage(folder: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const vsce = path.join(REPO, 'node_modules', '.bin', 'vsce');
    const child = spawn(vsce, ['package', '--no-dependencies', '--skip-license', '-o', out], {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`vsce package (reference extension) exited ${code}: ${output}`)),
    );
  });
}

export interface References {
  /** dist-like bundle exporting { request, parseMe }. */
  apiBundle: string;
  /** The reference extension, packaged. */
  extensionVsix: string;
  /** Its bundle's size (KB), for the row's note. */
  extensionKB: number;
}

export async function buildReferences(dir: string): Promise<References> {
  fs.mkdirSync(dir, { recursive: true });
  const apiBundle = path.join(dir, 'bench-reference-api.js');
  await bundle(API_ENTRY, apiBundle);
  const folder = path.join(dir, 'bench-reference');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(MANIFEST, null, 2));
  fs.writeFileSync(path.join(folder, 'README.md'), '# Bench reference\n\nThe baseline of a bench row.\n');
  await bundle(EXTENSION_ENTRY, path.join(folder, 'extension.js'));
  const extensionVsix = path.join(dir, 'bench-reference.vsix');
  await vscePackage(folder, extensionVsix);
  return {
    apiBundle,
    extensionVsix,
    extensionKB: fs.statSync(path.join(folder, 'extension.js')).size / 1024,
  };
}
