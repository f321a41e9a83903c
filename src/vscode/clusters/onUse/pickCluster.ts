/**
 * Which cluster, and which of its nodes, a command is about — whatever the service gave: the
 * structured list, the clusters read from its text answer, the create answer's instance ids, or
 * GET /cluster/info/{id}, in that order. Pickers are never an unexplained empty list: they say why
 * and always offer "Enter an ID…".
 */
import * as vscode from 'vscode';
import { errorMessage, isTensorPoolError } from '../../../api/errors';
import { validateClusterRef } from '../../../model/validate';
import { clusterLabel, type Cluster, type Instance } from '../../../model/cluster';
import { clusterPickLabel, type ClusterPickLabel, type OperationKind } from '../../../model/labels';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import { Commands } from '../../shared/commands';
import type { Log } from '../../shared/log';
import type { Store } from '../../shared/store';
import type { ClustersController } from '../clusters';
import { notices } from '../../shared/notices';

/** The picker's "Enter an ID…" row, as a value (its label is translated). */
const ENTER_ID = 'enter-id';
const MAX_REMEMBERED = 50;

/** Instance ids from create answers, kept after the create is no longer followed. One instance per
 *  window, made where the actions are wired (actions.ts) and given to every finder and to create. */
export class CreatedInstances {
  private readonly byCluster = new Map<string, readonly string[]>();

  remember(clusterId: string, instanceIds: readonly string[]): void {
    if (instanceIds.length === 0) return;
    this.byCluster.delete(clusterId);
    this.byCluster.set(clusterId, instanceIds);
    if (this.byCluster.size > MAX_REMEMBERED) this.byCluster.delete(this.byCluster.keys().next().value!);
  }

  get(clusterId: string): readonly string[] | undefined {
    return this.byCluster.get(clusterId);
  }
}

/** The one cluster label (model/labels.ts), saying when the row was read from the server's text. */
function clusterPickItem(c: Cluster, operation?: OperationKind): ClusterPickLabel {
  const item = clusterPickLabel(c, operation);
  return c.source === 'text'
    ? { ...item, detail: vscode.l10n.t('{0} (read from the server’s text answer)', item.detail) }
    : item;
}

export interface PickRequest {
  readonly title: string;
  /** Only these clusters are offered (e.g. running ones to connect to). */
  readonly filter?: (c: Cluster) => boolean;
  /** Why a filtered-out cluster is not offered ("none is running"). */
  readonly filterWhy?: string;
}

export class ClusterFinder {
  constructor(
    private readonly list: ClustersController,
    /** The followed operations (the clusters being created). */
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    private readonly created: CreatedInstances,
  ) {}

  private refresh(): Promise<void> {
    return this.list.refresh();
  }

  /** Every cluster known: the list (structured, else read from text) and those being created. */
  known(): readonly Cluster[] {
    const listed = this.list.clusters;
    const ids = new Set(listed.map((c) => c.id));
    const extra = this.store.clusterOperations.flatMap((r) =>
      r.placeholder && !ids.has(r.id) ? [r.placeholder] : [],
    );
    return [...listed, ...extra];
  }

  /** Why the picker has nothing to offer, in words. */
  private emptyReason(all: readonly Cluster[], req: PickRequest): string {
    const { data, error } = this.list;
    if (error && !data) return vscode.l10n.t('The cluster list could not be loaded ({0}).', error.message);
    if (all.length > 0) return req.filterWhy ?? vscode.l10n.t('No cluster fits.');
    if (data && data.clusters === undefined)
      return vscode.l10n.t('The server answered with text only, and no cluster could be read from it.');
    return data?.includeOrg
      ? vscode.l10n.t('Your organisation has no clusters.')
      : vscode.l10n.t('You have no clusters yet.');
  }

