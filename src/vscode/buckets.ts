/**
 * Buckets of the organisation's object storage: create (name checked as typed) and delete (the service
 * deletes only an empty bucket: when it refuses, we say how many objects it holds and, once confirmed,
 * delete them through S3 and then the bucket). The list is reloaded after each.
 */
import * as vscode from 'vscode';
import { isTensorPoolError, errorMessage } from '../api/errors';
import { validateBucketName } from '../model/validate';
import type { Prompter } from '../wizards/prompter';
import type { ApiService } from './apiService';
import { Commands } from './commands';
import type { Log } from './log';
import type { BucketInfo, Store } from './store';

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
      title: 'Create Bucket',
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt:
        'Bucket name: 3–63 lowercase letters, digits, "." or "-", starting and ending with a letter or digit',
      value: '',
      placeholder: 'e.g. training-data',
      validate: validateBucketName,
    });
    if (answer.kind !== 'value') return undefined;
    const name = answer.value;
    try {
      await (await this.api.client()).createBucket(name);
      this.log.info(`Bucket ${name} created.`);
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not create bucket ${name}: ${errorMessage(e)}`);
      return undefined;
    }
    await this.refresh();
    vscode.window.setStatusBarMessage(`$(check) Bucket ${name} created`, 3000);
    return name;
  }

  async deleteBucket(bucket?: BucketInfo | string): Promise<boolean> {
    const name = typeof bucket === 'string' ? bucket : (bucket?.name ?? (await this.pickBucket()));
    if (!name) return false;
    const pick = await this.prompts().confirm({
      message: `Delete bucket ${name}?`,
      modal: true,
      actions: ['Delete'],
      detail: 'If it holds objects you will be asked again before they are deleted. This cannot be undone.',
    });
    if (pick !== 'Delete') return false;
    try {
      await (await this.api.client()).deleteBucket(name);
      this.log.info(`Bucket ${name} deleted.`);
    } catch (e) {
      const notEmpty = isTensorPoolError(e) && e.kind === 'conflict';
      if (!notEmpty || !(await this.emptyThenDelete(name, errorMessage(e)))) {
        if (!notEmpty)
          void vscode.window.showErrorMessage(`Could not delete bucket ${name}: ${errorMessage(e)}`);
        return false;
      }
    }
    await this.refresh();
    vscode.window.setStatusBarMessage(`$(check) Bucket ${name} deleted`, 3000);
    return true;
  }

  /** The bucket holds objects: confirm, delete them through S3 (the object commands), then the bucket. */
  private async emptyThenDelete(name: string, refusal: string): Promise<boolean> {
    const pick = await this.prompts().confirm({
      message: `Bucket ${name} is not empty. Delete every object in it, then the bucket?`,
      modal: true,
      actions: ['Delete Objects and Bucket'],
      detail: `${refusal}\nEvery object in s3://${name} is deleted. This cannot be undone.`,
    });
    if (pick !== 'Delete Objects and Bucket') return false;
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
      void vscode.window.showErrorMessage(`Could not delete bucket ${name}: ${errorMessage(e)}`);
      return false;
    }
  }

  private async pickBucket(): Promise<string | undefined> {
    const s = this.store.objectStorage;
    const names = s.kind === 'enabled' ? (s.buckets ?? []).map((b) => b.name) : [];
    if (names.length === 0) {
      void vscode.window.showInformationMessage('There are no buckets.');
      return undefined;
    }
    const picked = await this.prompts().pick<string>({
      title: 'Delete Bucket',
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: 'Which bucket?',
      items: names.map((n) => ({ label: n, value: n })),
    });
    return picked.kind === 'value' ? picked.value : undefined;
  }
}
