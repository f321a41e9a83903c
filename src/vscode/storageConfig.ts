/**
 * One-click AWS CLI profile and rclone remote for object storage: the service's configure answers
 * when it gives them, else built from the credentials; a preview of what will be written where
 * (secret masked) before anything is written; only our own section changes. "Copy as environment
 * variables" is the alternative that writes nothing.
 */
import { errorMessage } from '../api/errors';
import * as vscode from 'vscode';
import type { ObjectStorageCredentials } from '../api/schemas';
import type { AwsEntries, IniEntry, StorageCredentials } from '../config';
import type { Prompter } from '../wizards/prompter';
import type { ApiService } from './apiService';
import type { HostSeams } from './hostSeams';
import { configWriters } from './lazyConfig';
import type { Log } from './log';
import type { ObjectStorageController } from './objectStorage';
import { readObjectStorageProfile } from './settings';
import type { StoredState, StoredStateTypes } from './storedState';

type Configured = StoredStateTypes['tensorpool.configuredStorageProfiles'];

function profileName(): string {
  const name = readObjectStorageProfile();
  return configWriters().validateSectionName(name) ? 'tp' : name;
}

/** The wire record in the writers' terms. */
function forWriters(c: ObjectStorageCredentials): StorageCredentials {
  return {
    accessKeyId: c.access_key_id,
    secretAccessKey: c.secret_access_key,
    endpoint: c.endpoint,
    region: c.region,
  };
}

export class StorageConfigController {
  constructor(
    private readonly storage: ObjectStorageController,
    private readonly api: ApiService,
    private readonly state: StoredState,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    /** Whose files are written and the environment naming them (tests configure a scratch folder). */
    private readonly host: HostSeams,
  ) {}

  private configured(): Configured {
    return { ...this.state.get('tensorpool.configuredStorageProfiles', {}) };
  }

  private async remember(kind: keyof Configured, name: string): Promise<void> {
    await this.state.update('tensorpool.configuredStorageProfiles', { ...this.configured(), [kind]: name });
  }

  /** The service's version of the profile when it offers one; ours otherwise. */
  private async awsEntriesFor(creds: ObjectStorageCredentials, profile: string): Promise<AwsEntries> {
    const { awsEntries, awsEntriesFromConfigure } = configWriters();
    if (profile === 'tp') {
      try {
        const answer = await (await this.api.client()).configureAws();
        if (answer.credentials_file && answer.config_file && (answer.profile_name ?? 'tp') === profile) {
          const fromService = awsEntriesFromConfigure({
            profile_name: profile,
            credentials_file: answer.credentials_file,
            config_file: answer.config_file,
          });
          const key = fromService.credentials.find((e) => e.key === 'aws_access_key_id')?.value;
          if (key === creds.access_key_id) return fromService;
        }
      } catch (e) {
        this.log.info(
          `GET /object-storage/configure/aws not used (${errorMessage(e)}); building the profile from the credentials.`,
        );
      }
    }
    return awsEntries(forWriters(creds));
  }

  private async rcloneEntriesFor(
    creds: ObjectStorageCredentials,
    remote: string,
  ): Promise<readonly IniEntry[]> {
    const { rcloneEntries, rcloneEntriesFromConfigure } = configWriters();
    if (remote === 'tp') {
      try {
        const answer = await (await this.api.client()).configureRclone();
        if (answer.rclone_config && (answer.remote_name ?? 'tp') === remote) {
          const fromService = rcloneEntriesFromConfigure({
            rclone_config: answer.rclone_config,
            remote_name: remote,
          });
          if (fromService.find((e) => e.key === 'access_key_id')?.value === creds.access_key_id)
            return fromService;
        }
      } catch (e) {
        this.log.info(
          `GET /object-storage/configure/rclone not used (${errorMessage(e)}); building the remote from the credentials.`,
        );
      }
    }
    return rcloneEntries(forWriters(creds));
  }

