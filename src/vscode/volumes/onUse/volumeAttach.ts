/**
 * Attach a volume to a cluster (from the volume or from the cluster) and detach it, one cluster at
 * a time. Only eligible clusters can be picked (multi-node GPU clusters and CPU instances); the
 * others are listed with the reason. Attaching restarts every node of the cluster, so it is
 * confirmed first; every request id the service returns is followed to its end.
 */
import { errorMessage, isTensorPoolError } from '../../../api/errors';
import { clusterLabel, clusterShape, type Cluster } from '../../../model/cluster';
import { attachIneligibility, mountPath, volumeLabel, type Volume } from '../../../model/volume';
import type { PickItem, Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import type { ClustersController } from '../../clusters';
import type { VolumeActions } from './volumeActions';
import type { VolumesController } from '../volumes';
import * as vscode from 'vscode';
import { notices } from '../../shared/notices';

const UNKNOWN = new Set(['network', 'timeout', 'server', 'bad-response']);

type ClusterChoice =
  { kind: 'cluster'; cluster: Cluster } | { kind: 'ineligible'; reason: string } | { kind: 'enter' };

export class VolumeAttach {
  constructor(
    private readonly clusters: ClustersController,
    private readonly volumes: VolumesController,
    private readonly actions: VolumeActions,
    private readonly api: ApiService,
    private readonly prompts: () => Prompter,
  ) {}

  private refreshClusters(): Promise<void> {
    return this.clusters.refresh();
  }

  private async pickCluster(volume: Volume): Promise<{ id: string; label: string } | undefined> {
    if (!this.clusters.data) await this.refreshClusters();
    const all = this.clusters.data?.clusters ?? [];
    const attached = new Set(volume.attachments.map((a) => a.clusterId));
    const items = all.map((c): PickItem<ClusterChoice> => {
      const why = attached.has(c.id) ? vscode.l10n.t('Already attached.') : attachIneligibility(c);
      return {
        // eslint-disable-next-line tensorpool/l10n -- an icon and the cluster's name: nothing to translate
        label: why ? `$(circle-slash) ${clusterLabel(c)}` : clusterLabel(c),
        description: [clusterShape(c), c.status].filter(Boolean).join(' · '),
        detail: why ? vscode.l10n.t('Not eligible: {0}', why) : c.id,
        value: why
          ? { kind: 'ineligible', reason: vscode.l10n.t('{0}: {1}', clusterLabel(c), why) }
          : { kind: 'cluster', cluster: c },
      };
    });
    const eligible = items.filter((i) => i.value.kind === 'cluster').length;
    const why =
      this.clusters.data?.clusters === undefined
        ? vscode.l10n.t('The service listed clusters as text only')
        : all.length === 0
          ? vscode.l10n.t('You have no clusters')
          : eligible === 0
            ? vscode.l10n.t(
                'None of your clusters can take a volume (multi-node GPU clusters and CPU instances only)',
              )
            : undefined;
    for (;;) {
      const picked = await this.prompts().pick<ClusterChoice>({
        title: vscode.l10n.t('Attach {0} to a cluster', volumeLabel(volume)),
        step: 1,
        totalSteps: 1,
        canGoBack: false,
        placeholder: why
          ? vscode.l10n.t('{0}: enter a cluster ID', why)
          : vscode.l10n.t('Which cluster? (it is mounted at {0})', mountPath(volume.id)),
        items: [
          ...items,
          { label: vscode.l10n.t('$(edit) Enter an ID…'), description: why, value: { kind: 'enter' } },
        ],
      });
      if (picked.kind !== 'value') return undefined;
      const v = picked.value;
      if (v.kind === 'cluster') return { id: v.cluster.id, label: clusterLabel(v.cluster) };
      if (v.kind === 'ineligible') {
        // Said, not asked: the picker opens again at once.
        void this.prompts().confirm({ message: v.reason, actions: [], modal: false, severity: 'warning' });
        continue;
      }
      const typed = await this.prompts().input({
        title: vscode.l10n.t('Cluster ID'),
        step: 1,
        totalSteps: 1,
        canGoBack: false,
        prompt: vscode.l10n.t('Cluster ID to attach the volume to'),
        value: '',
        validate: (x) => (x.trim() === '' ? vscode.l10n.t('Enter a cluster ID.') : undefined),
      });
      return typed.kind === 'value' ? { id: typed.value.trim(), label: typed.value.trim() } : undefined;
    }
  }

  async attach(arg?: unknown): Promise<boolean> {
    const node = arg as { kind?: string; cluster?: Cluster } | undefined;
    const fromCluster =
      node && typeof node === 'object' && node.kind === 'cluster' ? node.cluster : undefined;
    const volume = await this.actions.resolveVolume(
      fromCluster ? undefined : arg,
      vscode.l10n.t('Attach which volume?'),
    );
    if (!volume) return false;
    let target: { id: string; label: string } | undefined;
    if (fromCluster) {
      const why = attachIneligibility(fromCluster);
      if (why) {
        void notices.showWarningMessage(
          vscode.l10n.t('{0} cannot take a volume: {1}', clusterLabel(fromCluster), why),
        );
        return false;
      }
      target = { id: fromCluster.id, label: clusterLabel(fromCluster) };
    } else target = await this.pickCluster(volume);
    if (!target) return false;
    const ok = await this.prompts().confirm({
      message: vscode.l10n.t('Attach {0} to {1}?', volumeLabel(volume), target.label),
      detail: vscode.l10n.t(
        'Attaching restarts every node of {0}: running work on them stops. The volume is mounted at {1} on every node.',
        target.label,
        mountPath(volume.id),
      ),
      actions: [vscode.l10n.t('Attach and Restart Nodes')],
      modal: true,
      severity: 'warning',
    });
    if (!ok) return false;
    try {
      const client = await this.api.client();
      const res = await client.volumes.attachVolume({ storage_id: volume.id, cluster_ids: [target.id] });
      const ids = res.request_ids ?? (res.request_id ? [res.request_id] : []);
      void this.actions.follower
        .follow(
          {
            target: 'volume',
            kind: 'attach',
            id: volume.id,
            label: `${volumeLabel(volume)} → ${target.label}`,
          },
          ids,
        )
        .then(() => this.refreshClusters());
      return true;
    } catch (e) {
      if (isTensorPoolError(e) && UNKNOWN.has(e.kind) && e.mayHaveReachedServer) {
        // The request may have been acted on: never sent again by itself.
        const pick = await this.prompts().confirm({
          message: vscode.l10n.t('The volume may or may not have been attached.'),
          detail: vscode.l10n.t(
            '{0}. Check the volume list before trying again: the nodes of {1} may be restarting.',
            errorMessage(e),
            target.label,
          ),
          actions: [vscode.l10n.t('Check Volume List')],
          modal: true,
          severity: 'warning',
        });
        if (pick) await Promise.all([this.volumes.refresh(), this.refreshClusters()]);
        return false;
      }
      void notices.showErrorMessage(
        vscode.l10n.t('Could not attach {0} to {1}: {2}', volumeLabel(volume), target.label, errorMessage(e)),
      );
      return false;
    }
  }

  async detach(arg?: unknown): Promise<boolean> {
    const node = arg as
      | {
          kind?: string;
          cluster?: Cluster;
          volume?: { id: string; name?: string };
          attachment?: { clusterId: string; clusterName?: string };
        }
      | undefined;
    let clusterId: string | undefined;
    let clusterName: string | undefined;
    if (node && typeof node === 'object' && node.kind === 'clusterVolume' && node.cluster) {
      clusterId = node.cluster.id;
      clusterName = clusterLabel(node.cluster);
    } else if (node && typeof node === 'object' && node.kind === 'attachment' && node.attachment) {
      clusterId = node.attachment.clusterId;
      clusterName = node.attachment.clusterName;
    }
    const volume = await this.actions.resolveVolume(arg, vscode.l10n.t('Detach which volume?'));
    if (!volume) return false;
    if (!clusterId) {
      const options = volume.attachments;
      if (options.length === 0) {
        void notices.showInformationMessage(
          vscode.l10n.t('{0} is not attached to any cluster.', volumeLabel(volume)),
        );
        return false;
      }
      const picked = await this.prompts().pick<{ id: string; name?: string }>({
        title: vscode.l10n.t('Detach {0}', volumeLabel(volume)),
        step: 1,
        totalSteps: 1,
        canGoBack: false,
        placeholder: vscode.l10n.t('From which cluster? (one at a time)'),
        items: options.map((a) => ({
          label: a.clusterName ?? a.clusterId,
          description: a.status,
          detail: a.clusterId,
          value: { id: a.clusterId, name: a.clusterName },
        })),
      });
      if (picked.kind !== 'value') return false;
      clusterId = picked.value.id;
      clusterName = picked.value.name;
    }
    const target = clusterName ?? clusterId;
    const ok = await this.prompts().confirm({
      message: vscode.l10n.t('Detach {0} from {1}?', volumeLabel(volume), target),
      detail: vscode.l10n.t(
        '{0} disappears from every node of {1}; anything still writing there fails.',
        mountPath(volume.id),
        target,
      ),
      actions: [vscode.l10n.t('Detach')],
      modal: true,
      severity: 'warning',
    });
    if (!ok) return false;
    try {
      const client = await this.api.client();
      const res = await client.volumes.detachVolume({ storage_id: volume.id, cluster_id: clusterId });
      void this.actions.follower
        .follow(
          {
            target: 'volume',
            kind: 'detach',
            id: volume.id,
            label: vscode.l10n.t('{0} from {1}', volumeLabel(volume), target),
          },
          res.request_id ? [res.request_id] : [],
        )
        .then(() => this.refreshClusters());
      return true;
    } catch (e) {
      void notices.showErrorMessage(
        vscode.l10n.t('Could not detach {0} from {1}: {2}', volumeLabel(volume), target, errorMessage(e)),
      );
      return false;
    }
  }
}
