// The UI suite's VS Code versions side by side: each version's flows (then its pseudo-localised window) run in
// a Node process of its own (`runUi.js --vscode <version>` with TENSORPOOL_UI_PART set), at the same time, so
// the suite takes about as long as its slowest version. A process of its own keeps the flows' module state
// apart (a flow file's variables carry from one of its tests to the next). Each part's output is printed
// whole when it ends, one part after the other; its counts and flaky flows come back in a file.
// TENSORPOOL_UI_SERIAL=1 runs the versions one after the other in this process instead.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnGroup } from './processes';
import type { PseudoBundles } from './pseudoLocale';
import type { SuiteContext } from './suite';
import type { Target } from './targets';
import { REPO, log } from './util';

/** What a part reports back (the file named by TENSORPOOL_UI_PART). */
interface PartResult {
  passed: number;
  failed: number;
  flaky: string[];
}

/** The part this process runs, when it is one: where it writes its result and reads the pseudo bundles. */
export function partOfSuite(): { result: string; pseudo: string | undefined } | undefined {
  const result = process.env.TENSORPOOL_UI_PART;
  if (!result) return undefined;
  return { result, pseudo: process.env.TENSORPOOL_UI_PSEUDO || undefined };
}

export function writePartResult(file: string, ctx: SuiteContext): void {
  const r: PartResult = { passed: ctx.tally.passed, failed: ctx.tally.failed, flaky: ctx.flaky };
  fs.writeFileSync(file, JSON.stringify(r));
}

export function readPseudo(file: string): PseudoBundles {
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    manifest: [string, string][];
    runtime: [string, string][];
    files: PseudoBundles['files'];
  };
  return { manifest: new Map(j.manifest), runtime: new Map(j.runtime), files: j.files };
}

/** Run each target's part in a process of its own, all at once; their counts go into `ctx`. */
export async function runParts(
  targets: readonly Target[],
  ctx: SuiteContext,
  scratch: string,
  pseudo: PseudoBundles | undefined,
): Promise<void> {
  fs.mkdirSync(scratch, { recursive: true });
  let pseudoFile = '';
  if (pseudo) {
    pseudoFile = path.join(scratch, 'pseudo-bundles.json');
    const json = { manifest: [...pseudo.manifest], runtime: [...pseudo.runtime], files: pseudo.files };
    fs.writeFileSync(pseudoFile, JSON.stringify(json));
  }
  log(
    `UI tests on ${targets.map((t) => `VS Code ${t.name}`).join(' and ')} side by side (each printed when it ends)`,
  );
  await Promise.all(
    targets.map(async (t) => {
      const resultFile = path.join(scratch, `part-${t.name}.json`);
      const { code, output } = await runPart(t, resultFile, pseudoFile);
      process.stdout.write(output);
      let r: PartResult | undefined;
      try {
        r = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as PartResult;
      } catch {
        r = undefined;
      }
      if (!r) {
        ctx.tally.failed++;
        log(`VS Code ${t.name}: the part ended (exit ${code}) without its result`);
        return;
      }
      ctx.tally.passed += r.passed;
      // A part that failed after its flows (e.g. a process of it left behind) counts as a failure too.
      ctx.tally.failed += r.failed + (code !== 0 && r.failed === 0 ? 1 : 0);
      ctx.flaky.push(...r.flaky);
      log(`VS Code ${t.name}: part ended (exit ${code})`);
    }),
  );
}

function runPart(
  t: Target,
  resultFile: string,
  pseudoFile: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    // A process group of its own, ended with this suite if it is stopped (the part then stops what it started).
    const script = path.join(REPO, 'out', 'test', 'harness', 'runUi.js');
    const child = spawnGroup(`UI part ${t.name}`, process.execPath, [script, '--vscode', t.name], {
      cwd: REPO,
      env: { ...process.env, TENSORPOOL_UI_PART: resultFile, TENSORPOOL_UI_PSEUDO: pseudoFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => chunks.push(d));
    child.stderr?.on('data', (d: Buffer) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}
