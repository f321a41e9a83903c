// The reliability and security suite (`npm run test:reliability`).
//
//   Node part: mocha in this process against the in-process engine, tinyproxy and an HTTPS server
//     node/faults.test.ts     every fault kind at the API client (retries, error kinds, one create)
//     node/operationFaults.test.ts  the job WebSockets, job REST and downloads, volumes, health under faults
//     node/files.test.ts      hostile output paths in a pull, downloads interrupted mid-body
//     node/badInput.test.ts   the bad-input corpus through the validators, the wizards and the client
//     node/secrets.test.ts    secrets in cut-off answers, 422 field messages, HTML error pages
//     node/network.test.ts    proxyStrictSSL, HTTPS_PROXY/NO_PROXY, TLS/DNS/refused messages
//     node/proxy.test.ts      http.proxy, noProxy, HTTP_PROXY through tinyproxy (counted as network checks)
//     node/configs.test.ts    120 generated ssh/AWS/rclone configs round-tripped on disk
//     node/s3Faults.test.ts   object-storage faults through a relay in front of the engine's S3 server
//   Host part: host/*.test.ts in the real extension host of VS Code 1.100 (code-server), against a
//     fresh local engine: fault kinds around the real extension, duplicate creates through the
//     wizard, the sign-in box, proxy settings, and a secrets session at log level trace. The files run
//     in two groups, two hosts side by side, each with its own code-server and engine (./hostFiles.ts).
//
// usage: node out/test/reliability/run.js [--vscode 1.100] [--node-only | --host-only] [--files
// faults,unhandled] [--grep <host test title>]
// Prints the table of figures, writes test-results/reliability.json, ends with `N passed, N failed`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { ensureInstalled, ensureSystemPackages } from '../harness/install';
import { runInHost } from '../harness/runIntegration';
import { noteFailure, part, runSuite, type SuiteContext } from '../harness/suite';
import { TARGETS, selectTargets, type Target } from '../harness/targets';
import { REPO, RESULTS, log } from '../harness/util';
import { OTHER_TOKEN, READONLY_TOKEN, TEST_TOKEN } from '../fixtures/engine';
import { credentialsRecord } from '../fixtures/payloads';
import { PROXY_PASSWORD } from '../fixtures/tinyproxy';
import {
  BAD_INPUTS,
  FAULT_KIND_IDS,
  S3_FAULTS,
  faultSubject,
  findSecrets,
  s3FaultSubject,
  type S3Fault,
} from './catalogue';
import { HOST_GROUPS } from './hostFiles';
import { handled, ledger, mergeFigures, type PartFigures } from './ledger';

interface TestResult {
  title: string;
  state: 'passed' | 'failed';
  error?: string;
}

const argv = process.argv.slice(2);
const has = (flag: string) => argv.includes(flag);
const NODE_FILES = [
  'faults',
  'operationFaults',
  'files',
  'badInput',
  'secrets',
  'network',
  'configs',
  'proxy',
  'proxyAuth',
  'systemCerts',
  'inspectingProxy',
  's3Faults',
  's3Proxy',
].map((f) => path.join(__dirname, 'node', `${f}.test.js`));
/** The proxy tests against tinyproxy count among the network checks. */
const PROXY_TESTS = path.join(__dirname, 'node', 'proxy.test.js');

/** Everything this process prints, so the Node part's own secrets can be looked for in the output. */
const printed: string[] = [];
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
  printed.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
};

/** The secrets the Node part handles (its engine's tokens, the fixture storage secret, a network-test token). */
const NODE_SECRETS = [
  { name: 'the Node engine token', value: TEST_TOKEN },
  { name: 'the second Node engine token', value: OTHER_TOKEN },
  { name: 'the read-only Node engine token', value: READONLY_TOKEN },
  { name: 'the fixture secret access key', value: String(credentialsRecord().secret_access_key) },
  { name: 'the network-test token', value: 'tp_network_token_123456' },
  { name: 'the test proxy password', value: PROXY_PASSWORD },
];

