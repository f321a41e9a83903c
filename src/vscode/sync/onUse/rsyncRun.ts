/**
 * One rsync of a folder sync: spawned without a shell in the synced folder, in a process group of its own
 * (ended with its ssh on cancel, stop and the window's end), the paths it works on written to its stdin
 * (NUL-separated), its output (the names it sent, its progress) written to a file of ours (rsyncOutput.ts:
 * rsync never waits on a reader, and the host is not woken for each line) that is read once a second for
 * the progress and in full when it ends; its errors kept bounded.
 */
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { childEnv } from '../../../model/childEnv';
import { missingProgramMessage } from '../../../model/sshFailure';
import {
  RsyncOutputReader,
  rsyncFailure,
  rsyncSucceeded,
  vanishedFiles,
  type SyncProgress,
} from '../../../model/syncPlan';
import { parseItem, type RsyncItem } from '../../../model/syncState';
import { endGroup } from '../../shared/onUse/commandProcess';
import { RsyncOutputFile } from './rsyncOutput';

/** What rsync did: the files it printed (ITEM_FORMAT), and the files that vanished while it sent (exit 24). */
export type RsyncResult =
  | { readonly ok: true; readonly items: readonly RsyncItem[]; readonly vanished?: readonly string[] }
  | { readonly ok: false; readonly why: string; readonly items: readonly RsyncItem[] };

const MAX_STDERR = 64 * 1024;
/** How often rsync's output is read while it runs, and so the least time between two progress reports: each
 *  redraws the notification and the status bar in the window, about 30 to 40 ms of its CPU on the 2-core
 *  test machine; every 250 ms that was a fifth of a core taken from the rsync beside it (the bench's first
 *  sync). */
const PROGRESS_MS = 1000;

export function runRsync(
  argv: readonly string[],
  cwd: string,
  opts: {
    input?: string;
    signal: AbortSignal;
    /** The environment rsync and its ssh get (less any credential: childEnv). */
    env: Readonly<Record<string, string | undefined>>;
    progress?: (p: SyncProgress) => void;
  },
): Promise<RsyncResult> {
  return new Promise((resolve) => {
    const items: RsyncItem[] = [];
    let stderr = '';
    let output: RsyncOutputFile;
    try {
      output = RsyncOutputFile.open();
    } catch (e) {
      const why = vscode.l10n.t("no file for rsync's output could be made: {0}", (e as Error).message);
      return resolve({ ok: false, why, items });
    }
    let progress: SyncProgress | undefined;
    const reader = new RsyncOutputReader(
      (line) => {
        const item = parseItem(line);
        if (item) items.push(item);
      },
      (p) => (progress = p),
    );
    const readNew = () => {
      reader.push(output.read());
      // The newest figures, at most once per read (the status bar and the notification are messages to the
      // workbench: one per file of a first sync would cost more than the rsync).
      if (progress) opts.progress?.(progress);
      progress = undefined;
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0], argv.slice(1), {
        cwd,
        // Times in rsync's output (%M) in UTC, whatever this computer's time zone (syncState.ts reads them).
        env: { ...childEnv(opts.env, process.platform), TZ: 'UTC' },
        detached: process.platform !== 'win32',
        shell: false,
        stdio: ['pipe', output.fd, 'pipe'],
        windowsHide: true,
      });
    } catch (e) {
      output.close();
      return resolve({ ok: false, why: (e as Error).message, items });
    }
    const timer = setInterval(readNew, PROGRESS_MS);
    const abort = () => endGroup(child);
    opts.signal.addEventListener('abort', abort, { once: true });
    if (opts.signal.aborted) abort();
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < MAX_STDERR) stderr += d;
    });
    child.stdin?.on('error', () => undefined); // rsync ended before reading it all: its exit says why
    child.stdin?.end(opts.input ?? '');
    let settled = false;
    const done = (r: RsyncResult) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      opts.signal.removeEventListener('abort', abort);
      // What rsync wrote since the last read: into `items`, the array `r` holds.
      reader.push(output.finish());
      reader.end();
      resolve(r);
    };
    child.on('error', (e) => {
      const why =
        (e as NodeJS.ErrnoException).code === 'ENOENT'
          ? missingProgramMessage(argv[0], process.platform)
          : e.message;
      done({ ok: false, why, items });
    });
    child.on('close', (code, sig) => {
      const exit = code ?? (sig ? 128 : 1);
      if (opts.signal.aborted) return done({ ok: false, why: vscode.l10n.t('stopped'), items });
      if (rsyncSucceeded(exit))
        return done({ ok: true, items, ...(exit === 24 ? { vanished: vanishedFiles(stderr, cwd) } : {}) });
      done({ ok: false, why: rsyncFailure(exit, stderr), items });
    });
  });
}
