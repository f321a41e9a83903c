/**
 * Create, edit and destroy storage volumes, and the copy actions. Each request is sent once (never
 * retried); a 422 reopens the wizard at its field with everything typed kept; a protected or
 * attached volume is never sent to destroy: the user is told why and offered the way out.
 * Attach/detach: volumeAttach.ts.
 */
import { PriceQuotes } from '../../../model/priceQuotes';
import * as vscode from 'vscode';
import { errorMessage, isTensorPoolError, type ValidationError } from '../../../api/errors';
import { mountPath, volumeLabel, type Volume } from '../../../model/volume';
import {
  runCreateVolumeWizard,
  toVolumeCreateRequest,
  VOLUME_FIELD_STEP,
  type CreateVolumeState,
  type CreateVolumeStepId,
} from '../../../wizards/createVolume';
import {
  EDIT_FIELD_STEP,
  runEditVolumeWizard,
  startVolumeEdit,
  volumeChanges,
  type EditVolumeState,
  type EditVolumeStepId,
} from '../../../wizards/editVolume';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import { VolumeCommands } from '../commandIds';
import type { Log } from '../../shared/log';
import type { OperationFollower } from '../../shared/onUse/operationFollower';
import type { VolumesController } from '../volumes';
import { resolveVolume } from './volumePick';
import { notices } from '../../shared/notices';

const kindOf = (e: unknown): string => (isTensorPoolError(e) ? e.kind : 'unknown');
const UNKNOWN_OUTCOME = new Set(['network', 'timeout', 'server', 'bad-response']);

/** Field errors of a 422 mapped to wizard steps; a message without a field goes to `fallback`. */
function stepErrors<K extends string>(
  e: unknown,
  map: Readonly<Record<string, K>>,
  fallback: K,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const f of (e as ValidationError).fieldErrors ?? []) {
    const step = map[f.field] ?? fallback;
    out[step] = out[step] ? `${out[step]}; ${f.message}` : f.message;
  }
  if (Object.keys(out).length === 0) out[fallback] = errorMessage(e);
  return out;
}

export class VolumeActions {
  constructor(
    private readonly volumes: VolumesController,
    private readonly api: ApiService,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    /** Follows what the service returns to its end (shared with the cluster operations). */
    readonly follower: OperationFollower,
  ) {}

  /** The volume a command is about: a tree node, an id, or a pick (volumePick.ts). */
  resolveVolume(arg: unknown, title: string): Promise<Volume | undefined> {
    return resolveVolume(this.volumes, this.prompts, arg, title);
  }

  // ---- create ------------------------------------------------------------------------------------

  async create(): Promise<string | undefined> {
    // The price while the user types; a failed or missing quote is no price (api/quotes.ts).
    const prices = new PriceQuotes(async (sizeGb: number) => {
      const answer = await (await this.api.client()).storageQuote(sizeGb);
      return answer.kind === 'price' ? answer.hourlyRate : undefined;
    });
    let state: CreateVolumeState | undefined;
    let startAt: CreateVolumeStepId | undefined;
    let errors: Partial<Record<CreateVolumeStepId, string>> | undefined;
    for (;;) {
      state = await runCreateVolumeWizard(
        {
          prompter: this.prompts(),
          volumes: () => this.volumes.volumes,
          ratePerGbHour: this.volumes.ratePerGbHour(),
          prices,
        },
        { initial: state, startAt, errors },
      );
      if (!state) return undefined;
      const body = toVolumeCreateRequest(state);
      try {
        const client = await this.api.client();
        const res = await client.volumes.createVolume(body);
        const id = res.storage_id ?? undefined;
        this.log.info(`Volume create accepted: ${id ?? '(no id)'} (request ${res.request_id ?? 'none'})`);
        const label = body.name ?? id ?? vscode.l10n.t('{0} GB volume', body.size);
        if (id) {
          const placeholder: Volume = {
            id,
            name: body.name,
            sizeGb: body.size,
            status: 'CREATING',
            deletionProtection: body.deletion_protection,
            attachments: [],
          };
          void this.follower.follow(
            { target: 'volume', kind: 'create', id, label, placeholder },
            res.request_id ? [res.request_id] : [],
          );
        } else void this.volumes.refresh();
        return id;
      } catch (e) {
        this.log.warn(`Volume create failed: ${kindOf(e)}: ${errorMessage(e)}`);
        if (kindOf(e) === 'validation') {
          errors = stepErrors(e, VOLUME_FIELD_STEP, 'size');
          startAt = (['size', 'name', 'deletionProtection'] as const).find((s) => errors?.[s]) ?? 'summary';
          continue;
        }
        if (kindOf(e) === 'conflict') {
          errors = { name: errorMessage(e) };
          startAt = 'name';
          continue;
        }
        const unknown = UNKNOWN_OUTCOME.has(kindOf(e)) && (!isTensorPoolError(e) || e.mayHaveReachedServer);
        const [check, edit] = [vscode.l10n.t('Check Volume List'), vscode.l10n.t('Edit Answers')];
        const pick = await this.prompts().confirm({
          message: unknown
            ? vscode.l10n.t('The volume may or may not have been created.')
            : vscode.l10n.t('The volume was not created: {0}', errorMessage(e)),
          detail: unknown
            ? vscode.l10n.t(
                '{0}. Check the volume list before trying again: sending it again could create a second volume.',
                errorMessage(e),
              )
            : undefined,
          actions: unknown ? [check, edit] : [edit],
          modal: unknown,
          severity: unknown ? 'warning' : 'error',
        });
        if (pick === check) await this.volumes.refresh();
        if (pick !== edit) return undefined;
        startAt = 'summary';
        errors = undefined;
      }
    }
  }