function walkTests(suite: Mocha.Suite, visit: (t: Mocha.Test) => void): void {
  for (const t of suite.tests) visit(t);
  for (const s of suite.suites) walkTests(s, visit);
}

async function runNodePart(
  ctx: SuiteContext,
): Promise<{ figures: PartFigures; tests: TestResult[]; ms: number }> {
  const started = Date.now();
  log('--- Node part: API client, validators and wizards, network, config files ---');
  const mocha = new Mocha({ ui: 'bdd', reporter: 'dot', color: false, timeout: 20_000 });
  for (const f of NODE_FILES) mocha.addFile(f);
  await mocha.loadFilesAsync();
  walkTests(mocha.suite, (t) => {
    if (t.file === PROXY_TESTS) ledger.cover(t, `network:${t.title}`);
  });
  const tests: TestResult[] = [];
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (t) => tests.push({ title: t.fullTitle(), state: 'passed' }));
    runner.on('fail', (t, err: Error) =>
      tests.push({ title: t.fullTitle(), state: 'failed', error: String(err?.stack ?? err) }),
    );
  });
  for (const t of tests) if (t.state === 'failed') noteFailure(ctx, 'Node part', t.title, t.error);
  const passed = tests.filter((t) => t.state === 'passed').length;
  const failed = tests.length - passed;
  ctx.tally.passed += passed;
  ctx.tally.failed += failed;
  log(`Node part: ${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { figures: ledger.figures(), tests, ms: Date.now() - started };
}

function hostTargets(): Target[] {
  // One version keeps CI time down; the integration suite covers both.
  return argv.includes('--vscode') || process.env.VSCODE_TARGETS
    ? selectTargets(argv)
    : TARGETS.filter((t) => t.name === '1.100');
}

interface Row {
  check: string;
  result: string;
  ok: boolean;
  detail?: string;
}

/** At most a few names, then how many more. */
function few(ids: readonly string[], n = 8): string {
  return ids.length <= n ? ids.join(', ') : `${ids.slice(0, n).join(', ')} and ${ids.length - n} more`;
}

/** The non-idempotent operations whose duplicates are counted (each must be exercised under faults). */
const MUTATING_OPERATIONS = ['create cluster', 'create volume', 'attach volume', 'push job'];

function table(figures: PartFigures, node: PartFigures, host: PartFigures | undefined): Row[] {
  const kinds = FAULT_KIND_IDS.map(faultSubject);
  const f = handled(figures, kinds);
  const fNode = handled(node, kinds);
  const fHost = host ? handled(host, kinds) : undefined;
  const bad = handled(
    figures,
    BAD_INPUTS.map((b) => b.id),
  );
  const configIds = Object.keys(figures.subjects).filter((s) => s.startsWith('config:'));
  const cfg = handled(figures, configIds);
  const netIds = Object.keys(figures.subjects).filter((s) => s.startsWith('network:'));
  const net = handled(figures, netIds);
  const fileIds = Object.keys(figures.subjects).filter((s) => s.startsWith('file:'));
  const files = handled(figures, fileIds);
  const ops = figures.mutations ?? {};
  const missingOps = MUTATING_OPERATIONS.filter((op) => !(ops[op]?.confirmations > 0));
  const formats = figures.configs
    ? Object.entries(figures.configs.byFormat)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : '';
  const s3 = handled(figures, (Object.keys(S3_FAULTS) as S3Fault[]).map(s3FaultSubject));
  return [
    {
      check: 'Object-storage (S3) faults handled',
      result: `${s3.handled} of ${s3.total}`,
      ok: s3.handled === s3.total && s3.total > 0,
      detail: s3.missing.length ? `not handled: ${few(s3.missing)}` : 'nothing lost or half-written',
    },
    {
      check: 'Fault kinds handled',
      result: `${f.handled} of ${f.total}`,
      ok: f.handled === f.total && f.total >= 40,
      detail: `API client ${fNode.handled}/${fNode.total}; extension host ${fHost ? `${fHost.handled}/${fHost.total}` : 'not run'}${f.missing.length ? `; not handled: ${few(f.missing)}` : ''}`,
    },
    {
      check: 'Bad inputs rejected',
      result: `${bad.handled} of ${bad.total}`,
      ok: bad.handled === bad.total && bad.total >= 120,
      detail: bad.missing.length
        ? `not rejected as expected: ${few(bad.missing)}`
        : 'before any request, with a specific message',
    },
    {
      check: 'Secrets found',
      result: String(figures.secretsFound),
      ok: figures.secretsFound === 0 && figures.placesSearched > 0,
      detail: `${figures.placesSearched} places searched${figures.secretFindings.length ? `: ${figures.secretFindings.slice(0, 5).join('; ')}` : ''}`,
    },
    {
      check: 'Duplicate mutations',
      result: String(figures.duplicateCreates),
      ok: figures.duplicateCreates === 0 && missingOps.length === 0,
      detail: `confirmations under connection faults: ${Object.entries(ops)
        .map(([op, m]) => `${op} ${m.confirmations}${m.duplicates ? ` (${m.duplicates} duplicated)` : ''}`)
        .join(', ')}${missingOps.length ? `; not exercised: ${missingOps.join(', ')}` : ''}`,
    },
    {
      check: 'Pulls kept in their folder',
      result: `${files.handled} of ${files.total}`,
      ok: files.handled === files.total && files.total >= 25,
      detail: files.missing.length
        ? `failed: ${few(files.missing)}`
        : 'hostile paths (.., absolute, drive letters, backslashes, NUL, long, links) and interrupted downloads',
    },
    {
      check: 'Configs round-tripped',
      result: `${cfg.handled} of ${cfg.total}`,
      ok: cfg.handled === cfg.total && cfg.total >= 100,
      detail: cfg.missing.length ? `failed: ${few(cfg.missing)}` : formats,
    },
    {
      check: 'Proxy/network checks',
      result: `${net.handled} of ${net.total}`,
      ok: net.handled === net.total && net.total > 0,
      detail: net.missing.length
        ? `failed: ${few(net.missing, 3)}`
        : 'tinyproxy, self-signed TLS, DNS, refused',
    },
  ];
}

function printTable(rows: Row[]): string {
  const w1 = Math.max(...rows.map((r) => r.check.length), 'Check'.length);
  const w2 = Math.max(...rows.map((r) => r.result.length), 'Result'.length);
  const lines = [
    `| ${'Check'.padEnd(w1)} | ${'Result'.padEnd(w2)} | Notes |`,
    `|${'-'.repeat(w1 + 2)}|${'-'.repeat(w2 + 2)}|-------|`,
    ...rows.map(
      (r) =>
        `| ${r.check.padEnd(w1)} | ${r.result.padEnd(w2)} | ${r.ok ? '' : 'FAILED: '}${r.detail ?? ''} |`,
    ),
  ];
  return lines.join('\n');
}

runSuite('reliability', async (ctx) => {
  const started = Date.now();
  ctx.watchdog.arm(6 * 60_000, 'the reliability suite (Node part)');
  // tinyproxy and openssl (Debian) for the Node part; apt-get when run as root, else a clear message.
  await ensureSystemPackages();
  let node: { figures: PartFigures; tests: TestResult[]; ms: number } = {
    figures: ledger.figures(),
    tests: [],
    ms: 0,
  };
  // The Node part runs beside the extension-host part (its tests mostly wait on sockets, proxies and timeouts;
  // the hosts' on faults and real nodes): both in about the time of the longer.
  const nodePart = has('--host-only') ? undefined : runNodePart(ctx);

  let host: PartFigures | undefined;
  let hostTests: TestResult[] = [];
  let hostMs = 0;
  let vscodeVersion: string | undefined;
  if (!has('--node-only')) {
    const targets = hostTargets();
    ctx.watchdog.arm(15 * 60_000, 'installing');
    await ensureInstalled(targets);
    ctx.watchdog.arm(10 * 60_000, 'the reliability suite (extension host)');
    const filesFlag = argv.indexOf('--files');
    const grepFlag = argv.indexOf('--grep');
    const env: Record<string, string> = {
      ...(filesFlag >= 0 ? { TENSORPOOL_RELIABILITY_FILES: argv[filesFlag + 1] } : {}),
      ...(grepFlag >= 0 ? { TENSORPOOL_RELIABILITY_GREP: argv[grepFlag + 1] } : {}),
    };
    // The host files in groups, one extension host (code-server, engine) each, side by side (./hostFiles.ts);
    // a chosen file or title runs in one host.
    const groups: Array<number | undefined> =
      filesFlag >= 0 || grepFlag >= 0 ? [undefined] : [...Array(HOST_GROUPS).keys()];
    for (const target of targets) {
      const t0 = Date.now();
      await Promise.all(
        groups.map((group) => {
          const which = group === undefined ? '' : ` (group ${group + 1} of ${groups.length})`;
          return part(ctx, `reliability on VS Code ${target.name}${which}`, async (own) => {
            const results = await runInHost(target, ctx, own, {
              testsModule: path.join(__dirname, 'host', 'index.js'),
              label: `reliability${which}`,
              env: {
                ...env,
                ...(group === undefined ? {} : { TENSORPOOL_RELIABILITY_GROUP: String(group) }),
              },
              timeoutMs: 480_000,
            });
            if (!results) throw new Error('the extension host wrote no results');
            host = mergeFigures([host, results.figures as PartFigures]);
            hostTests = hostTests.concat(results.tests);
            vscodeVersion = results.vscode;
          });
        }),
      );
      hostMs += Date.now() - t0;
    }
  }

  if (nodePart) node = await nodePart;
  const figures = mergeFigures([node.figures, host]);
  // The Node part's output (test titles, errors, this table) must not contain its secrets either.
  const outputFindings = findSecrets(printed.join(''), NODE_SECRETS);
  figures.placesSearched++;
  figures.secretsFound += outputFindings.length;
  figures.secretFindings.push(...outputFindings.map((f) => `suite output: ${f}`));

  const rows = table(figures, node.figures, host);
  const text = printTable(rows);
  console.log(
    `\nReliability and security${vscodeVersion ? ` (Node ${process.version}; extension host of VS Code ${vscodeVersion})` : ''}:\n${text}`,
  );
  console.log(
    `Node part ${(node.ms / 1000).toFixed(1)} s, extension host ${(hostMs / 1000).toFixed(1)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  const partial = has('--node-only') || has('--host-only') || has('--files') || has('--grep');
  if (partial) log('a partial run: the figures are not checked');
  else if (rows.every((r) => r.ok)) ctx.tally.passed++;
  else {
    ctx.tally.failed++;
    console.log(
      `figures: FAILED (${rows
        .filter((r) => !r.ok)
        .map((r) => r.check)
        .join(', ')})`,
    );
  }

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    vscode: vscodeVersion ?? null,
    timings: { totalMs: Date.now() - started, nodePartMs: node.ms, hostPartMs: hostMs },
    table: rows,
    figures,
    tests: [
      ...node.tests.map((t) => ({ part: 'node', ...t })),
      ...hostTests.map((t) => ({ part: 'host', ...t })),
    ],
  };
  const json = JSON.stringify(report, null, 2);
  if (findSecrets(json, NODE_SECRETS).length === 0) {
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'reliability.json'), json);
    log(`figures and every test written to ${path.relative(REPO, path.join(RESULTS, 'reliability.json'))}`);
  } else {
    ctx.tally.failed++;
    log('test-results/reliability.json NOT written: it would contain a secret of the Node part');
  }
});
