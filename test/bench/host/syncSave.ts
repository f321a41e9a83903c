// One saved file in the folder-sync bench (./syncBench.ts says what is measured), and the plain rsync both
// sides of the folder-sync rows are compared with: `rsync -az` over the extension's own ssh words.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { RealCluster } from '../../integration/realCluster';
import { until } from '../../shared/wait';
import type { Injection } from '../inject';
import { textOfSize, type SpawnSpy, type TestTree } from './syncProbe';

const SAVES = 5;

export interface SaveSample {
  delayMs: number;
  totalMs: number[];
  extensionMs: number[];
  rsyncMs: number[];
  fileBytes: number;
  /** From the save to the extension's rsync starting (the debounce and what comes before it). */
  toSpawnMs: number[];
  /** TextDocument.save() itself (VS Code's write), before totalMs. */
  saveCallMs: number[];
}

/**
 * The extension's `-e` words for the plain rsync, without its shared connection (the sync's ssh master,
 * `-S <socket> -o ControlMaster=no`): a plain rsync pays its own ssh handshake, as a user's does.
 */
export function ownConnection(rsh: string): string {
  return rsh.replace(/ -S (?:'[^']*'|\S+) -o ControlMaster=no/, ' -o ControlMaster=no -o ControlPath=none');
}

/** A plain `rsync -az -e <the extension's ssh words> ...args` in `cwd`, spawn to exit (ms). */
export function rsyncArgs(rsh: string, args: string[], cwd: string, spy: SpawnSpy): Promise<number> {
  const t0 = performance.now();
  const child = spy.spawn('rsync', ['-az', '-e', rsh, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(performance.now() - t0)
        : reject(new Error(`plain rsync ${args.join(' ')} exited ${code}: ${err.slice(-400)}`)),
    );
  });
}

export async function saves(
  c: RealCluster,
  tree: TestTree,
  spy: SpawnSpy,
  inject: ReadonlySet<Injection>,
  remote: { rsh: string; login: string; ext: string; plain: string },
): Promise<SaveSample> {
  const size = fs.statSync(path.join(tree.root, tree.saved)).size;
  const delayMs = vscode.workspace.getConfiguration('tensorpool').get<number>('sync.delayMs') ?? 500;
  const onNode = path.join(c.nodeDir, 'home', remote.ext, tree.saved);
  // The plain side's file: the same size and change, outside the watched folder.
  const scratch = path.join(path.dirname(tree.root), 'sync-bench-one');
  fs.mkdirSync(path.join(scratch, path.dirname(tree.saved)), { recursive: true });
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(tree.root, tree.saved)));
  const totalMs: number[] = [];
  const rsyncMs: number[] = [];
  const toSpawnMs: number[] = [];
  const saveCallMs: number[] = [];
  spy.rewrite = (s) =>
    inject.has('sync-save-walk') && s.cwd === tree.root && s.args.includes('--files-from=-')
      ? {
          ...s,
          // A walk of the whole tree, over an ssh connection of its own (not the sync's shared one).
          args: s.args
            .filter((a) => !['--from0', '--files-from=-', '--ignore-missing-args'].includes(a))
            .map((a, n, all) => (all[n - 1] === '-e' ? ownConnection(a) : a)),
        }
      : s;
  try {
    for (let i = 1; i <= SAVES; i++) {
      const text = textOfSize(size, i);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the edit was not applied');
      const called = performance.now();
      if (!(await doc.save())) throw new Error('the save failed');
      // From here: the file is written (VS Code's own save, before it, is beside the row, not in it).
      const t0 = performance.now();
      saveCallMs.push(t0 - called);
      await until(
        `save ${i} on the node`,
        () => {
          try {
            return fs.readFileSync(onNode, 'utf8') === text;
          } catch {
            return false;
          }
        },
        30_000,
        2,
      );
      totalMs.push(performance.now() - t0);
      const batch = spy.started.find((x) => x.at >= called && x.cwd === tree.root);
      toSpawnMs.push(batch ? batch.at - t0 : NaN);
      fs.writeFileSync(path.join(scratch, tree.saved), text);
      rsyncMs.push(
        // -I: sent even when the copy there has the same size and second (a save in the second of the last).
        await rsyncArgs(
          remote.rsh,
          ['-I', '-R', tree.saved, `${remote.login}:./${remote.plain}/`],
          scratch,
          spy,
        ),
      );
      const plainText = fs.readFileSync(path.join(c.nodeDir, 'home', remote.plain, tree.saved), 'utf8');
      if (plainText !== text) throw new Error('the plain rsync did not bring the new content');
    }
  } finally {
    spy.rewrite = undefined;
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return {
    delayMs,
    totalMs,
    extensionMs: totalMs.map((v) => v - delayMs),
    rsyncMs,
    fileBytes: size,
    toSpawnMs,
    saveCallMs,
  };
}
