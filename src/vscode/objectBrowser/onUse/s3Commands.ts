/**
 * The commands inside buckets: upload files/folders (progress with bytes and rate, cancellable; a cancel
 * aborts the multipart upload), download an object or folder, delete (count + confirmation), copy the S3
 * URI / a presigned URL / the rclone path, and open an object read-only in the editor. Loaded on first use
 * (dist/objectBrowser.js) with the S3 layer. Arguments may be given (tests, drag and drop) instead of asked.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Existing, S3Session, UploadItem } from '../../../s3';
import type { Prompter } from '../../../wizards/prompter';
import type { BrowseNode, BucketBrowser } from './bucketBrowser';
import { loadS3 } from './lazyS3';
import type { Log } from '../../shared/log';
import { withTransfer } from './transferProgress';
import { formatBytes, objectUri } from './objectRows';
import { notices } from '../../shared/notices';

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

  async uploadFiles(
    target?: Target,
    uris?: readonly vscode.Uri[],
  ): Promise<{ uploaded: string[]; skipped: string[]; cancelled: boolean } | undefined> {
    if (!target) return undefined;
    const picked =
      uris ??
      (await vscode.window.showOpenDialog({ canSelectMany: true, openLabel: vscode.l10n.t('Upload') }));
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
          openLabel: vscode.l10n.t('Upload Folder'),
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
      const [overwrite, skip] = [vscode.l10n.t('Overwrite'), vscode.l10n.t('Skip Existing')];
      const pick = await this.prompts().confirm({
        message:
          keys.length === 1
            ? vscode.l10n.t('1 of these already exist: {0}. Replace them?', keys[0])
            : vscode.l10n.t('{0} of these already exist. Replace them?', keys.length),
        modal: true,
        actions: [overwrite, skip],
      });
      return pick === overwrite ? 'overwrite' : pick === skip ? 'skip' : 'cancel';
    };
    const where = `s3://${bucket}/${prefix}`;
    const result = await withTransfer(
      items.length === 1
        ? vscode.l10n.t('Uploading 1 file to {0}', where)
        : vscode.l10n.t('Uploading {0} files to {1}', items.length, where),
      total,
      (signal, onBytes) =>
        s3.uploadFiles(session, bucket, items, { signal, onBytes, onExisting, existingUnder: prefix }),
    ).then(undefined, (e: unknown) => this.failed('Upload', e));
    this.browser.invalidate(bucket);
    if (!result) return { uploaded: [], skipped: [], cancelled: false };
    this.log.info(
      `Uploaded ${result.uploaded.length} file(s) to ${where} (${result.skipped.length} skipped, ${result.failed.length} failed${result.cancelled ? ', cancelled' : ''}).`,
    );
    const [f] = result.failed;
    if (f)
      void notices.showErrorMessage(
        vscode.l10n.t('{0} upload(s) failed: {1}: {2}', result.failed.length, f.key, f.error),
      );
    else if (!result.cancelled)
      vscode.window.setStatusBarMessage(
        vscode.l10n.t('$(check) Uploaded {0} file(s) to {1}', result.uploaded.length, where),
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
          openLabel: vscode.l10n.t('Download Here'),
        })
      )?.[0];
    if (!dest) return undefined;
    const s3 = await loadS3();
    const session = await this.session();
    const { bucket, prefix, key } = place(target);
    const what = key ?? prefix;
    const objects = await session.run((c) => s3.objectsUnder(c, bucket, what));
    const total = objects.reduce((n, o) => n + o.size, 0);
    const title = vscode.l10n.t('Downloading s3://{0}/{1}', bucket, what);
    const result = await withTransfer(title, total, (signal, onBytes) =>
      s3.downloadMany(session, bucket, what || '', dest.fsPath, { signal, onBytes }),
    ).then(undefined, (e: unknown) => this.failed('Download', e));
    const refused = result?.refused ?? [];
    const [r] = refused;
    if (r)
      void notices.showWarningMessage(
        vscode.l10n.t('{0} object(s) were not written: {1} is {2}.', refused.length, r.key, r.reason),
      );
    return result;
  }

  async delete(target?: Target): Promise<number | undefined> {
    if (!target || target.kind === 'bucket') return undefined;
    const s3 = await loadS3();
    const session = await this.session();
    const { bucket, prefix, key } = place(target);
    const objects = await session.run((c) => s3.objectsUnder(c, bucket, key ?? prefix));
    const del = vscode.l10n.t('Delete');
    const pick = await this.prompts().confirm({
      message: key
        ? vscode.l10n.t('Delete s3://{0}/{1}?', bucket, key)
        : vscode.l10n.t('Delete {0} object(s) under s3://{1}/{2}?', objects.length, bucket, prefix),
      modal: true,
      actions: [del],
      detail: vscode.l10n.t('This cannot be undone.'),
    });
    if (pick !== del) return undefined;
    const errors = await session.run((c) =>
      s3.deleteKeys(
        c,
        bucket,
        objects.map((o) => o.key),
      ),
    );
    this.browser.invalidate(bucket);
    const [err] = errors;
    if (err)
      void notices.showErrorMessage(
        vscode.l10n.t('{0} object(s) were not deleted: {1}: {2}', errors.length, err.key, err.error),
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
      const title = vscode.l10n.t('Copy Presigned URL');
      const picked = await vscode.window.showQuickPick(
        Object.entries(s3.PRESIGN_EXPIRY).map(([label, s]) => ({ label, s })),
        { title, placeHolder: vscode.l10n.t('The link stops working after') },
      );
      if (!picked) return undefined;
      expiry = picked.s;
    }
    const session = await this.session();
    const url = await session.run((c) => s3.presignGet(c, target.bucket, target.object.key, expiry));
    await vscode.env.clipboard.writeText(url);
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Presigned URL copied'), 3000);
    return url;
  }

  /** Text opens as text, images preview; a large or unknown-type object is confirmed first. */
  async open(target?: Target): Promise<boolean> {
    if (target?.kind !== 'object') return false;
    const o = target.object;
    if (o.size > OPEN_WITHOUT_ASKING || !TEXT_OR_IMAGE.test(o.key)) {
      const [name, size, open] = [path.posix.basename(o.key), formatBytes(o.size), vscode.l10n.t('Open')];
      const pick = await this.prompts().confirm({
        message: TEXT_OR_IMAGE.test(o.key)
          ? vscode.l10n.t('{0} is {1}. Open it anyway?', name, size)
          : vscode.l10n.t('{0} is {1} and may be binary. Open it anyway?', name, size),
        modal: true,
        actions: [open],
      });
      if (pick !== open) return false;
    }
    await vscode.commands.executeCommand('vscode.open', objectUri(target.bucket, o.key), { preview: true });
    return true;
  }

  private async failed(what: 'Upload' | 'Download', e: unknown): Promise<undefined> {
    const s3 = await loadS3();
    const rejected = e instanceof s3.KeysRejectedError;
    const message = s3.s3ErrorMessage(e);
    this.log.warn(`${what} failed: ${message}`);
    if (rejected) this.browser.invalidate();
    const m = rejected ? e.message : message;
    void notices.showErrorMessage(
      what === 'Upload' ? vscode.l10n.t('Upload failed: {0}', m) : vscode.l10n.t('Download failed: {0}', m),
    );
    return undefined;
  }
}