  /** Write (after showing what changes) the AWS CLI profile. `quiet` skips the preview (rotation rewrite
   * after consent). */
  async configureAws(options: { quiet?: boolean; profile?: string } = {}): Promise<boolean> {
    const creds = await this.storage.credentials();
    if (!creds) return false;
    const profile = options.profile ?? profileName();
    const { awsPaths, previewAwsProfile, readTextFile, writeAwsProfile } = configWriters();
    const paths = awsPaths(this.host.env(), this.host.home());
    try {
      const entries = await this.awsEntriesFor(creds, profile);
      const preview = previewAwsProfile(
        { credentials: await readTextFile(paths.credentials), config: await readTextFile(paths.config) },
        profile,
        entries,
        paths,
      );
      if (!preview.credentials.changed && !preview.config.changed) {
        if (!options.quiet)
          void vscode.window.showInformationMessage(
            `The AWS CLI profile "${profile}" is already up to date.`,
          );
        await this.remember('aws', profile);
        return true;
      }
      if (!options.quiet) {
        const choice = await this.prompts().confirm({
          message: `Write the AWS CLI profile "${profile}"?`,
          detail: `${preview.summary.join('\n')}\n\nOnly the "${profile}" sections change; every other line stays as it is.`,
          actions: ['Write Profile', 'Copy as Environment Variables'],
          modal: true,
        });
        if (choice === 'Copy as Environment Variables') return this.copyEnvironment(creds);
        if (choice !== 'Write Profile') return false;
      }
      await writeAwsProfile(paths, profile, entries);
    } catch (e) {
      void vscode.window.showErrorMessage(`Did not write the AWS CLI profile: ${errorMessage(e)}`);
      return false;
    }
    await this.remember('aws', profile);
    this.log.info(`AWS CLI profile ${profile} written to ${paths.credentials} and ${paths.config}.`);
    void vscode.window.showInformationMessage(
      `AWS CLI profile "${profile}" is ready. Try: aws s3 ls --profile ${profile}`,
    );
    return true;
  }

  async configureRclone(options: { quiet?: boolean; remote?: string } = {}): Promise<boolean> {
    const creds = await this.storage.credentials();
    if (!creds) return false;
    const remote = options.remote ?? profileName();
    const { previewRcloneRemote, rcloneConfigPath, readTextFile, writeRcloneRemote } = configWriters();
    const file = rcloneConfigPath(this.host.env(), this.host.home());
    try {
      const entries = await this.rcloneEntriesFor(creds, remote);
      const preview = previewRcloneRemote(await readTextFile(file), remote, entries, file);
      if (!preview.changed) {
        if (!options.quiet)
          void vscode.window.showInformationMessage(`The rclone remote "${remote}" is already up to date.`);
        await this.remember('rclone', remote);
        return true;
      }
      if (!options.quiet) {
        const choice = await this.prompts().confirm({
          message: `Write the rclone remote "${remote}"?`,
          detail: `${preview.summary}\n\nOnly the [${remote}] section changes; every other line stays as it is.`,
          actions: ['Write Remote', 'Copy as Environment Variables'],
          modal: true,
        });
        if (choice === 'Copy as Environment Variables') return this.copyEnvironment(creds);
        if (choice !== 'Write Remote') return false;
      }
      await writeRcloneRemote(file, remote, entries);
    } catch (e) {
      void vscode.window.showErrorMessage(`Did not write the rclone remote: ${errorMessage(e)}`);
      return false;
    }
    await this.remember('rclone', remote);
    this.log.info(`rclone remote ${remote} written to ${file}.`);
    void vscode.window.showInformationMessage(
      `rclone remote "${remote}" is ready. Try: rclone lsd ${remote}:`,
    );
    return true;
  }

  /** AWS_* variables for a shell, on the clipboard; nothing is written to disk. */
  async copyEnvironment(given?: ObjectStorageCredentials): Promise<boolean> {
    const creds = given ?? (await this.storage.credentials());
    if (!creds) return false;
    const shell = await this.prompts().pick<'posix' | 'powershell'>({
      title: 'Copy as Environment Variables',
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: 'For which shell?',
      items: [
        { label: 'bash / zsh / sh', description: 'export AWS_…=…', value: 'posix' },
        { label: 'PowerShell', description: '$env:AWS_…="…"', value: 'powershell' },
      ],
      active: process.platform === 'win32' ? 'powershell' : 'posix',
    });
    if (shell.kind !== 'value') return false;
    const { awsEnvironment, renderEnvironment } = configWriters();
    await vscode.env.clipboard.writeText(renderEnvironment(awsEnvironment(forWriters(creds)), shell.value));
    void vscode.window.showInformationMessage(
      'The AWS environment variables (including the secret key) are on the clipboard.',
    );
    return true;
  }

  /** After a rotation: offer to rewrite the profiles this extension configured with the new keys. */
  async afterRotation(): Promise<void> {
    const done = this.configured();
    const names = [
      done.aws ? `AWS CLI profile "${done.aws}"` : undefined,
      done.rclone ? `rclone remote "${done.rclone}"` : undefined,
    ].filter(Boolean);
    if (names.length === 0) {
      void vscode.window.showInformationMessage(
        "Object-storage keys rotated. The new secret is in VS Code's secret storage.",
      );
      return;
    }
    const pick = await this.prompts().confirm({
      message: `Keys rotated. Update the ${names.join(' and ')} with the new keys?`,
      detail: 'The old keys no longer work, so the profiles written before will fail until they are updated.',
      actions: ['Update'],
      modal: true,
    });
    if (pick !== 'Update') return;
    if (done.aws) await this.configureAws({ quiet: true, profile: done.aws });
    if (done.rclone) await this.configureRclone({ quiet: true, remote: done.rclone });
  }
}
