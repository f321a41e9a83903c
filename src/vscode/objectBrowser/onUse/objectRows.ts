/**
 * The rows inside a bucket: folders (collapsible), objects (size and last-modified in the description, the
 * file icon from the name through resourceUri, a click opens it read-only in the editor), Load more, and a
 * listing that failed (keys that no longer work offer a refresh).
 */
import * as vscode from 'vscode';
import { timeForRow } from '../../../model/time';
import type { BrowseNode } from './bucketBrowser';
import { Commands } from '../../shared/commands';

export const S3_SCHEME = 'tensorpool-s3';

/** tensorpool-s3:/<bucket>/<key> (read-only, see s3FileSystem.ts). */
export function objectUri(bucket: string, key: string): vscode.Uri {
  return vscode.Uri.from({ scheme: S3_SCHEME, path: `/${bucket}/${key}` });
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

function lastSegment(keyOrPrefix: string): string {
  const trimmed = keyOrPrefix.endsWith('/') ? keyOrPrefix.slice(0, -1) : keyOrPrefix;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

export function browseRow(node: BrowseNode): vscode.TreeItem {
  switch (node.kind) {
    case 'folder': {
      const item = new vscode.TreeItem(lastSegment(node.prefix), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `s3:${node.bucket}/${node.prefix}`;
      item.resourceUri = objectUri(node.bucket, node.prefix);
      item.iconPath = vscode.ThemeIcon.Folder;
      item.tooltip = `s3://${node.bucket}/${node.prefix}`;
      item.contextValue = 's3Folder';
      return item;
    }
    case 'object': {
      const o = node.object;
      const item = new vscode.TreeItem(lastSegment(o.key));
      item.id = `s3:${node.bucket}/${o.key}`;
      item.resourceUri = objectUri(node.bucket, o.key);
      item.iconPath = vscode.ThemeIcon.File;
      item.description = [
        formatBytes(o.size),
        o.lastModified
          ? timeForRow(o.lastModified.toISOString(), Date.now(), vscode.env.language)
          : undefined,
      ]
        .filter(Boolean)
        .join(' · ');
      const uri = `s3://${node.bucket}/${o.key}`;
      item.tooltip = o.lastModified
        ? vscode.l10n.t('{0}\n{1} bytes\nModified {2}', uri, o.size, o.lastModified.toISOString())
        : vscode.l10n.t('{0}\n{1} bytes', uri, o.size);
      item.contextValue = 's3Object';
      item.command = { command: Commands.openS3Object, title: vscode.l10n.t('Open'), arguments: [node] };
      return item;
    }
    case 'more': {
      const item = new vscode.TreeItem(vscode.l10n.t('Load more…'));
      item.id = `s3more:${node.bucket}/${node.prefix}`;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = {
        command: Commands.loadMoreObjects,
        title: vscode.l10n.t('Load more'),
        arguments: [node],
      };
      item.contextValue = 's3More';
      return item;
    }
    case 'browseError': {
      const item = new vscode.TreeItem(
        node.keysRejected
          ? vscode.l10n.t('The object-storage keys no longer work')
          : vscode.l10n.t('Could not list objects'),
      );
      item.description = node.keysRejected ? vscode.l10n.t('click to refresh them') : node.message;
      item.tooltip = node.message;
      item.iconPath = new vscode.ThemeIcon('warning');
      item.command = {
        command: Commands.refreshObjectStorage,
        title: node.keysRejected ? vscode.l10n.t('Refresh credentials') : vscode.l10n.t('Retry'),
      };
      item.contextValue = node.keysRejected ? 's3KeysRejected' : 's3ListError';
      return item;
    }
  }
}
