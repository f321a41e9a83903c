/**
 * Buckets of the organisation's object storage: create (name checked as typed) and delete (the service
 * deletes only an empty bucket: when it refuses, we say how many objects it holds and, once confirmed,
 * delete them through S3 and then the bucket). The list is reloaded after each.
 */
import * as vscode from 'vscode';
import { isTensorPoolError, errorMessage } from '../../../api/errors';
import { validateBucketName } from '../../../model/validate';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import { Commands } from '../../shared/commands';
import type { Log } from '../../shared/log';
import type { BucketInfo, Store } from '../../shared/store';
import type { StorageNode } from '../objectStorageTree';
import { notices } from '../../shared/notices';

export class BucketActions {
  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly prompts: () => Prompter,
    private readonly log: Log,
    /** Reload the object-storage state and bucket list. */
    private readonly refresh: () => Promise<void>,
  ) {}

  async createBucket(): Promise<string | undefined> {
    const answer = await this.prompts().input({
      title: vscode.l10n.t('Create Bucket'),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: vscode.l10n.t(
        'Bucket name: 3–63 lowercase letters, digits, "." or "-", starting and ending with a letter or digit',
      ),
      value: '',
      placeholder: vscode.l10n.t('e.g. training-data'),
      validate: validateBucketName,
    });
    if (answer.kind !== 'value') return undefined;
    const name = answer.value;
    try {
      await (await this.api.client()).createBucket(name);
      this.log.info(`Bucket ${name} created.`);
    } catch (e) {
      void notices.showErrorMessage(vscode.l10n.t('Could not create bucket {0}: {1}', name, errorMessage(e)));
      return undefined;
    }
    await this.refresh();
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Bucket {0} created', name), 3000);
    return name;
  }

  /** Delete Bucket from a bucket row, with a bucket's name, or from the palette (which asks). */
  deleteBucketRow(node?: StorageNode | string): Promise<boolean> {
    return this.deleteBucket(
      typeof node === 'string' ? node : node?.kind === 'bucket' ? node.bucket : undefined,
    );
  }

  async deleteBucket(bucket?: BucketInfo | string): Promise<boolean> {
    const name = typeof bucket === 'string' ? bucket : (bucket?.name ?? (await this.pickBucket()));
    if (!name) return false;
    const del = vscode.l10n.t('Delete');
    const pick = await this.prompts().confirm({
      message: vscode.l10n.t('Delete bucket {0}?', name),
      modal: true,
      actions: [del],
      detail: vscode.l10n.t(
        'If it holds objects you will be asked again before they are deleted. This cannot be undone.',
      ),
    });
    if (pick !== del) return false;
    try {
      await (await this.api.client()).deleteBucket(name);
      this.log.info(`Bucket ${name} deleted.`);
    } catch (e) {
      const notEmpty = isTensorPoolError(e) && e.kind === 'conflict';
      if (!notEmpty || !(await this.emptyThenDelete(name, errorMessage(e)))) {
        if (!notEmpty) this.deleteFailed(name, e);
        return false;
      }
    }
    await this.refresh();
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Bucket {0} deleted', name), 3000);
    return true;
  }

  /** The bucket holds objects: confirm, delete them through S3 (the object commands), then the bucket. */
  private async emptyThenDelete(name: string, refusal: string): Promise<boolean> {
    const deleteAll = vscode.l10n.t('Delete Objects and Bucket');
    const pick = await this.prompts().confirm({
      message: vscode.l10n.t('Bucket {0} is not empty. Delete every object in it, then the bucket?', name),
      modal: true,
      actions: [deleteAll],
      detail: vscode.l10n.t(
        '{0}\nEvery object in s3://{1} is deleted. This cannot be undone.',
        refusal,
        name,
      ),
    });
    if (pick !== deleteAll) return false;
    try {
      const removed = await vscode.commands.executeCommand<number>(
        Commands.deleteObjects,
        { kind: 'bucket', bucket: { name } },
        'empty',
      );
      await (await this.api.client()).deleteBucket(name);
      this.log.info(`Bucket ${name} deleted with its ${removed} object(s).`);
      return true;
    } catch (e) {
      this.deleteFailed(name, e);
      return false;
    }
  }

  private deleteFailed(name: string, e: unknown): void {
    void notices.showErrorMessage(vscode.l10n.t('Could not delete bucket {0}: {1}', name, errorMessage(e)));
  }

  private async pickBucket(): Promise<string | undefined> {
    const s = this.store.objectStorage;
    const names = s.kind === 'enabled' ? (s.buckets ?? []).map((b) => b.name) : [];
    if (names.length === 0) {
      void notices.showInformationMessage(vscode.l10n.t('There are no buckets.'));
      return undefined;
    }
    const picked = await this.prompts().pick<string>({
      title: vscode.l10n.t('Delete Bucket'),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('Which bucket?'),
      items: names.map((n) => ({ label: n, value: n })),
    });
    return picked.kind === 'value' ? picked.value : undefined;
  }
}
