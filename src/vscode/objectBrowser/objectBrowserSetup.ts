/**
 * Browsing inside buckets costs the activation bundle only these stubs: the object commands are registered
 * here and, like expanding a bucket or dropping files on it, load dist/objectBrowser.js (objectBrowser.ts:
 * the bucket browser, the `tensorpool-s3:` file system, the commands), which loads the S3 layer (dist/s3.js).
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type * as Module from './onUse/objectBrowser';

/** What the Object Storage view asks of the bucket browser. */
export interface BrowseHooks {
  readonly onDidChange: vscode.Event<void>;
  children(bucket: string, prefix: string): Promise<never[]>;
  row(node: unknown): vscode.TreeItem;
  filterOf(bucket: string): string;
}

const IDS = [
  Commands.openS3Object,
  Commands.loadMoreObjects,
  Commands.filterBucket,
  Commands.uploadFiles,
  Commands.uploadFolder,
  Commands.downloadObjects,
  Commands.deleteObjects,
  Commands.copyS3Uri,
  Commands.copyPresignedUrl,
  Commands.copyRclonePath,
];

export function setupObjectBrowser(
  context: vscode.ExtensionContext,
  deps: Omit<Module.ObjectBrowserDeps, 'changed'>,
): { hooks: BrowseHooks; dragAndDrop: vscode.TreeDragAndDropController<unknown> } {
  const emitter = new vscode.EventEmitter<void>();
  let loaded: Module.ObjectBrowser | undefined;
  let loading: Promise<Module.ObjectBrowser> | undefined;
  const load = () =>
    (loading ??= Promise.resolve().then(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
      const m = require('./onUse/objectBrowser.js') as typeof Module;
      loaded = new m.ObjectBrowser({ ...deps, changed: () => emitter.fire() });
      context.subscriptions.push(loaded);
      return loaded;
    }));
  context.subscriptions.push(
    emitter,
    ...IDS.map((id) =>
      vscode.commands.registerCommand(id, (...a: unknown[]) => load().then((b) => b.run(id, a))),
    ),
  );
  return {
    hooks: {
      onDidChange: emitter.event,
      children: (bucket, prefix) =>
        load().then((b) => b.browser.children(bucket, prefix) as Promise<never[]>),
      row: (node) => loaded!.row(node as never),
      filterOf: (bucket) => loaded?.browser.filterOf(bucket) ?? '',
    },
    dragAndDrop: {
      dropMimeTypes: ['text/uri-list', 'files'],
      dragMimeTypes: [],
      handleDrop: (target, data) => load().then((b) => void b.drop(target, data)),
    },
  };
}
