// The fresh-Node rows (./node.ts and ./followLog.ts probes), per Node runtime: this machine's Node and the Node
// VS Code 1.139's extension host runs on. A runtime whose gating rows break is measured once more (Table.measure).
import * as path from 'node:path';
import { startEngine } from '../../engine/server';
import { installedPaths } from '../harness/install';
import type { Target } from '../harness/targets';
import { REPO, timed } from '../harness/util';
import { BUDGET } from './budgets';
import type { FollowLogSample } from './followLog';
import { followLogRows } from './jobLogRows';
import { layerRows } from './layerRows';
import { probe } from './processes';
import type { References } from './reference';
import { median, summarize } from './stats';
import type { Table } from './table';

const API_RATIO_ROW = "API layer first use / a plain client's (same libraries, same request)";
const FRESH_PROCESSES = 15;
const OVERHEAD_PAIRS = 500;
const OVERHEAD_ATTEMPTS = 3;
const FOLLOW_PROBE = path.join(REPO, 'out', 'test', 'bench', 'followLog.js');
/** Pairs of 100,000-line jobs the follower-alone row follows per Node runtime (env TENSORPOOL_BENCH_FOLLOW_PAIRS). */
const FOLLOW_PAIRS = Math.max(1, Number(process.env.TENSORPOOL_BENCH_FOLLOW_PAIRS ?? 20));

interface FirstUse {
  loadMs: number;
  firstMs: number;
  warmMs: number;
  extraMs: number;
}

interface NodeRuntime {
  label: string;
  bin: string;
}

function nodeRuntimes(targets: Target[]): NodeRuntime[] {
  const list: NodeRuntime[] = [{ label: `Node ${process.version}`, bin: process.execPath }];
  for (const t of targets) {
    const nodeBin = installedPaths(t).nodeBin;
    if (t.node && nodeBin && !list.some((n) => n.label === `Node v${t.node}`))
      list.push({ label: `Node v${t.node}`, bin: path.join(nodeBin, 'node') });
  }
  return list;
}

