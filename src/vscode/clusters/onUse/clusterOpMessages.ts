/**
 * What a followed cluster operation says (shared/onUse/operationFollower.ts): one whole sentence per kind,
 * since word order differs between languages. Loaded with the actions (dist/actions.js).
 */
import * as vscode from 'vscode';
import type { ClusterOpKind } from '../../shared/store';
import { Commands } from '../../shared/commands';
import type { OperationWords } from '../../shared/onUse/operationFollower';

const noReason = (): string => vscode.l10n.t('TensorPool reported FAILED without a reason.');

/** The sentences every kind builds from its "Creating gpu-box". */
function words(
  logVerb: string,
  doing: (label: string) => string,
  lostTrack: (label: string, why: string) => string,
  done: (label: string) => string,
  next?: OperationWords['next'],
): OperationWords {
  return {
    logVerb,
    doing,
    accepted: (l) =>
      vscode.l10n.t('{0}: accepted by TensorPool. The list refreshes as it progresses.', doing(l)),
    lostTrack,
    failed: (l, why) => vscode.l10n.t('{0} failed: {1}', doing(l), why ?? noReason()),
    slow: (l, status, minutes) =>
      vscode.l10n.t(
        '{0} is still {1} after {2} minutes. Stopped waiting; the operation goes on.',
        doing(l),
        status ?? vscode.l10n.t('in progress'),
        minutes,
      ),
    done,
    next,
  };
}

export const CLUSTER_OP_MESSAGES: Readonly<Record<ClusterOpKind, OperationWords>> = {
  create: words(
    'Creating',
    (l) => vscode.l10n.t('Creating {0}', l),
    (l, e) =>
      vscode.l10n.t(
        'Lost track of creating {0}: {1}. The operation goes on; refresh the list to see where it stands.',
        l,
        e,
      ),
    (l) => vscode.l10n.t('Cluster {0} is ready.', l),
    [
      {
        title: () => vscode.l10n.t('Copy SSH Command'),
        run: (id) => void vscode.commands.executeCommand(Commands.copySshCommand, id),
      },
      {
        title: () => vscode.l10n.t('Show in TensorPool'),
        run: () => void vscode.commands.executeCommand('workbench.view.extension.tensorpool'),
      },
    ],
  ),
  destroy: words(
    'Destroying',
    (l) => vscode.l10n.t('Destroying {0}', l),
    (l, e) =>
      vscode.l10n.t(
        'Lost track of destroying {0}: {1}. The operation goes on; refresh the list to see where it stands.',
        l,
        e,
      ),
    (l) => vscode.l10n.t('Cluster {0} was destroyed.', l),
  ),
  edit: words(
    'Updating',
    (l) => vscode.l10n.t('Updating {0}', l),
    (l, e) =>
      vscode.l10n.t(
        'Lost track of updating {0}: {1}. The operation goes on; refresh the list to see where it stands.',
        l,
        e,
      ),
    (l) => vscode.l10n.t('Cluster {0} was updated.', l),
  ),
};
