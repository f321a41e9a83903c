/**
 * Edit, destroy and the small copy actions, from the palette or the tree (create is in
 * createClusterAction.ts). The wizards collect answers through the Prompter; this module sends them
 * once, handles every outcome without losing the answers, and follows the asynchronous request.
 */
import * as vscode from 'vscode';
import type { TensorPoolClient } from '../../../api/client';
import { isTensorPoolError, type ValidationError, errorMessage } from '../../../api/errors';
import { clusterLabel, type Cluster } from '../../../model/cluster';
import { editSentence } from '../../../model/labels';
import { outcomeUnknown } from '../../../model/outcome';
import { editChanges, runEditWizard, type EditState } from '../../../wizards/editCluster';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import type { ClustersController } from '../clusters';
import type { Log } from '../../shared/log';
import type { ClusterFinder, CreatedInstances } from './pickCluster';
import type { OperationFollower } from '../../shared/onUse/operationFollower';
import { readSettings } from '../../shared/settings';
import type { ClusterNode } from '../clustersTree';
import { notices } from '../../shared/notices';

export function errorKind(e: unknown): string {
  return isTensorPoolError(e) ? e.kind : 'unknown';
}

/** Whether a failed mutating request may have been acted on anyway (see model/outcome.ts). */
export function mayHaveHappened(e: unknown): boolean {
  return outcomeUnknown(errorKind(e), isTensorPoolError(e) ? e.mayHaveReachedServer : true);
}

/** A message as a sentence (server messages often end without a full stop). */
function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** What the cluster commands (this file and createClusterAction.ts) work with. */
export interface ClusterCommandDeps {
  readonly api: ApiService;
  readonly clusters: ClustersController;
  readonly follower: OperationFollower;
  readonly log: Log;
  /** The prompter in force: real quick inputs, or scripted answers in tests. */
  readonly prompts: () => Prompter;
  /** Instance ids from create answers (one per window; see pickCluster.ts). */
  readonly created: CreatedInstances;
  /** Which cluster a command is about (one per window, shared with connect and ports). */
  readonly finder: ClusterFinder;
}

export class ClusterActions {
  private readonly finder: ClusterFinder;

  constructor(private readonly d: ClusterCommandDeps) {
    this.finder = d.finder;
  }

  /** The cluster a command is about: the tree node it was invoked on, an id or name, or a pick. */
  /** The cluster a GPU monitor is asked for: a tree row, an id, or a pick. */
  resolveTarget(arg: unknown): Promise<Cluster | undefined> {
    return this.resolveCluster(arg, vscode.l10n.t('Show the GPUs of which cluster?'));
  }

  private async resolveCluster(arg: unknown, title: string): Promise<Cluster | undefined> {
    const node = arg as ClusterNode | undefined;
    if (node && typeof node === 'object' && (node.kind === 'cluster' || node.kind === 'instance'))
      return node.cluster;
    if (typeof arg === 'string' && arg.trim()) return this.finder.byId(arg.trim());
    return this.finder.pick({ title });
  }

  // ---- edit --------------------------------------------------------------------------------------

  async edit(arg?: unknown): Promise<boolean> {
    const preselected = await this.resolveCluster(arg, vscode.l10n.t('Edit which cluster?'));
    if (!preselected) return false;
    let state: EditState | undefined;
    let startAt: 'name' | 'deletionProtection' | 'summary' | undefined;
    let errors: Partial<Record<'name' | 'deletionProtection', string>> | undefined;
    for (;;) {
      state = await runEditWizard(
        { prompter: this.d.prompts(), clusters: () => this.finder.known() },
        { cluster: preselected, initial: state, startAt, errors },
      );
      if (!state?.cluster) return false;
      const changes = editChanges(state);
      if (Object.keys(changes).length === 0) {
        void notices.showInformationMessage(
          vscode.l10n.t('Nothing changed on {0}; nothing was sent.', clusterLabel(state.cluster)),
        );
        return false;
      }
      try {
        const client = await this.d.api.client();
        const res = await client.editCluster(state.cluster.id, changes);
        this.d.log.info(
          `Cluster edit accepted: ${state.cluster.id} (${JSON.stringify(changes)}): ${res.message ?? 'no message'}`,
        );
        void notices.showInformationMessage(editSentence(clusterLabel(state.cluster), changes));
        await this.d.clusters.refresh();
        return true;
      } catch (e) {
        this.d.log.warn(`Cluster edit failed: ${errorKind(e)}: ${errorMessage(e)}`);
        if (errorKind(e) === 'validation' || errorKind(e) === 'conflict') {
          const v = e as ValidationError;
          const forProtection = v.fieldErrors?.find((f) => f.field === 'deletion_protection')?.message;
          const forName =
            v.fieldErrors?.find((f) => f.field === 'cluster_name')?.message ??
            (forProtection ? undefined : v.message);
          startAt = forName ? 'name' : 'deletionProtection';
          errors = { name: forName, deletionProtection: forProtection };
          continue;
        }
        if (errorKind(e) === 'not-found') {
          // Gone (destroyed elsewhere): trying again cannot help. Say so and show the list as it is now.
          void notices.showErrorMessage(
            vscode.l10n.t(
              'Could not edit {0}: {1} It no longer exists on TensorPool; the list was refreshed.',
              clusterLabel(state.cluster),
              sentence(errorMessage(e)),
            ),
          );
          await this.d.clusters.refresh();
          return false;
        }
        const pick = await this.d.prompts().confirm({
          message: vscode.l10n.t('Could not edit {0}: {1}', clusterLabel(state.cluster), errorMessage(e)),
          actions: [vscode.l10n.t('Try Again'), vscode.l10n.t('Edit Answers')],
          modal: false,
          severity: 'error',
        });
        if (!pick) return false;
        startAt = 'summary';
        errors = undefined;
      }
    }
  }

