/**
 * The volume a command is about (VolumeActions.resolveVolume): a tree node, an id, or a pick from the
 * Volumes list with "Enter an ID…" (also when the list is empty or came as text only).
 */
import * as vscode from 'vscode';
import { volumeLabel, type Volume } from '../../../model/volume';
import type { Prompter } from '../../../wizards/prompter';
import type { VolumesController } from '../volumes';
import type { VolumeNode } from '../volumesTree';

export async function resolveVolume(
  volumes: VolumesController,
  prompts: () => Prompter,
  arg: unknown,
  title: string,
): Promise<Volume | undefined> {
  const node = arg as VolumeNode | { kind: 'clusterVolume'; volume: { id: string } } | undefined;
  if (node && typeof node === 'object' && 'volume' in node) {
    const id = node.volume.id;
    return volumes.volumes.find((v) => v.id === id) ?? { ...node.volume, attachments: [] };
  }
  if (typeof arg === 'string')
    return volumes.volumes.find((v) => v.id === arg || v.name === arg) ?? { id: arg, attachments: [] };
  if (!volumes.data) await volumes.refresh();
  const all = volumes.volumes;
  const why =
    volumes.data?.volumes === undefined
      ? vscode.l10n.t('The service listed volumes as text only')
      : all.length === 0
        ? vscode.l10n.t('You have no volumes in this scope')
        : undefined;
  type Choice = { volume: Volume } | 'enter';
  const picked = await prompts().pick<Choice>({
    title,
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    placeholder: why ? vscode.l10n.t('{0}: enter a volume ID', why) : title,
    items: [
      ...all.map((v) => ({
        label: volumeLabel(v),
        description: [v.sizeGb !== undefined ? vscode.l10n.t('{0} GB', v.sizeGb) : undefined, v.status]
          .filter(Boolean)
          .join(' · '),
        detail: v.id,
        value: { volume: v },
      })),
      { label: vscode.l10n.t('$(edit) Enter an ID…'), description: why, value: 'enter' },
    ],
  });
  if (picked.kind !== 'value') return undefined;
  if (picked.value !== 'enter') return picked.value.volume;
  const typed = await prompts().input({
    title,
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    prompt: vscode.l10n.t("Storage volume ID (as in the service's list, e.g. vol-…)"),
    value: '',
    validate: (v) =>
      v.trim() === ''
        ? vscode.l10n.t('Enter a volume ID.')
        : /\s/.test(v.trim())
          ? vscode.l10n.t('An ID has no spaces.')
          : undefined,
  });
  return typed.kind === 'value' ? { id: typed.value.trim(), attachments: [] } : undefined;
}
