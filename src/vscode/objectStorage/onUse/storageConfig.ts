/**
 * One-click AWS CLI profile and rclone remote for object storage: the service's configure answers
 * when it gives them, else built from the credentials; a preview of what will be written where
 * (secret masked) before anything is written; only our own section changes. "Copy as environment
 * variables" is the alternative that writes nothing.
 */
import { errorMessage } from '../../../api/errors';
import * as vscode from 'vscode';
import type { ObjectStorageCredentials } from '../../../api/schemas';
import type { AwsEntries, IniEntry, StorageCredentials } from '../../../config';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import type { HostSeams } from '../../shared/hostSeams';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import type { ObjectStorageController } from '../objectStorage';
import { readObjectStorageProfile } from '../../shared/settings';
import type { StoredState, StoredStateTypes } from '../../shared/storedState';
import { notices } from '../../shared/notices';

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

/** The question after a rotation, naming the profiles this extension configured (one sentence each). */
function rotatedQuestion(done: Configured): string {
  if (done.aws && done.rclone)
    return vscode.l10n.t(
      'Keys rotated. Update the AWS CLI profile "{0}" and rclone remote "{1}" with the new keys?',
      done.aws,
      done.rclone,
    );
  if (done.aws)
    return vscode.l10n.t('Keys rotated. Update the AWS CLI profile "{0}" with the new keys?', done.aws);
  return vscode.l10n.t('Keys rotated. Update the rclone remote "{0}" with the new keys?', done.rclone ?? '');
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
          void notices.showInformationMessage(
            vscode.l10n.t('The AWS CLI profile "{0}" is already up to date.', profile),
          );
        await this.remember('aws', profile);
        return true;
      }
      if (!options.quiet) {
        const [write, copy] = [
          vscode.l10n.t('Write Profile'),
          vscode.l10n.t('Copy as Environment Variables'),
        ];
        const choice = await this.prompts().confirm({
          message: vscode.l10n.t('Write the AWS CLI profile "{0}"?', profile),
          detail: vscode.l10n.t(
            '{0}\n\nOnly the "{1}" sections change; every other line stays as it is.',
            preview.summary.join('\n'),
            profile,
          ),
          actions: [write, copy],
          modal: true,
        });
        if (choice === copy) return this.copyEnvironment(creds);
        if (choice !== write) return false;
      }
      await writeAwsProfile(paths, profile, entries);
    } catch (e) {
      void notices.showErrorMessage(vscode.l10n.t('Did not write the AWS CLI profile: {0}', errorMessage(e)));
      return false;
    }
    await this.remember('aws', profile);
    this.log.info(`AWS CLI profile ${profile} written to ${paths.credentials} and ${paths.config}.`);
    void notices.showInformationMessage(
      vscode.l10n.t('AWS CLI profile "{0}" is ready. Try: aws s3 ls --profile {0}', profile),
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
          void notices.showInformationMessage(
            vscode.l10n.t('The rclone remote "{0}" is already up to date.', remote),
          );
        await this.remember('rclone', remote);
        return true;
      }
      if (!options.quiet) {
        const [write, copy] = [vscode.l10n.t('Write Remote'), vscode.l10n.t('Copy as Environment Variables')];
        const choice = await this.prompts().confirm({
          message: vscode.l10n.t('Write the rclone remote "{0}"?', remote),
          detail: vscode.l10n.t(
            '{0}\n\nOnly the [{1}] section changes; every other line stays as it is.',
            preview.summary,
            remote,
          ),
          actions: [write, copy],
          modal: true,
        });
        if (choice === copy) return this.copyEnvironment(creds);
        if (choice !== write) return false;
      }
      await writeRcloneRemote(file, remote, entries);
    } catch (e) {
      void notices.showErrorMessage(vscode.l10n.t('Did not write the rclone remote: {0}', errorMessage(e)));
      return false;
    }
    await this.remember('rclone', remote);
    this.log.info(`rclone remote ${remote} written to ${file}.`);
    void notices.showInformationMessage(
      vscode.l10n.t('rclone remote "{0}" is ready. Try: rclone lsd {0}:', remote),
    );
    return true;
  }

  /** AWS_* variables for a shell, on the clipboard; nothing is written to disk. */
  async copyEnvironment(given?: ObjectStorageCredentials): Promise<boolean> {
    const creds = given ?? (await this.storage.credentials());
    if (!creds) return false;
    const shell = await this.prompts().pick<'posix' | 'powershell'>({
      title: vscode.l10n.t('Copy as Environment Variables'),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('For which shell?'),
      items: [
        // eslint-disable-next-line tensorpool/l10n -- shell names and shell syntax, the same in every language
        { label: 'bash / zsh / sh', description: 'export AWS_…=…', value: 'posix' },
        // eslint-disable-next-line tensorpool/l10n -- a shell's name and syntax, the same in every language
        { label: 'PowerShell', description: '$env:AWS_…="…"', value: 'powershell' },
      ],
      active: process.platform === 'win32' ? 'powershell' : 'posix',
    });
    if (shell.kind !== 'value') return false;
    const { awsEnvironment, renderEnvironment } = configWriters();
    await vscode.env.clipboard.writeText(renderEnvironment(awsEnvironment(forWriters(creds)), shell.value));
    void notices.showInformationMessage(
      vscode.l10n.t('The AWS environment variables (including the secret key) are on the clipboard.'),
    );
    return true;
  }

  /** After a rotation: offer to rewrite the profiles this extension configured with the new keys. */
  async afterRotation(): Promise<void> {
    const done = this.configured();
    if (!done.aws && !done.rclone) {
      void notices.showInformationMessage(
        vscode.l10n.t("Object-storage keys rotated. The new secret is in VS Code's secret storage."),
      );
      return;
    }
    const update = vscode.l10n.t('Update');
    const pick = await this.prompts().confirm({
      message: rotatedQuestion(done),
      detail: vscode.l10n.t(
        'The old keys no longer work, so the profiles written before will fail until they are updated.',
      ),
      actions: [update],
      modal: true,
    });
    if (pick !== update) return;
    if (done.aws) await this.configureAws({ quiet: true, profile: done.aws });
    if (done.rclone) await this.configureRclone({ quiet: true, remote: done.rclone });
  }
}
