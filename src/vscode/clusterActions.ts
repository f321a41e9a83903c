/**
 * Create, edit and destroy, from the palette or the tree. The wizards collect answers through the
 * Prompter; this module sends them (once: a duplicate GPU cluster costs real money), handles every
 * outcome without losing the answers, and follows the asynchronous request to its end.
 */
import * as vscode from 'vscode';
import type { TensorPoolClient } from '../api/client';
import { isTensorPoolError, type TensorPoolError, type ValidationError, errorMessage } from '../api/errors';
import { clusterLabel, type Cluster } from '../model/cluster';
import {
  FIELD_STEP,
  runCreateWizard,
  toCreateRequest,
  type CreateState,
  type CreateStepId,
  type LocalKey,
} from '../wizards/createCluster';
import { editChanges, runEditWizard, type EditState } from '../wizards/editCluster';
import type { Prompter } from '../wizards/prompter';
import type { ApiService } from './apiService';
import type { ClustersController } from './clusters';
import type { Log } from './log';
import type { RequestFollower } from './requestFollower';
import { readSettings } from './settings';
import { ClusterFinder, rememberCreated } from './pickCluster';
import type { Store } from './store';
import type { ClusterNode } from './views/clustersTree';

function errorKind(e: unknown): string {
  return isTensorPoolError(e) ? e.kind : 'unknown';
}

/** A message as a sentence (server messages often end without a full stop). */
function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** Failures after which a create, edit or destroy may or may not have happened on the server. */
const UNKNOWN_OUTCOME = new Set(['network', 'timeout', 'server', 'bad-response']);

export class ClusterActions {
  constructor(
    store: Store,
    private readonly api: ApiService,
    private readonly clusters: ClustersController,
    private readonly follower: RequestFollower,
    private readonly log: Log,
    /** The prompter in force: real quick inputs, or scripted answers in tests. */
    private readonly prompts: () => Prompter,
    private readonly keys: { list: () => Promise<LocalKey[]>; generate: () => Promise<LocalKey> },
    /** Called once a create was accepted (e.g. to remember the key file for ssh). */
    private readonly onCreated: (clusterId: string, state: CreateState) => void = () => undefined,
  ) {
    this.finder = new ClusterFinder(store, api, log, prompts, () => clusters.refresh());
  }

  private readonly finder: ClusterFinder;

  private knownClusters(): readonly Cluster[] {
    return this.finder.known();
  }

  /** The cluster a command is about: the tree node it was invoked on, an id or name, or a pick. */
  private async resolveCluster(arg: unknown, title: string): Promise<Cluster | undefined> {
    const node = arg as ClusterNode | undefined;
    if (node && typeof node === 'object' && (node.kind === 'cluster' || node.kind === 'instance'))
      return node.cluster;
    if (typeof arg === 'string' && arg.trim()) return this.finder.byId(arg.trim());
    return this.finder.pick({ title });
  }

  // ---- create ------------------------------------------------------------------------------------

