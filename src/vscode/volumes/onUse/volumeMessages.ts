/**
 * What a followed volume operation says (VolumesController.follow): one whole sentence per kind of
 * operation, since word order differs between languages. The actions that start operations pass these in,
 * so the messages load with them (dist/actions.js), not with activation.
 */
import * as vscode from 'vscode';
import type { VolumeOpKind } from '../volumes';

export interface VolumeOpMessages {
  /** The service accepted it without a request to follow. */
  accepted(label: string): string;
  /** Following stopped on an error; the operation goes on. */
  lostTrack(label: string, error: string): string;
  failed(label: string, reason: string | undefined): string;
  /** Still in progress after an hour: no longer followed. */
  slow(label: string): string;
  done(label: string): string;
}

const noReason = (): string => vscode.l10n.t('TensorPool reported FAILED without a reason.');

export const VOLUME_OP_MESSAGES: Readonly<Record<VolumeOpKind, VolumeOpMessages>> = {
  create: {
    accepted: (l) =>
      vscode.l10n.t('Creating {0}: accepted by TensorPool. The list refreshes as it progresses.', l),
    lostTrack: (l, e) =>
      vscode.l10n.t(
        'Lost track of creating {0}: {1}. The operation goes on; refresh the list to see where it stands.',
        l,
        e,
      ),
    failed: (l, why) => vscode.l10n.t('Creating {0} failed: {1}', l, why ?? noReason()),
    slow: (l) =>
      vscode.l10n.t(
        'Creating {0} is still in progress after an hour. Stopped waiting; the operation goes on.',
        l,
      ),
    done: (l) => vscode.l10n.t('Volume {0} is ready.', l),
  },
  attach: {
    accepted: (l) =>
      vscode.l10n.t('Attaching {0}: accepted by TensorPool. The list refreshes as it progresses.', l),
    lostTrack: (l, e) =>
      vscode.l10n.t(
        'Lost track of attaching {0}: {1}. The operation goes on; refresh the list to see where it stands.',
        l,
        e,
      ),
    failed: (l, why) => vscode.l10n.t('Attaching {0} failed: {1}', l, why ?? noReason()),
    slow: (l) =>
      vscode.l10n.t(
        'Attaching {0} is still in progress after an hour. Stopped waiting; the operation goes on.',
        l,
      ),
    done: (l) => vscode.l10n.t('Volume {0} is attached.', l),
  },
  detach: {
    accepted: (l) =>
      vscode.l10n.t('Detaching {0}: accepted by TensorPool. The list refreshes as it progresses.', l),
    lostTrack: (l, e) =>
      vscode.l10n.t(
        'Lost track of detaching {0}: {1}. The operation goes on; refresh the list to see where it stands.',
        l,
        e,
      ),
    failed: (l, why) => vscode.l10n.t('Detaching {0} failed: {1}', l, why ?? noReason()),
    slow: (l) =>
      vscode.l10n.t(
        'Detaching {0} is still in progress after an hour. Stopped waiting; the operation goes on.',
        l,
      ),
    done: (l) => vscode.l10n.t('Volume {0} is detached.', l),
  },
  destroy: {
    accepted: (l) =>
      vscode.l10n.t('Destroying {0}: accepted by TensorPool. The list refreshes as it progresses.', l),
    lostTrack: (l, e) =>
      vscode.l10n.t(
        'Lost track of destroying {0}: {1}. The operation goes on; refresh the list to see where it stands.',
        l,
        e,
      ),
    failed: (l, why) => vscode.l10n.t('Destroying {0} failed: {1}', l, why ?? noReason()),
    slow: (l) =>
      vscode.l10n.t(
        'Destroying {0} is still in progress after an hour. Stopped waiting; the operation goes on.',
        l,
      ),
    done: (l) => vscode.l10n.t('Volume {0} was destroyed.', l),
  },
};