  // ---- destroy -----------------------------------------------------------------------------------

  async destroy(arg?: unknown): Promise<boolean> {
    const cluster = await this.resolveCluster(arg, vscode.l10n.t('Destroy which cluster?'));
    if (!cluster) return false;
    const label = clusterLabel(cluster);
    let client: TensorPoolClient;
    try {
      client = await this.d.api.client();
    } catch (e) {
      void notices.showErrorMessage(errorMessage(e));
      return false;
    }

    if (cluster.deletionProtection) {
      const off = vscode.l10n.t('Turn Off Protection');
      const offAndDestroy = vscode.l10n.t('Turn Off Protection and Destroy');
      const pick = await this.d.prompts().confirm({
        message: vscode.l10n.t('{0} has deletion protection on, so it cannot be destroyed.', label),
        detail: vscode.l10n.t(
          'Protected clusters must have deletion protection turned off (a cluster edit) before they can be destroyed.',
        ),
        actions: [off, offAndDestroy],
        modal: true,
      });
      if (!pick) return false;
      try {
        await client.editCluster(cluster.id, { deletion_protection: false });
        this.d.log.info(`Cluster edit accepted: ${cluster.id} (deletion protection off, before destroy)`);
      } catch (e) {
        void notices.showErrorMessage(
          vscode.l10n.t('Could not turn off deletion protection on {0}: {1}', label, errorMessage(e)),
        );
        return false;
      }
      await this.d.clusters.refresh();
      if (pick === off) {
        void notices.showInformationMessage(vscode.l10n.t('Deletion protection is off for {0}.', label));
        return false;
      }
    }

    if (!(await this.confirmDestroy(cluster))) return false;
    try {
      const res = await client.destroyCluster(cluster.id);
      this.d.log.info(`Cluster destroy accepted: ${cluster.id} (request ${res.request_id ?? 'none'})`);
      void this.d.follower.follow(
        { target: 'cluster', kind: 'destroy', id: cluster.id, label },
        res.request_id ? [res.request_id] : [],
      );
      return true;
    } catch (e) {
      const kind = errorKind(e);
      if (kind === 'not-found') {
        // Already gone (destroyed elsewhere): say so and show the list as it is now.
        void notices.showErrorMessage(
          vscode.l10n.t(
            'Could not destroy {0}: {1} It no longer exists on TensorPool; the list was refreshed.',
            label,
            sentence(errorMessage(e)),
          ),
        );
        await this.d.clusters.refresh();
        return false;
      }
      const message =
        kind === 'conflict'
          ? vscode.l10n.t(
              'Could not destroy {0}: {1} If deletion protection is on, turn it off first (Edit Cluster).',
              label,
              errorMessage(e),
            )
          : mayHaveHappened(e)
            ? vscode.l10n.t(
                'Could not destroy {0}: {1} The request may have reached TensorPool: refresh the list before trying again.',
                label,
                errorMessage(e),
              )
            : vscode.l10n.t('Could not destroy {0}: {1}', label, errorMessage(e));
      void notices.showErrorMessage(message, vscode.l10n.t('Refresh')).then((p) => {
        if (p) void this.d.clusters.refresh();
      });
      return false;
    }
  }

  private async confirmDestroy(cluster: Cluster): Promise<boolean> {
    const label = clusterLabel(cluster);
    if (readSettings().destroyConfirmation === 'button') {
      const destroy = vscode.l10n.t('Destroy');
      const pick = await this.d.prompts().confirm({
        message: vscode.l10n.t('Destroy {0}?', label),
        detail: vscode.l10n.t(
          'The nodes are released and everything on their disks is lost. This cannot be undone.',
        ),
        actions: [destroy],
        modal: true,
      });
      return pick === destroy;
    }
    const typed = await this.d.prompts().input({
      title: vscode.l10n.t('Destroy {0}', label),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: vscode.l10n.t(
        'Type the cluster name "{0}" to destroy it. Its nodes and their disks are released; this cannot be undone.',
        label,
      ),
      value: '',
      placeholder: label,
      validate: (v) =>
        v === '' || v === label ? undefined : vscode.l10n.t('Type exactly "{0}" to confirm.', label),
    });
    return typed.kind === 'value' && typed.value === label;
  }

  // ---- small actions -----------------------------------------------------------------------------

  async copyId(arg?: unknown): Promise<void> {
    const c = await this.resolveCluster(arg, vscode.l10n.t('Copy the id of which cluster?'));
    if (!c) return;
    await vscode.env.clipboard.writeText(c.id);
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied cluster id {0}', c.id), 3000);
  }

  async copyIp(arg?: unknown): Promise<void> {
    const node = arg as ClusterNode | undefined;
    const onInstance = !!node && typeof node === 'object' && node.kind === 'instance';
    const c = await this.resolveCluster(arg, vscode.l10n.t('Copy the IP of which cluster?'));
    if (!c) return;
    const found = onInstance ? node.cluster : await this.finder.withInstances(c);
    const ip = onInstance ? node.instance.ip : (found?.instances.find((i) => i.ip)?.ip ?? found?.ip);
    if (!ip) {
      if (found)
        void notices.showInformationMessage(vscode.l10n.t('{0} has no IP address yet.', clusterLabel(c)));
      else this.finder.noNodes(c);
      return;
    }
    await vscode.env.clipboard.writeText(ip);
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied {0}', ip), 3000);
  }
}
