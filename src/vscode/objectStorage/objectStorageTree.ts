/**
 * The Object Storage view: always says where things stand (not enabled, enabled with its details,
 * or unknown with the reason), with the buckets under it. A pure function of the store; the secret
 * key is shown masked and never held here. Field and bucket tooltips are built when the row is
 * hovered (resolveTreeItem).
 */
import * as vscode from 'vscode';
import { endpointHost, shortenMiddle } from '../../model/labels';
import { timeForRow } from '../../model/time';
import { Commands } from '../shared/commands';
import type { BrowseHooks, BrowseNode } from '../objectBrowser';
import type { BucketInfo, PublicCredentials, Store } from '../shared/store';
import { errorRow } from '../shared/commonRows';
import { md, tooltipTime } from '../shared/tooltipText';

export type StorageNode =
  | { readonly kind: 'disabled' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'status'; readonly record: PublicCredentials }
  | {
      readonly kind: 'field';
      readonly field: 'endpoint' | 'region' | 'access_key_id' | 'secret' | 'created' | 'updated' | 'iam';
      readonly label: string;
      /** The full value (what the copy action copies); the row shows it shortened. */
      readonly value: string;
    }
  | { readonly kind: 'buckets'; readonly buckets: readonly BucketInfo[] | undefined; readonly error?: string }
  | { readonly kind: 'bucket'; readonly bucket: BucketInfo }
  | BrowseNode;

