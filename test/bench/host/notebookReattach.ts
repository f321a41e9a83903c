// The reattach pairs of the notebooks' bench step (./notebookBench.ts, which says what they compare): every
// connection and tunnel of the extension dropped, then the notebook's kernel session opened again, beside
// `ssh node true` with the extension's own ssh words plus one GET /api/kernels through a new tunnel of its own
// tunnel words, in the plain client's process; the extension's first (its ssh words are read from its spawns).
// Injected (`notebook-reattach-sleep`): a sleep of the last baseline's time before the extension's ssh probe.
import { performance } from 'node:perf_hooks';
import type * as vscode from 'vscode';
import type { NotebookSample } from './notebookBench';
import { connected, type Notebooks, type PlainClient } from './notebookProbe';
import type { SpawnSpy } from './syncProbe';

export async function reattachPairs(o: {
  notebooks: Notebooks;
  nb: vscode.NotebookDocument;
  entry: NonNullable<ReturnType<Notebooks['controllers']['byNode']>>;
  client: PlainClient;
  spy: SpawnSpy;
  kernelId: string;
  sleepInjected: boolean;
  pairs: number;
}): Promise<NotebookSample['reattach']> {
  const reattach: NotebookSample['reattach'] = { extensionMs: [], baselineMs: [], parts: [] };
  let words: { ssh: string[]; tunnel: string[] } | undefined;
  let sleepS = 0.5;
  o.spy.rewrite = (s) =>
    o.sleepInjected && s.file === 'ssh' && s.args.at(-1)?.includes('server.pid')
      ? {
          ...s,
          file: '/bin/sh',
          args: ['-c', `sleep ${sleepS.toFixed(3)}; exec "$0" "$@"`, 'ssh', ...s.args],
        }
      : s;
  const ext = async () => {
    await o.notebooks.dropConnections();
    const from = o.spy.started.length;
    const t0 = performance.now();
    const s = await o.notebooks.session(o.nb, o.entry);
    await connected(s.kernel);
    reattach.extensionMs.push(performance.now() - t0);
    if (!s.reattached || s.kernel.id !== o.kernelId)
      throw new Error(`not reattached to kernel ${o.kernelId}: ${s.kernel.id} (reattached ${s.reattached})`);
    const own = o.spy.started.slice(from);
    const probe = own.find((x) => x.file === 'ssh' && x.args.at(-1)?.includes('server.pid'));
    const tunnel = own.find((x) => x.file === 'ssh' && x.args.includes('-N') && x.args.includes('-L'));
    if (!probe || !tunnel) throw new Error("the extension's probe and tunnel were not seen");
    words ??= {
      ssh: ['ssh', ...probe.args.slice(0, -1), 'true'],
      tunnel: ['ssh', ...tunnel.args],
    };
  };
  const plain = async () => {
    const r = await o.client.ask<{
      ms: number;
      sshMs: number;
      tunnelMs: number;
      getMs: number;
      kernels: number;
    }>({ op: 'reattachBaseline', ...words });
    if (r.kernels < 1) throw new Error('GET /api/kernels listed no kernel');
    reattach.baselineMs.push(r.ms);
    reattach.parts.push({ sshMs: r.sshMs, tunnelMs: r.tunnelMs, getMs: r.getMs });
    sleepS = r.ms / 1000;
  };
  // The extension's first (its ssh words are read from its spawns).
  for (let i = 0; i < o.pairs; i++) {
    if (i % 2 === 0) await ext().then(plain);
    else await plain().then(ext);
  }
  return reattach;
}