  /** Ask which cluster (or for a typed ID); undefined when the user cancelled or nothing was found. */
  async pick(req: PickRequest): Promise<Cluster | undefined> {
    if (!this.list.data) await this.refresh();
    const all = this.known();
    const offered = req.filter ? all.filter(req.filter) : all;
    const why = offered.length === 0 ? this.emptyReason(all, req) : undefined;
    const answer = await this.prompts().pick<Cluster | typeof ENTER_ID>({
      title: req.title,
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: why
        ? vscode.l10n.t('{0} Enter a cluster ID instead.', why)
        : vscode.l10n.t('Which cluster?'),
      items: [
        ...offered.map((c) => ({ ...clusterPickItem(c, this.store.clusterOperation(c.id)?.kind), value: c })),
        {
          label: vscode.l10n.t('Enter an ID…'),
          detail: why ?? vscode.l10n.t('Type or paste a cluster ID or name.'),
          value: ENTER_ID,
        },
      ],
    });
    if (answer.kind !== 'value') return undefined;
    if (answer.value !== ENTER_ID) return answer.value;
    const typed = await this.prompts().input({
      title: req.title,
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: vscode.l10n.t('Cluster ID (or name)'),
      placeholder: 'c-1a2b3c…',
      value: '',
      validate: validateClusterRef,
    });
    return typed.kind === 'value' ? this.byId(typed.value.trim()) : undefined;
  }

  /** A cluster by id or name: from what is known, else GET /cluster/info. Says so when there is none. */
  async byId(ref: string): Promise<Cluster | undefined> {
    const found = this.known().find((c) => c.id === ref || c.name === ref);
    if (found) return found;
    try {
      const info = await (await this.api.client()).clusterInfo(ref);
      if (info.cluster) return info.cluster;
      this.log.info(`GET /cluster/info/${ref}: no cluster could be read from the answer.`);
    } catch (e) {
      if (isTensorPoolError(e) && e.kind === 'not-found') {
        void notices.showErrorMessage(
          vscode.l10n.t('No cluster "{0}" on TensorPool: {1}', ref, errorMessage(e)),
        );
        return undefined;
      }
      this.log.warn(`GET /cluster/info/${ref} failed: ${errorMessage(e)}`);
    }
    // The service did not describe it: act on the id as given (the action's own answer will tell).
    return { id: ref, instances: [] };
  }

  /**
   * The cluster with its nodes: from the structured list, the text, the create answer's instance
   * ids, then GET /cluster/info/{id}. Undefined only when none of them names a node.
   */
  async withInstances(cluster: Cluster): Promise<Cluster | undefined> {
    const hasAddress = (c: Cluster | undefined) => !!c && c.instances.some((i) => i.ip);
    if (hasAddress(cluster)) return cluster;
    const data = this.list.data;
    const candidates = [
      data?.clusters?.find((c) => c.id === cluster.id),
      data?.textClusters?.find((c) => c.id === cluster.id),
    ];
    const listed = candidates.find(hasAddress);
    if (listed) return listed;
    let info: Cluster | undefined;
    try {
      info = (await (await this.api.client()).clusterInfo(cluster.id)).cluster;
    } catch (e) {
      this.log.warn(`GET /cluster/info/${cluster.id} failed: ${errorMessage(e)}`);
    }
    if (hasAddress(info)) return info;
    const created = this.created.get(cluster.id)?.map((id): Instance => ({ id }));
    const named = [...candidates, info].find((c) => c && c.instances.length > 0)?.instances ?? created;
    if (named?.length) return { ...cluster, ...info, instances: named };
    const ip = cluster.ip ?? info?.ip;
    if (ip) {
      const sshPort = cluster.sshPort ?? info?.sshPort;
      const sshUser = cluster.sshUser ?? info?.sshUser;
      return { ...cluster, instances: [{ id: '', ip, sshPort, sshUser }] };
    }
    return undefined;
  }

  /** Said when no source names a node of the cluster: what happened and what to do next. */
  noNodes(cluster: Cluster): void {
    const message = vscode.l10n.t(
      'No node of {0} is known yet: neither the cluster list nor GET /cluster/info/{1} named one. If it was just created, wait until it is running, then try again.',
      clusterLabel(cluster),
      cluster.id,
    );
    this.log.warn(message);
    const refresh = vscode.l10n.t('Refresh');
    const showLog = vscode.l10n.t('Show Log');
    void notices.showWarningMessage(message, refresh, showLog).then((p) => {
      if (p === refresh) void this.refresh();
      if (p === showLog) void vscode.commands.executeCommand(Commands.showLog);
    });
  }
}
