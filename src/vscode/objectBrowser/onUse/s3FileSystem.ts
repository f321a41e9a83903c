/**
 * tensorpool-s3:/<bucket>/<key>: objects opened read-only in the editor (text as text, images in the
 * preview). Reads go through the bucket browser's S3 session (lazy S3 layer, 403 -> keys re-read once).
 * Writing is refused: the file system is registered read-only.
 */
import * as vscode from 'vscode';
import type { BucketBrowser } from './bucketBrowser';
import { loadS3 } from './lazyS3';

function split(uri: vscode.Uri): { bucket: string; key: string } {
  const [, bucket = '', ...rest] = uri.path.split('/');
  return { bucket, key: rest.join('/') };
}

export class S3FileSystem implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  constructor(private readonly browser: BucketBrowser) {}

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { bucket, key } = split(uri);
    if (!key || key.endsWith('/')) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const s3 = await loadS3();
    const session = await this.browser.s3();
    try {
      const o = await session.run((c) => s3.headObject(c, bucket, key));
      const mtime = o.lastModified?.getTime() ?? 0;
      return {
        type: vscode.FileType.File,
        ctime: mtime,
        mtime,
        size: o.size,
        permissions: vscode.FilePermission.Readonly,
      };
    } catch (e) {
      if (s3.s3Status(e) === 404) throw vscode.FileSystemError.FileNotFound(uri);
      throw e;
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { bucket, key } = split(uri);
    const s3 = await loadS3();
    const session = await this.browser.s3();
    try {
      return (await session.run((c) => s3.readObject(c, bucket, key))).data;
    } catch (e) {
      if (s3.s3Status(e) === 404) throw vscode.FileSystemError.FileNotFound(uri);
      throw e;
    }
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