  async create(): Promise<string | undefined> {
    let client: TensorPoolClient;
    try {
      client = await this.api.client();
    } catch (e) {
      void vscode.window.showErrorMessage(errorMessage(e));
      return undefined;
    }
    let state: CreateState | undefined;
    let startAt: CreateStepId | undefined;
    let errors: Partial<Record<CreateStepId, string>> | undefined;
    for (;;) {
      state = await runCreateWizard(
        {
          prompter: this.prompts(),
          localKeys: this.keys.list,
          generateKey: this.keys.generate,
          existingNames: () =>
            this.knownClusters()
              .map((c) => c.name)
              .filter((n): n is string => !!n),
          imageField: readSettings().imageField,
        },
        { initial: state, startAt, errors },
      );
      if (!state) return undefined;
      const body = toCreateRequest(state);
      try {
        const res = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: `Creating cluster ${body.tp_cluster_name ?? body.instance_type}…`,
          },
          () => client.createCluster(body),
        );
        this.log.info(`Cluster create accepted: ${res.cluster_id} (request ${res.request_id ?? 'none'})`);
        this.afterCreate(state, res.cluster_id, res.request_id ?? undefined, res.instance_ids ?? []);
        return res.cluster_id;
      } catch (e) {
        const next = await this.createFailed(e);
        if (next === 'stop') return undefined;
        startAt = next.startAt;
        errors = next.errors;
      }
    }
  }

  /** Decide what to do after a failed create; never resends by itself. */
  private async createFailed(
    e: unknown,
  ): Promise<'stop' | { startAt?: CreateStepId; errors?: Partial<Record<CreateStepId, string>> }> {
    const err = e as TensorPoolError;
    this.log.warn(`Cluster create failed: ${errorKind(e)}: ${errorMessage(e)}`);
    if (errorKind(e) === 'validation') {
      const v = err as ValidationError;
      const errors: Partial<Record<CreateStepId, string>> = {};
      for (const f of v.fieldErrors) {
        const step = FIELD_STEP[f.field];
        if (step) errors[step] = errors[step] ? `${errors[step]}; ${f.message}` : f.message;
      }
      const first = (
        ['instanceType', 'numNodes', 'name', 'key', 'container', 'deletionProtection'] as CreateStepId[]
      ).find((s) => errors[s]);
      if (first) return { startAt: first, errors };
      return { startAt: 'summary', errors: {} };
    }
    if (errorKind(e) === 'conflict') {
      const pick = await this.prompts().confirm({
        message: `TensorPool refused the cluster: ${err.message}`,
        actions: ['Change Name'],
        modal: false,
        severity: 'error',
      });
      return pick === 'Change Name' ? { startAt: 'name', errors: { name: err.message } } : 'stop';
    }
    const mayHaveReached = isTensorPoolError(e) ? e.mayHaveReachedServer : true;
    // A lost connection or answer, a 5xx (a gateway's 502/504 says nothing about the service behind
    // it) or an answer we could not read (a cut-off 202): the request may have been acted on.
    if (UNKNOWN_OUTCOME.has(errorKind(e)) && mayHaveReached) {
      // The request may have been received: sending it again could create a second cluster.
      const how =
        errorKind(e) === 'network' || errorKind(e) === 'timeout'
          ? 'The connection failed after the create request was sent'
          : errorKind(e) === 'server'
            ? 'TensorPool answered with a server error after receiving the create request'
            : "TensorPool's answer to the create request could not be read";
      const pick = await this.prompts().confirm({
        message: 'The cluster may or may not have been created.',
        detail: `${how} (${err.message}). Check the cluster list before trying again: sending it again could create a second cluster.`,
        actions: ['Check Cluster List', 'Edit Answers'],
        modal: true,
        severity: 'warning',
      });
      if (pick === 'Check Cluster List') {
        void vscode.commands.executeCommand('workbench.view.extension.tensorpool');
        await this.clusters.refresh();
        return 'stop';
      }
      return pick === 'Edit Answers' ? { startAt: 'summary' } : 'stop';
    }
    const prefix =
      errorKind(e) === 'forbidden'
        ? 'This token may not create clusters'
        : errorKind(e) === 'network'
          ? 'Nothing was created: could not reach TensorPool'
          : 'The cluster was not created';
    const pick = await this.prompts().confirm({
      message: `${prefix}: ${err.message}`,
      actions: ['Try Again', 'Edit Answers'],
      modal: false,
      severity: 'error',
    });
    if (pick === 'Try Again') return { startAt: 'summary' };
    if (pick === 'Edit Answers') return { startAt: 'instanceType' };
    return 'stop';
  }

  private afterCreate(
    state: CreateState,
    clusterId: string,
    requestId: string | undefined,
    instanceIds: string[],
  ): void {
    this.onCreated(clusterId, state);
    rememberCreated(clusterId, instanceIds);
    const body = toCreateRequest(state);
    const placeholder: Cluster = {
      id: clusterId,
      name: body.tp_cluster_name,
      instanceType: body.instance_type,
      numNodes: body.num_nodes,
      status: 'PROVISIONING',
      deletionProtection: body.deletion_protection,
      instances: instanceIds.map((id) => ({ id, status: 'PROVISIONING' })),
    };
    void this.follower.follow({
      kind: 'create',
      requestId,
      clusterId,
      label: body.tp_cluster_name ?? clusterId,
      placeholder,
    });
  }

  // ---- edit --------------------------------------------------------------------------------------

  async edit(arg?: unknown): Promise<boolean> {
    const preselected = await this.resolveCluster(arg, 'Edit which cluster?');
    if (!preselected) return false;
    let state: EditState | undefined;
    let startAt: 'name' | 'deletionProtection' | 'summary' | undefined;
    let errors: Partial<Record<'name' | 'deletionProtection', string>> | undefined;
    for (;;) {
      state = await runEditWizard(
        { prompter: this.prompts(), clusters: () => this.knownClusters() },
        { cluster: preselected, initial: state, startAt, errors },
      );
      if (!state?.cluster) return false;
      const changes = editChanges(state);
      if (Object.keys(changes).length === 0) {
        void vscode.window.showInformationMessage(
          `Nothing changed on ${clusterLabel(state.cluster)}; nothing was sent.`,
        );
        return false;
      }
      try {
        const client = await this.api.client();
        const res = await client.editCluster(state.cluster.id, changes);
        void vscode.window.showInformationMessage(
          `${clusterLabel(state.cluster)}: ${res.message ?? 'changes accepted'}.`,
        );
        await this.clusters.refresh();
        return true;
      } catch (e) {
        this.log.warn(`Cluster edit failed: ${errorKind(e)}: ${errorMessage(e)}`);
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
          void vscode.window.showErrorMessage(
            `Could not edit ${clusterLabel(state.cluster)}: ${sentence(errorMessage(e))} It no longer exists on TensorPool; the list was refreshed.`,
          );
          await this.clusters.refresh();
          return false;
        }
        const pick = await this.prompts().confirm({
          message: `Could not edit ${clusterLabel(state.cluster)}: ${errorMessage(e)}`,
          actions: ['Try Again', 'Edit Answers'],
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
    const cluster = await this.resolveCluster(arg, 'Destroy which cluster?');
    if (!cluster) return false;
    const label = clusterLabel(cluster);
    let client: TensorPoolClient;
    try {
      client = await this.api.client();
    } catch (e) {
      void vscode.window.showErrorMessage(errorMessage(e));
      return false;
    }

    if (cluster.deletionProtection) {
      const off = 'Turn Off Protection';
      const offAndDestroy = 'Turn Off Protection and Destroy';
      const pick = await this.prompts().confirm({
        message: `${label} has deletion protection on, so it cannot be destroyed.`,
        detail:
          'Protected clusters must have deletion protection turned off (a cluster edit) before they can be destroyed.',
        actions: [off, offAndDestroy],
        modal: true,
      });
      if (!pick) return false;
      try {
        await client.editCluster(cluster.id, { deletion_protection: false });
      } catch (e) {
        void vscode.window.showErrorMessage(
          `Could not turn off deletion protection on ${label}: ${errorMessage(e)}`,
        );
        return false;
      }
      await this.clusters.refresh();
      if (pick === off) {
        void vscode.window.showInformationMessage(`Deletion protection is off for ${label}.`);
        return false;
      }
    }

    if (!(await this.confirmDestroy(cluster))) return false;
    try {
      const res = await client.destroyCluster(cluster.id);
      this.log.info(`Cluster destroy accepted: ${cluster.id} (request ${res.request_id ?? 'none'})`);
      void this.follower.follow({
        kind: 'destroy',
        requestId: res.request_id ?? undefined,
        clusterId: cluster.id,
        label,
      });
      return true;
    } catch (e) {
      const kind = errorKind(e);
      if (kind === 'not-found') {
        // Already gone (destroyed elsewhere): say so and show the list as it is now.
        void vscode.window.showErrorMessage(
          `Could not destroy ${label}: ${sentence(errorMessage(e))} It no longer exists on TensorPool; the list was refreshed.`,
        );
        await this.clusters.refresh();
        return false;
      }
      const extra =
        kind === 'conflict'
          ? ' If deletion protection is on, turn it off first (Edit Cluster).'
          : UNKNOWN_OUTCOME.has(kind) && isTensorPoolError(e) && e.mayHaveReachedServer
            ? ' The request may have reached TensorPool: refresh the list before trying again.'
            : '';
      void vscode.window
        .showErrorMessage(`Could not destroy ${label}: ${errorMessage(e)}${extra}`, 'Refresh')
        .then((p) => {
          if (p) void this.clusters.refresh();
        });
      return false;
    }
  }

  private async confirmDestroy(cluster: Cluster): Promise<boolean> {
    const label = clusterLabel(cluster);
    const mode = vscode.workspace
      .getConfiguration('tensorpool')
      .get<string>('destroyConfirmation', 'typeName');
    if (mode === 'button') {
      const pick = await this.prompts().confirm({
        message: `Destroy ${label}?`,
        detail: 'The nodes are released and everything on their disks is lost. This cannot be undone.',
        actions: ['Destroy'],
        modal: true,
      });
      return pick === 'Destroy';
    }
    const typed = await this.prompts().input({
      title: `Destroy ${label}`,
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: `Type the cluster name "${label}" to destroy it. Its nodes and their disks are released; this cannot be undone.`,
      value: '',
      placeholder: label,
      validate: (v) => (v === '' || v === label ? undefined : `Type exactly "${label}" to confirm.`),
    });
    return typed.kind === 'value' && typed.value === label;
  }

  // ---- small actions -----------------------------------------------------------------------------

  async copyId(arg?: unknown): Promise<void> {
    const c = await this.resolveCluster(arg, 'Copy the id of which cluster?');
    if (!c) return;
    await vscode.env.clipboard.writeText(c.id);
    vscode.window.setStatusBarMessage(`$(check) Copied cluster id ${c.id}`, 3000);
  }

  async copyIp(arg?: unknown): Promise<void> {
    const node = arg as ClusterNode | undefined;
    const onInstance = !!node && typeof node === 'object' && node.kind === 'instance';
    const c = await this.resolveCluster(arg, 'Copy the IP of which cluster?');
    if (!c) return;
    const found = onInstance ? node.cluster : await this.finder.withInstances(c);
    const ip = onInstance ? node.instance.ip : (found?.instances.find((i) => i.ip)?.ip ?? found?.ip);
    if (!ip) {
      if (found) void vscode.window.showInformationMessage(`${clusterLabel(c)} has no IP address yet.`);
      else this.finder.noNodes(c);
      return;
    }
    await vscode.env.clipboard.writeText(ip);
    vscode.window.setStatusBarMessage(`$(check) Copied ${ip}`, 3000);
  }
}
