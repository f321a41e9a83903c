/**
 * Everything inside buckets, loaded when a bucket is first expanded or an object command runs
 * (dist/objectBrowser.js; objectBrowserSetup.ts keeps only stubs in the activation bundle): the bucket
 * browser, the read-only `tensorpool-s3:` file system, drag and drop onto bucket/folder rows, and the
 * object commands.
 */
import * as vscode from 'vscode';
import type { Prompter } from '../../../wizards/prompter';
import { BucketBrowser, type BrowseNode } from './bucketBrowser';
import { Commands } from '../../shared/commands';
import type { Log } from '../../shared/log';
import type { CredentialSource } from './bucketBrowser';
import { S3Commands, type Target } from './s3Commands';
import { S3FileSystem } from './s3FileSystem';
import { browseRow, S3_SCHEME } from './objectRows';

export interface ObjectBrowserDeps {
  readonly storage: CredentialSource;
  readonly log: Log;
  readonly prompts: () => Prompter;
  /** The view's rows changed. */
  readonly changed: () => void;
}

function asTarget(node: unknown): Target | undefined {
  const n = node as { kind?: string } | undefined;
  return n && (n.kind === 'bucket' || n.kind === 'folder' || n.kind === 'object') ? (n as Target) : undefined;
}

export class ObjectBrowser implements vscode.Disposable {
  readonly browser: BucketBrowser;
  readonly commands: S3Commands;
  private readonly disposables: vscode.Disposable[];

  constructor(deps: ObjectBrowserDeps) {
    this.browser = new BucketBrowser(deps.storage, deps.log);
    // 'tp': the remote Configure rclone writes (src/config/credentials.ts DEFAULT_PROFILE).
    this.commands = new S3Commands(this.browser, deps.prompts, deps.log, 'tp');
    this.disposables = [
      this.browser,
      this.browser.onDidChange(deps.changed),
      vscode.workspace.registerFileSystemProvider(S3_SCHEME, new S3FileSystem(this.browser), {
        isReadonly: true,
        isCaseSensitive: true,
      }),
    ];
  }

  row(node: BrowseNode): vscode.TreeItem {
    return browseRow(node);
  }

  /** Files dragged from the Explorer or the OS onto a bucket or folder row are uploaded there. */
  async drop(target: unknown, data: vscode.DataTransfer): Promise<unknown> {
    const where = asTarget(target);
    if (!where || where.kind === 'object') return undefined;
    const text = await data.get('text/uri-list')?.asString();
    const uris = (text ?? '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => vscode.Uri.parse(l))
      .filter((u) => u.scheme === 'file');
    return uris.length ? this.commands.uploadFiles(where, uris) : undefined;
  }

  /** Runs one of the object commands (objectBrowserSetup.ts registers the ids). */
  async run(id: string, args: unknown[]): Promise<unknown> {
    const [node, extra] = args;
    const c = this.commands;
    switch (id) {
      case Commands.loadMoreObjects: {
        const n = node as BrowseNode | undefined;
        return n?.kind === 'more' ? this.browser.loadMore(n.bucket, n.prefix) : undefined;
      }
      case Commands.filterBucket:
        return this.filter(node, extra as string | undefined);
      case Commands.openS3Object:
        return c.open(asTarget(node));
      case Commands.uploadFiles:
        return c.uploadFiles(asTarget(node), extra as vscode.Uri[] | undefined);
      case Commands.uploadFolder:
        return c.uploadFolder(asTarget(node), extra as vscode.Uri | undefined);
      case Commands.downloadObjects:
        return c.download(asTarget(node), extra as vscode.Uri | undefined);
      case Commands.deleteObjects: {
        const t = asTarget(node);
        // Delete Bucket (buckets.ts) empties a bucket the user confirmed deleting with its objects.
        return t?.kind === 'bucket' && extra === 'empty' ? c.emptyBucket(t.bucket.name) : c.delete(t);
      }
      case Commands.copyS3Uri:
        return c.copyUri(asTarget(node));
      case Commands.copyPresignedUrl:
        return c.copyPresignedUrl(asTarget(node), extra as number | undefined);
      case Commands.copyRclonePath:
        return c.copyRclonePath(asTarget(node));
    }
    return undefined;
  }

  private async filter(node: unknown, value?: string): Promise<string | undefined> {
    const n = node as { kind?: string; bucket?: { name: string } } | undefined;
    if (n?.kind !== 'bucket' || !n.bucket) return undefined;
    const name = n.bucket.name;
    const prefix =
      value ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter {0} by prefix', name),
        prompt: vscode.l10n.t('Only keys starting with this are listed (empty: everything)'),
        value: this.browser.filterOf(name),
      }));
    if (prefix !== undefined) this.browser.setFilter(name, prefix);
    return prefix;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