export async function nodeBenchmarks(
  table: Table,
  raw: Record<string, unknown>,
  targets: Target[],
  refs: References | undefined,
): Promise<void> {
  const extension = path.join(REPO, 'dist', 'extension.js');
  const api = path.join(REPO, 'dist', 'api.js');
  const token = 'tp_bench_token_0123456789abcdef';
  const engine = await startEngine({ host: '127.0.0.1', port: 0, quiet: true, tokens: [token] });
  const results: Record<string, unknown> = {};
  raw.node = results;
  try {
    for (const node of nodeRuntimes(targets))
      await table.measure(() => runtimeRows(node, `fresh ${node.label}`));
  } finally {
    await engine.close();
  }

  async function runtimeRows(node: NodeRuntime, where: string): Promise<void> {
    try {
      const loads: number[] = [];
      const firstUse: FirstUse[] = [];
      const reference: FirstUse[] = [];
      for (let i = 0; i < FRESH_PROCESSES; i++) {
        loads.push((await probe<{ ms: number }>(node.bin, ['load-extension', extension])).ms);
        firstUse.push(await probe(node.bin, ['first-use', api, engine.url, token]));
        if (refs)
          reference.push(await probe(node.bin, ['first-use-reference', refs.apiBundle, engine.url, token]));
      }
      results[node.label] = { loads, firstUse, reference };
      table.add('require(dist/extension.js)', where, 'ms', loads, undefined, {
        limitText: '(part of activation)',
      });
      table.add(
        'API layer first use: extra over a warm call',
        where,
        'ms',
        firstUse.map((f) => f.extraMs),
        BUDGET.apiFirstUseMs,
        {
          note: `require(dist/api.js) + client: median ${median(firstUse.map((f) => f.loadMs)).toFixed(1)} ms; first GET /me ${median(firstUse.map((f) => f.firstMs)).toFixed(1)} ms, warm ${median(firstUse.map((f) => f.warmMs)).toFixed(2)} ms`,
        },
      );
      if (!refs) table.missing(API_RATIO_ROW, where, 'the reference client could not be built');
      else
        table.add(
          API_RATIO_ROW,
          where,
          'x',
          firstUse.map((f, i) => f.extraMs / reference[i].extraMs),
          BUDGET.apiFirstUseRatio,
          {
            note: `per pair of fresh processes (ours, then the reference, ${FRESH_PROCESSES} pairs); the reference (undici's request + a zod/mini schema, bundled the same way): extra ${median(reference.map((f) => f.extraMs)).toFixed(1)} ms, of which require ${median(reference.map((f) => f.loadMs)).toFixed(1)} ms`,
          },
        );
    } catch (err) {
      table.missing(
        'require(dist/extension.js) / API first use',
        where,
        String((err as Error).message ?? err),
      );
    }
    try {
      results[`${node.label} layers`] = await layerRows(table, where, (args) => probe(node.bin, args), {
        api,
        jobFiles: path.join(REPO, 'dist', 'jobFiles.js'),
        url: engine.url,
        token,
      });
    } catch (err) {
      table.missing('Jobs / volumes first use', where, String((err as Error).message ?? err));
    }
    try {
      const attempts: Array<{ ratio: number; client: number; bare: number; blocks: number[] }> = [];
      for (let a = 0; a < OVERHEAD_ATTEMPTS; a++) {
        const { clientMs, bareMs } = await probe<{ clientMs: number[]; bareMs: number[] }>(node.bin, [
          'overhead',
          api,
          engine.url,
          token,
          String(OVERHEAD_PAIRS),
        ]);
        const blocks: number[] = [];
        const size = Math.floor(clientMs.length / 10);
        for (let b = 0; b < 10; b++)
          blocks.push(
            median(clientMs.slice(b * size, (b + 1) * size)) / median(bareMs.slice(b * size, (b + 1) * size)),
          );
        attempts.push({
          ratio: median(clientMs) / median(bareMs),
          client: median(clientMs),
          bare: median(bareMs),
          blocks,
        });
        if (attempts[a].ratio <= BUDGET.overheadRatio) break;
      }
      const last = attempts[attempts.length - 1];
      results[`${node.label} overhead`] = attempts;
      const s = summarize(last.blocks);
      table.rows.push({
        budget: 'Client overhead: client.me() / bare undici GET /me',
        where: `${node.label}, loopback`,
        unit: 'x',
        median: last.ratio,
        min: s.min,
        max: s.max,
        n: OVERHEAD_PAIRS,
        limit: `<= ${BUDGET.overheadRatio}x`,
        verdict: last.ratio <= BUDGET.overheadRatio ? 'met' : 'BROKEN',
        kind: 'ratio',
        note: `medians ${last.client.toFixed(3)} ms vs ${last.bare.toFixed(3)} ms over ${OVERHEAD_PAIRS} interleaved pairs (min/max: ratio per block of ${OVERHEAD_PAIRS / 10})${
          attempts.length > 1
            ? `; attempt ${attempts.length} of ${OVERHEAD_ATTEMPTS}, earlier: ${attempts
                .slice(0, -1)
                .map((x) => `${x.ratio.toFixed(2)}x`)
                .join(', ')}`
            : ''
        }`,
      });
    } catch (err) {
      table.missing('Client overhead', node.label, String((err as Error).message ?? err));
    }
    let follow: FollowLogSample | undefined;
    let why: string | undefined;
    try {
      follow = await timed(`${node.label}: ${FOLLOW_PAIRS} pairs of jobs followed, extraction on / off`, () =>
        probe<FollowLogSample>(
          node.bin,
          [api, path.join(REPO, 'dist', 'engine.js'), String(FOLLOW_PAIRS)],
          FOLLOW_PROBE,
        ),
      );
      results[`${node.label} follow`] = follow;
    } catch (err) {
      why = String((err as Error).message ?? err);
    }
    followLogRows(table, where, follow, why);
  }
}