  // ---- edit --------------------------------------------------------------------------------------

  async edit(arg?: unknown): Promise<boolean> {
    const volume = await this.resolveVolume(arg, vscode.l10n.t('Edit which volume?'));
    if (!volume) return false;
    let state: EditVolumeState = startVolumeEdit(volume);
    let startAt: EditVolumeStepId | undefined;
    let errors: Partial<Record<EditVolumeStepId, string>> | undefined;
    let reopened = false;
    for (;;) {
      const answered = await runEditVolumeWizard(
        { prompter: this.prompts(), volumes: () => this.volumes.volumes },
        { initial: state, startAt, errors, reopened },
      );
      if (!answered) return false;
      state = answered;
      const changes = volumeChanges(state);
      if (Object.keys(changes).length === 0) {
        void notices.showInformationMessage(
          vscode.l10n.t('Nothing changed on {0}; nothing was sent.', volumeLabel(volume)),
        );
        return false;
      }
      try {
        const client = await this.api.client();
        const res = await client.volumes.editVolume(volume.id, changes);
        void notices.showInformationMessage(
          typeof res.message === 'string'
            ? vscode.l10n.t('{0}: {1}.', volumeLabel(volume), res.message)
            : vscode.l10n.t('{0}: changes accepted.', volumeLabel(volume)),
        );
        await this.volumes.refresh();
        return true;
      } catch (e) {
        this.log.warn(`Volume edit failed: ${kindOf(e)}: ${errorMessage(e)}`);
        if (kindOf(e) === 'validation' || kindOf(e) === 'conflict') {
          errors = stepErrors(e, EDIT_FIELD_STEP, kindOf(e) === 'conflict' ? 'name' : 'summary');
          startAt = (['name', 'size', 'deletionProtection', 'summary'] as const).find((s) => errors?.[s]);
          reopened = true;
          continue;
        }
        void notices.showErrorMessage(
          vscode.l10n.t('Could not edit {0}: {1}', volumeLabel(volume), errorMessage(e)),
        );
        return false;
      }
    }
  }

  // ---- destroy -----------------------------------------------------------------------------------

  async destroy(arg?: unknown): Promise<boolean> {
    const volume = await this.resolveVolume(arg, vscode.l10n.t('Destroy which volume?'));
    if (!volume) return false;
    const label = volumeLabel(volume);
    if (volume.deletionProtection) {
      const pick = await this.prompts().confirm({
        message: vscode.l10n.t('{0} has deletion protection on, so it cannot be destroyed.', label),
        detail: vscode.l10n.t('Turn deletion protection off first (Edit Volume…); nothing was sent.'),
        actions: [vscode.l10n.t('Turn Off Protection…')],
        modal: true,
      });
      if (pick) await vscode.commands.executeCommand(VolumeCommands.editVolume, volume.id);
      return false;
    }
    if (volume.attachments.length) {
      const on = volume.attachments.map((a) => a.clusterName ?? a.clusterId).join(', ');
      const pick = await this.prompts().confirm({
        message: vscode.l10n.t('{0} is attached to {1}, so it cannot be destroyed.', label, on),
        detail: vscode.l10n.t('Detach it from every cluster first; nothing was sent.'),
        actions: [vscode.l10n.t('Detach…')],
        modal: true,
      });
      if (pick) await vscode.commands.executeCommand(VolumeCommands.detachVolume, volume.id);
      return false;
    }
    const typed = await this.prompts().input({
      title: vscode.l10n.t('Destroy {0}', label),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: vscode.l10n.t(
        'Type the volume name "{0}" to destroy it. Everything stored on it is lost; this cannot be undone.',
        label,
      ),
      value: '',
      placeholder: label,
      validate: (v) =>
        v === '' || v === label ? undefined : vscode.l10n.t('Type exactly "{0}" to confirm.', label),
    });
    if (typed.kind !== 'value' || typed.value !== label) return false;
    try {
      const client = await this.api.client();
      const res = await client.volumes.destroyVolume(volume.id);
      this.log.info(`Volume destroy accepted: ${volume.id} (request ${res.request_id ?? 'none'})`);
      void this.follower.follow(
        { target: 'volume', kind: 'destroy', id: volume.id, label },
        res.request_id ? [res.request_id] : [],
      );
      return true;
    } catch (e) {
      void notices.showErrorMessage(
        kindOf(e) === 'conflict'
          ? vscode.l10n.t(
              'Could not destroy {0}: {1} Turn deletion protection off and detach it from every cluster first.',
              label,
              errorMessage(e),
            )
          : vscode.l10n.t('Could not destroy {0}: {1}', label, errorMessage(e)),
      );
      await this.volumes.refresh();
      return false;
    }
  }

  // ---- copy --------------------------------------------------------------------------------------

  async copyMountPath(arg?: unknown): Promise<void> {
    const v = await this.resolveVolume(arg, vscode.l10n.t('Copy the mount path of which volume?'));
    if (!v) return;
    await vscode.env.clipboard.writeText(mountPath(v.id));
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied {0}', mountPath(v.id)), 3000);
  }

  async copyId(arg?: unknown): Promise<void> {
    const v = await this.resolveVolume(arg, vscode.l10n.t('Copy the ID of which volume?'));
    if (!v) return;
    await vscode.env.clipboard.writeText(v.id);
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied volume ID {0}', v.id), 3000);
  }
}
