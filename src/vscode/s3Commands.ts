/**
 * The commands inside buckets: upload files/folders (progress with bytes and rate, cancellable; a cancel
 * aborts the multipart upload), download an object or folder, delete (count + confirmation), copy the S3
 * URI / a presigned URL / the rclone path, and open an object read-only in the editor. Loaded on first use
 * (dist/objectBrowser.js) with the S3 layer. Arguments may be given (tests, drag and drop) instead of asked.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Existing, S3Session, UploadItem } from '../s3';
import type { Prompter } from '../wizards/prompter';
import type { BrowseNode, BucketBrowser } from './bucketBrowser';
import { loadS3 } from './lazyS3';
import type { Log } from './log';
import { formatBytes, objectUri } from './views/objectRows';

/** A bucket row, a folder row or an object row (what the commands act on). */
export type Target =
  | { readonly kind: 'bucket'; readonly bucket: { readonly name: string } }
  | Extract<BrowseNode, { kind: 'folder' } | { kind: 'object' }>;

function place(t: Target): { bucket: string; prefix: string; key?: string } {
  if (t.kind === 'bucket') return { bucket: t.bucket.name, prefix: '' };
  if (t.kind === 'folder') return { bucket: t.bucket, prefix: t.prefix };
  const slash = t.object.key.lastIndexOf('/');
  return { bucket: t.bucket, prefix: t.object.key.slice(0, slash + 1), key: t.object.key };
}

const OPEN_WITHOUT_ASKING = 5 * 1024 * 1024;
const TEXT_OR_IMAGE =
  /\.(txt|md|json|jsonl|ya?ml|toml|csv|tsv|log|py|ipynb|sh|js|ts|html|css|xml|ini|cfg|conf|png|jpe?g|gif|svg|webp|bmp)$/i;

export class S3Commands {
  constructor(
    private readonly browser: BucketBrowser,
    private readonly prompts: () => Prompter,
    private readonly log: Log,
    /** The rclone remote name the extension writes (storageConfig). */
    private readonly rcloneRemote: string,
  ) {}

  private session(): Promise<S3Session> {
    return this.browser.s3();
  }