export class ObjectStorageTreeProvider implements vscode.TreeDataProvider<StorageNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<StorageNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: Store,
    /** Lists inside buckets (without it a bucket row does not expand). */
    private readonly browser?: BrowseHooks,
  ) {
    const fire = () => this.emitter.fire(undefined);
    this.subscription = vscode.Disposable.from(
      store.onDidChange((t) => {
        if (t === 'objectStorage' || t === 'account') fire();
      }),
      ...(browser ? [browser.onDidChange(fire)] : []),
    );
  }

  getChildren(node?: StorageNode): StorageNode[] | Promise<StorageNode[]> {
    if (node && this.browser && (node.kind === 'bucket' || node.kind === 'folder'))
      return this.browser.children(
        node.kind === 'bucket' ? node.bucket.name : node.bucket,
        node.kind === 'bucket' ? '' : node.prefix,
      );
    if (!node) {
      if (this.store.account.kind !== 'signedIn') return [];
      const s = this.store.objectStorage;
      switch (s.kind) {
        case 'unknown':
        case 'loading':
          return [{ kind: 'loading' }];
        case 'disabled':
          return [{ kind: 'disabled' }];
        case 'error':
          return [{ kind: 'error', message: s.message }];
        case 'enabled':
          return [
            { kind: 'status', record: s.record },
            { kind: 'buckets', buckets: s.buckets, error: s.bucketsError },
          ];
      }
    }
    if (node.kind === 'status') {
      const r = node.record;
      // The rows are labelled like the tooltips, but for the two keys (shorter for a narrow side bar).
      const row = (field: FieldId, value: string, label = fieldName(field)): StorageNode => ({
        kind: 'field',
        field,
        label,
        value,
      });
      const rows = [
        row('endpoint', r.endpoint),
        row('region', r.region),
        row('access_key_id', r.access_key_id, vscode.l10n.t('Key ID')),
        row('secret', '••••••••', vscode.l10n.t('Secret key')),
      ];
      if (r.iam_username) rows.push(row('iam', r.iam_username));
      if (r.created_at) rows.push(row('created', r.created_at));
      if (r.updated_at) rows.push(row('updated', r.updated_at));
      return rows;
    }
    if (node.kind === 'buckets')
      return (node.buckets ?? []).map((bucket) => ({ kind: 'bucket' as const, bucket }));
    return [];
  }

  getTreeItem(node: StorageNode): vscode.TreeItem {
    switch (node.kind) {
      case 'loading': {
        const item = new vscode.TreeItem(vscode.l10n.t('Checking object storage…'));
        item.iconPath = new vscode.ThemeIcon('loading~spin');
        return item;
      }
      case 'disabled': {
        const item = new vscode.TreeItem(vscode.l10n.t('Object storage is not enabled'));
        item.description = vscode.l10n.t('S3-compatible storage shared by your organisation');
        item.tooltip = vscode.l10n.t(
          'TensorPool object storage is S3-compatible and organisation-wide. Enable it to get credentials for the AWS CLI, rclone or any S3 client.',
        );
        item.iconPath = new vscode.ThemeIcon('circle-slash');
        item.contextValue = 'objectStorage disabled';
        return item;
      }
      case 'error':
        return errorRow(
          vscode.l10n.t('Object storage state unknown'),
          node.message,
          { command: Commands.refreshObjectStorage, title: vscode.l10n.t('Retry') },
          'objectStorage error',
        );
      case 'status': {
        const item = new vscode.TreeItem(
          vscode.l10n.t('Object storage'),
          vscode.TreeItemCollapsibleState.Expanded,
        );
        item.id = 'objectStorage:status';
        item.description = node.record.status ?? vscode.l10n.t('enabled');
        item.tooltip = vscode.l10n.t(
          'Organisation {0}\nStatus: {1}\nEndpoint: {2}\nRegion: {3}',
          node.record.org_id,
          node.record.status ?? vscode.l10n.t('(not reported)'),
          node.record.endpoint,
          node.record.region,
        );
        item.iconPath = new vscode.ThemeIcon('database', new vscode.ThemeColor('testing.iconPassed'));
        item.contextValue = 'objectStorage enabled';
        return item;
      }
      case 'field': {
        const item = new vscode.TreeItem(node.label);
        item.id = `objectStorage:${node.field}`;
        item.description = fieldText(node.field, node.value);
        item.iconPath = new vscode.ThemeIcon(FIELD_ICON[node.field] ?? 'info');
        item.contextValue = ['endpoint', 'region', 'access_key_id', 'secret'].includes(node.field)
          ? `storageField copyable ${node.field}`
          : 'storageField';
        return item;
      }
      case 'buckets': {
        const count = node.buckets?.length;
        const item = new vscode.TreeItem(
          vscode.l10n.t('Buckets'),
          count ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
        );
        // VS Code keeps a row's expanded state by id and ignores a new collapsibleState for it, so an empty
        // list has its own id: the first bucket (created here or elsewhere) then shows the row open.
        item.id = count ? 'objectStorage:buckets' : 'objectStorage:buckets-empty';
        item.description = node.error
          ? vscode.l10n.t('could not list: {0}', node.error)
          : count === undefined
            ? ''
            : count === 0
              ? vscode.l10n.t('none yet')
              : String(count);
        item.iconPath = new vscode.ThemeIcon(node.error ? 'warning' : 'folder-library');
        item.contextValue = 'buckets';
        return item;
      }
      case 'bucket': {
        const item = new vscode.TreeItem(
          node.bucket.name,
          this.browser ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `bucket:${node.bucket.name}`;
        const filter = this.browser?.filterOf(node.bucket.name);
        item.description = [
          node.bucket.objectCount !== undefined
            ? node.bucket.objectCount === 1
              ? vscode.l10n.t('1 object')
              : vscode.l10n.t('{0} objects', node.bucket.objectCount)
            : undefined,
          node.bucket.createdAt
            ? vscode.l10n.t('created {0}', timeForRow(node.bucket.createdAt, Date.now(), vscode.env.language))
            : undefined,
          filter ? vscode.l10n.t('filter: {0}', filter) : undefined,
        ]
          .filter(Boolean)
          .join(' · ');
        item.iconPath = new vscode.ThemeIcon('archive');
        item.contextValue = 'bucket';
        return item;
      }
      default:
        return this.browser!.row(node);
    }
  }

  /** Tooltips with times (formatted through Intl) are built when the row is hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: StorageNode): vscode.TreeItem {
    if (node.kind === 'field') item.tooltip = fieldTooltip(node.field, node.value);
    else if (node.kind === 'bucket')
      item.tooltip = node.bucket.createdAt
        ? vscode.l10n.t('s3://{0}\nCreated {1}', node.bucket.name, tooltipTime(node.bucket.createdAt))
        : `s3://${node.bucket.name}`;
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

type FieldId = Extract<StorageNode, { kind: 'field' }>['field'];

const FIELD_ICON: Partial<Record<FieldId, string>> = {
  secret: 'key',
  endpoint: 'globe',
  access_key_id: 'account',
  created: 'calendar',
  updated: 'history',
};

const fieldName = (field: FieldId): string =>
  ({
    endpoint: vscode.l10n.t('Endpoint'),
    region: vscode.l10n.t('Region'),
    access_key_id: vscode.l10n.t('Access key ID'),
    secret: vscode.l10n.t('Secret access key'),
    created: vscode.l10n.t('Created'),
    updated: vscode.l10n.t('Updated'),
    iam: vscode.l10n.t('IAM user'),
  })[field];

/** What a field row shows: short enough for a narrow side bar (the tooltip has it in full). */
function fieldText(field: FieldId, value: string, now = Date.now()): string {
  switch (field) {
    case 'endpoint':
      return endpointHost(value);
    case 'access_key_id':
      return shortenMiddle(value, 12);
    case 'created':
    case 'updated':
      return timeForRow(value, now, vscode.env.language);
    default:
      return value;
  }
}

function fieldTooltip(field: FieldId, value: string): vscode.MarkdownString {
  const text =
    field === 'secret'
      ? vscode.l10n.t(
          "The secret access key is kept in VS Code's secret storage. Use the copy action to put it on the clipboard.",
        )
      : field === 'created' || field === 'updated'
        ? `**${fieldName(field)}** ${md(tooltipTime(value))}`
        : `**${fieldName(field)}**\n\n\`${value.replace(/`/g, "'")}\``;
  return new vscode.MarkdownString(text);
}
