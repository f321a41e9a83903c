/**
 * What a followed volume operation says (shared/onUse/operationFollower.ts): one whole sentence per kind of
 * operation, since word order differs between languages. Loaded with the actions (dist/actions.js).
 */
import * as vscode from 'vscode';
import type { VolumeOpKind } from '../../shared/store';
import type { OperationWords } from '../../shared/onUse/operationFollower';

const noReason = (): string => vscode.l10n.t('TensorPool reported FAILED without a reason.');

export const VOLUME_OP_MESSAGES: Readonly<Record<VolumeOpKind, OperationWords>> = {
  create: {
    logVerb: 'Creating',
    doing: (l) => vscode.l10n.t('Creating {0}', l),
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
    logVerb: 'Attaching',
    doing: (l) => vscode.l10n.t('Attaching {0}', l),
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
    logVerb: 'Detaching',
    doing: (l) => vscode.l10n.t('Detaching {0}', l),
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
    logVerb: 'Destroying',
    doing: (l) => vscode.l10n.t('Destroying {0}', l),
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
