/**
 * A transfer (S3 upload or download) under a cancellable notification that shows the bytes done, the total
 * and the rate; cancelling aborts the signal the work was given. Used by s3Commands.ts.
 */
import * as vscode from 'vscode';
import { formatBytes } from './objectRows';

/** Run a transfer under a cancellable notification showing bytes and rate. */
export function withTransfer<T>(
  title: string,
  total: number,
  work: (signal: AbortSignal, onBytes: (n: number) => void) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
      const stop = new AbortController();
      token.onCancellationRequested(() => stop.abort());
      const started = Date.now();
      let done = 0;
      let reported = 0;
      let shown = 0;
      const onBytes = (n: number): void => {
        done += n;
        const now = Date.now();
        if (now - shown < 250 && done < total) return;
        const rate = done / Math.max(0.001, (now - started) / 1000);
        const increment = total ? ((done - reported) / total) * 100 : undefined;
        reported = done;
        shown = now;
        progress.report({
          message: vscode.l10n.t('{0} of {1} · {2}/s', ...[done, total, rate].map(formatBytes)),
          increment,
        });
      };
      return work(stop.signal, onBytes);
    },
  );
}
