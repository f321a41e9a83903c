/**
 * The edit-volume wizard: rename, grow (sizes only grow: a smaller or equal size is refused here,
 * before anything is sent), deletion protection, review. Produces only the fields that changed,
 * under the service's names (tp_storage_name, size_gb, deletion_protection).
 */
import * as l10n from '@vscode/l10n';
import { validateNewSize, validateUniqueVolumeName, volumeLabel, type Volume } from '../model/volume';
import {
  errorTaker,
  pickEditedProtection,
  protectionChange,
  protectionRow,
  reviewChanges,
} from './commonSteps';
import type { Prompter } from './prompter';
import { mapAnswer, runSteps, type Step } from './steps';

const editVolumeTitle = (): string => l10n.t('Edit TensorPool Storage Volume');

export interface EditVolumeState {
  readonly volume: Volume;
  readonly name: string;
  readonly size: string;
  readonly deletionProtection: boolean;
}

export type EditVolumeStepId = 'name' | 'size' | 'deletionProtection' | 'summary';

export const EDIT_FIELD_STEP: Readonly<Record<string, EditVolumeStepId>> = {
  tp_storage_name: 'name',
  size_gb: 'size',
  deletion_protection: 'deletionProtection',
};

export interface VolumeChanges {
  tp_storage_name?: string;
  size_gb?: number;
  deletion_protection?: boolean;
}

export function startVolumeEdit(volume: Volume): EditVolumeState {
  return {
    volume,
    name: volume.name ?? '',
    size: volume.sizeGb === undefined ? '' : String(volume.sizeGb),
    deletionProtection: volume.deletionProtection ?? false,
  };
}

/** What differs from the volume as it is; empty when nothing changed. */
export function volumeChanges(s: EditVolumeState): VolumeChanges {
  const out: VolumeChanges = {};
  const name = s.name.trim();
  if (name !== '' && name !== (s.volume.name ?? '')) out.tp_storage_name = name;
  const size = Number(s.size.trim());
  if (s.size.trim() !== '' && size !== s.volume.sizeGb) out.size_gb = size;
  if (s.deletionProtection !== (s.volume.deletionProtection ?? false))
    out.deletion_protection = s.deletionProtection;
  return out;
}

function describeChanges(c: VolumeChanges): string[] {
  const lines: string[] = [];
  if (c.tp_storage_name !== undefined) lines.push(l10n.t('rename to "{0}"', c.tp_storage_name));
  if (c.size_gb !== undefined) lines.push(l10n.t('grow to {0} GB', c.size_gb));
  if (c.deletion_protection !== undefined) lines.push(protectionChange(c.deletion_protection));
  return lines;
}

export async function runEditVolumeWizard(
  deps: { readonly prompter: Prompter; readonly volumes: () => readonly Volume[] },
  options: {
    readonly initial: EditVolumeState;
    readonly startAt?: EditVolumeStepId;
    readonly errors?: Partial<Record<EditVolumeStepId, string>>;
    readonly reopened?: boolean;
  },
): Promise<EditVolumeState | undefined> {
  const { prompter } = deps;
  const take = errorTaker(options.errors);
  const v = options.initial.volume;
  const label = volumeLabel(v);
  const steps: Step<EditVolumeState>[] = [
    {
      id: 'name',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: l10n.t('Name for {0} (keep it to leave the name unchanged)', label),
            value: s.name,
            initialError: take('name'),
            validate: (x) =>
              x.trim() === (v.name ?? '') && x.trim() !== ''
                ? undefined
                : validateUniqueVolumeName(deps.volumes(), v.id, x),
          }),
          (name) => ({ ...s, name: name.trim() }),
        ),
    },
    {
      id: 'size',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt:
              v.sizeGb === undefined
                ? l10n.t('Size in GB: sizes only grow (now unknown GB; keep it to leave the size unchanged)')
                : l10n.t(
                    'Size in GB: sizes only grow (now {0} GB; keep it to leave the size unchanged)',
                    v.sizeGb,
                  ),
            value: s.size,
            initialError: take('size'),
            validate: (x) =>
              v.sizeGb !== undefined && x.trim() === String(v.sizeGb)
                ? undefined
                : validateNewSize(v.sizeGb, x),
          }),
          (size) => ({ ...s, size: size.trim() }),
        ),
    },
    {
      id: 'deletionProtection',
      run: async (s, meta) =>
        mapAnswer(
          await pickEditedProtection(prompter, meta, {
            what: 'volume',
            current: v.deletionProtection ?? false,
            active: s.deletionProtection,
            initialError: take('deletionProtection'),
          }),
          (deletionProtection) => ({ ...s, deletionProtection }),
        ),
    },
    {
      id: 'summary',
      run: (s, meta) =>
        reviewChanges(prompter, meta, s, {
          changes: describeChanges(volumeChanges(s)),
          fields: [
            { label: l10n.t('Name'), description: s.name, value: 'name' },
            { label: l10n.t('Size'), description: l10n.t('{0} GB', s.size), value: 'size' },
            protectionRow(s.deletionProtection, 'deletionProtection'),
          ],
          initialError: take('summary'),
        }),
    },
  ];
  return runSteps(steps, options.initial, {
    title: editVolumeTitle(),
    prompter,
    startAt: options.startAt,
    returnTo: options.reopened ? 'summary' : undefined,
    isDirty: (s) => Object.keys(volumeChanges(s)).length > 0,
    discardMessage: l10n.t('Discard your changes to the volume?'),
  });
}