  /** Run a transfer under a cancellable notification showing bytes and rate. */
  private withTransfer<T>(
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
            message: `${formatBytes(done)} of ${formatBytes(total)} · ${formatBytes(rate)}/s`,
            increment,
          });
        };
        return work(stop.signal, onBytes);
      },
    );
  }

  async uploadFiles(
    target?: Target,
    uris?: readonly vscode.Uri[],
  ): Promise<{ uploaded: string[]; skipped: string[]; cancelled: boolean } | undefined> {
    if (!target) return undefined;
    const picked = uris ?? (await vscode.window.showOpenDialog({ canSelectMany: true, openLabel: 'Upload' }));
    if (!picked?.length) return undefined;
    const s3 = await loadS3();
    const { bucket, prefix } = place(target);
    const items: UploadItem[] = [];
    for (const uri of picked) {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory)
        items.push(...(await s3.folderItems(uri.fsPath, prefix, path.basename(uri.fsPath))));
      else items.push(await s3.fileItem(uri.fsPath, prefix + path.basename(uri.fsPath)));
    }
    return this.upload(bucket, prefix, items);
  }

  async uploadFolder(target?: Target, folder?: vscode.Uri): Promise<unknown> {
    if (!target) return undefined;
    const picked = folder
      ? [folder]
      : await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          openLabel: 'Upload Folder',
        });
    return picked?.length ? this.uploadFiles(target, picked) : undefined;
  }

  private async upload(
    bucket: string,
    prefix: string,
    items: UploadItem[],
  ): Promise<{ uploaded: string[]; skipped: string[]; cancelled: boolean }> {
    const s3 = await loadS3();
    const session = await this.session();
    const total = items.reduce((n, i) => n + i.size, 0);
    const onExisting = async (keys: string[]): Promise<Existing> => {
      const pick = await this.prompts().confirm({
        message: `${keys.length} of these already exist${keys.length === 1 ? `: ${keys[0]}` : ''}. Replace them?`,
        modal: true,
        actions: ['Overwrite', 'Skip Existing'],
      });
      return pick === 'Overwrite' ? 'overwrite' : pick === 'Skip Existing' ? 'skip' : 'cancel';
    };
    const where = `s3://${bucket}/${prefix}`;
    const result = await this.withTransfer(
      `Uploading ${items.length} file${items.length === 1 ? '' : 's'} to ${where}`,
      total,
      (signal, onBytes) =>
        s3.uploadFiles(session, bucket, items, { signal, onBytes, onExisting, existingUnder: prefix }),
    ).then(undefined, (e: unknown) => this.failed('Upload', e));
    this.browser.invalidate(bucket);
    if (!result) return { uploaded: [], skipped: [], cancelled: false };
    this.log.info(
      `Uploaded ${result.uploaded.length} file(s) to ${where} (${result.skipped.length} skipped, ${result.failed.length} failed${result.cancelled ? ', cancelled' : ''}).`,
    );
    if (result.failed.length)
      void vscode.window.showErrorMessage(
        `${result.failed.length} upload(s) failed: ${result.failed[0].key}: ${result.failed[0].error}`,
      );
    else if (!result.cancelled)
      vscode.window.setStatusBarMessage(
        `$(check) Uploaded ${result.uploaded.length} file(s) to ${where}`,
        4000,
      );
    return { uploaded: result.uploaded, skipped: result.skipped, cancelled: result.cancelled };
  }

  async download(target?: Target, folder?: vscode.Uri): Promise<unknown> {
    if (!target) return undefined;
    const dest =
      folder ??
      (
        await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          openLabel: 'Download Here',
        })
      )?.[0];
    if (!dest) return undefined;
    const s3 = await loadS3();
    const session = await this.session();
    const { bucket, prefix, key } = place(target);
    const what = key ?? prefix;
    const objects = await session.run((c) => s3.objectsUnder(c, bucket, what));
    const total = objects.reduce((n, o) => n + o.size, 0);
    const result = await this.withTransfer(`Downloading s3://${bucket}/${what}`, total, (signal, onBytes) =>
      s3.downloadMany(session, bucket, what || '', dest.fsPath, { signal, onBytes }),
    ).then(undefined, (e: unknown) => this.failed('Download', e));
    if (result?.refused.length)
      void vscode.window.showWarningMessage(
        `${result.refused.length} object(s) were not written: ${result.refused[0].key} is ${result.refused[0].reason}.`,
      );
    return result;
  }

  async delete(target?: Target): Promise<number | undefined> {
    if (!target || target.kind === 'bucket') return undefined;
    const s3 = await loadS3();
    const session = await this.session();
    const { bucket, prefix, key } = place(target);
    const objects = await session.run((c) => s3.objectsUnder(c, bucket, key ?? prefix));
    const pick = await this.prompts().confirm({
      message: key
        ? `Delete s3://${bucket}/${key}?`
        : `Delete ${objects.length} object(s) under s3://${bucket}/${prefix}?`,
      modal: true,
      actions: ['Delete'],
      detail: 'This cannot be undone.',
    });
    if (pick !== 'Delete') return undefined;
    const errors = await session.run((c) =>
      s3.deleteKeys(
        c,
        bucket,
        objects.map((o) => o.key),
      ),
    );
    this.browser.invalidate(bucket);
    if (errors.length)
      void vscode.window.showErrorMessage(
        `${errors.length} object(s) were not deleted: ${errors[0].key}: ${errors[0].error}`,
      );
    return objects.length - errors.length;
  }

  /** Empty a bucket before the service deletes it (after the user confirmed what goes). */
  async emptyBucket(bucket: string): Promise<number> {
    const s3 = await loadS3();
    const session = await this.session();
    const objects = await session.run((c) => s3.listAll(c, bucket, ''));
    await session.run((c) =>
      s3.deleteKeys(
        c,
        bucket,
        objects.map((o) => o.key),
      ),
    );
    this.browser.invalidate(bucket);
    return objects.length;
  }

  async copyUri(target?: Target): Promise<string | undefined> {
    if (!target) return undefined;
    const { bucket, prefix, key } = place(target);
    const uri = `s3://${bucket}/${key ?? prefix}`;
    await vscode.env.clipboard.writeText(uri);
    return uri;
  }

  async copyRclonePath(target?: Target): Promise<string | undefined> {
    if (!target) return undefined;
    const { bucket, prefix, key } = place(target);
    const s3 = await loadS3();
    const value = s3.rclonePath(this.rcloneRemote, bucket, key ?? prefix.replace(/\/$/, ''));
    await vscode.env.clipboard.writeText(value);
    return value;
  }

  async copyPresignedUrl(target?: Target, seconds?: number): Promise<string | undefined> {
    if (target?.kind !== 'object') return undefined;
    const s3 = await loadS3();
    let expiry = seconds;
    if (expiry === undefined) {
      const picked = await vscode.window.showQuickPick(
        Object.entries(s3.PRESIGN_EXPIRY).map(([label, s]) => ({ label, s })),
        { title: 'Copy Presigned URL', placeHolder: 'The link stops working after' },
      );
      if (!picked) return undefined;
      expiry = picked.s;
    }
    const session = await this.session();
    const url = await session.run((c) => s3.presignGet(c, target.bucket, target.object.key, expiry));
    await vscode.env.clipboard.writeText(url);
    vscode.window.setStatusBarMessage('$(check) Presigned URL copied', 3000);
    return url;
  }

  /** Text opens as text, images preview; a large or unknown-type object is confirmed first. */
  async open(target?: Target): Promise<boolean> {
    if (target?.kind !== 'object') return false;
    const o = target.object;
    if (o.size > OPEN_WITHOUT_ASKING || !TEXT_OR_IMAGE.test(o.key)) {
      const pick = await this.prompts().confirm({
        message: `${path.posix.basename(o.key)} is ${formatBytes(o.size)}${TEXT_OR_IMAGE.test(o.key) ? '' : ' and may be binary'}. Open it anyway?`,
        modal: true,
        actions: ['Open'],
      });
      if (pick !== 'Open') return false;
    }
    await vscode.commands.executeCommand('vscode.open', objectUri(target.bucket, o.key), { preview: true });
    return true;
  }

  private async failed(what: string, e: unknown): Promise<undefined> {
    const s3 = await loadS3();
    const rejected = e instanceof s3.KeysRejectedError;
    const message = s3.s3ErrorMessage(e);
    this.log.warn(`${what} failed: ${message}`);
    if (rejected) this.browser.invalidate();
    void vscode.window.showErrorMessage(`${what} failed: ${rejected ? e.message : message}`);
    return undefined;
  }
}
