/**
 * Create a cluster from the palette or the tree. The wizard collects the answers through the Prompter;
 * this module sends them once (a duplicate GPU cluster costs real money), handles every outcome
 * without losing the answers, and follows the asynchronous request to its end.
 */
import * as vscode from 'vscode';
import { PriceQuotes } from '../../../model/priceQuotes';
import type { TensorPoolClient } from '../../../api/client';
import { errorMessage, type TensorPoolError, type ValidationError } from '../../../api/errors';
import { clusterLabel, type Cluster } from '../../../model/cluster';
import { unknownCreateReason } from '../../../model/outcome';
import {
  FIELD_STEP,
  runCreateWizard,
  toCreateRequest,
  type CreateState,
  type CreateStepId,
  type LocalKey,
} from '../../../wizards/createCluster';
import type { SavedKeys } from '../../../wizards/savedKeys';
import { errorKind, mayHaveHappened, type ClusterCommandDeps } from './clusterActions';
import { readSettings } from '../../shared/settings';
import { notices } from '../../shared/notices';

export class CreateClusterAction {
  constructor(
    private readonly d: ClusterCommandDeps,
    private readonly keys: {
      list: () => Promise<LocalKey[]>;
      generate: () => Promise<LocalKey>;
      /** The keys saved on the account, for the wizard's "no new key" row (sshKeys.ts). */
      saved?: () => Promise<SavedKeys | undefined>;
    },
    /** Called once a create was accepted (e.g. to remember the key file for ssh). */
    private readonly onCreated: (clusterId: string, state: CreateState) => void = () => undefined,
  ) {}

  private knownClusters(): readonly Cluster[] {
    return this.d.clusters.clusters;
  }

  async create(): Promise<string | undefined> {
    let client: TensorPoolClient;
    try {
      client = await this.d.api.client();
    } catch (e) {
      void notices.showErrorMessage(errorMessage(e));
      return undefined;
    }
    // Prices while the user answers; a failed or missing quote is no price (api/quotes.ts).
    const prices = new PriceQuotes(async (type: string, nodes: number) => {
      const answer = await client.clusterQuote(type, nodes);
      return answer.kind === 'price' ? answer.hourlyRate : undefined;
    });
    let state: CreateState | undefined;
    let startAt: CreateStepId | undefined;
    let errors: Partial<Record<CreateStepId, string>> | undefined;
    for (;;) {
      state = await runCreateWizard(
        {
          prompter: this.d.prompts(),
          localKeys: this.keys.list,
          generateKey: this.keys.generate,
          savedKeys: this.keys.saved,
          existingNames: () =>
            this.knownClusters()
              .map((c) => c.name)
              .filter((n): n is string => !!n),
          imageField: readSettings().imageField,
          prices,
        },
        { initial: state, startAt, errors },
      );
      if (!state) return undefined;
      const body = toCreateRequest(state);
      try {
        const res = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Creating cluster {0}…', body.tp_cluster_name ?? body.instance_type),
          },
          () => client.createCluster(body),
        );
        this.d.log.info(`Cluster create accepted: ${res.cluster_id} (request ${res.request_id ?? 'none'})`);
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
    this.d.log.warn(`Cluster create failed: ${errorKind(e)}: ${errorMessage(e)}`);
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
      const changeName = vscode.l10n.t('Change Name');
      const pick = await this.d.prompts().confirm({
        message: vscode.l10n.t('TensorPool refused the cluster: {0}', err.message),
        actions: [changeName],
        modal: false,
        severity: 'error',
      });
      return pick === changeName ? { startAt: 'name', errors: { name: err.message } } : 'stop';
    }
    if (mayHaveHappened(e)) {
      // The request may have been received: sending it again could create a second cluster.
      const how = unknownCreateReason(errorKind(e));
      const check = vscode.l10n.t('Check Cluster List');
      const editAnswers = vscode.l10n.t('Edit Answers');
      const pick = await this.d.prompts().confirm({
        message: vscode.l10n.t('The cluster may or may not have been created.'),
        detail: vscode.l10n.t(
          '{0} ({1}). Check the cluster list before trying again: sending it again could create a second cluster.',
          how,
          err.message,
        ),
        actions: [check, editAnswers],
        modal: true,
        severity: 'warning',
      });
      if (pick === check) {
        void vscode.commands.executeCommand('workbench.view.extension.tensorpool');
        await this.d.clusters.refresh();
        return 'stop';
      }
      return pick === editAnswers ? { startAt: 'summary' } : 'stop';
    }
    const message =
      errorKind(e) === 'forbidden'
        ? vscode.l10n.t('This token may not create clusters: {0}', err.message)
        : errorKind(e) === 'network'
          ? vscode.l10n.t('Nothing was created: could not reach TensorPool: {0}', err.message)
          : vscode.l10n.t('The cluster was not created: {0}', err.message);
    const tryAgain = vscode.l10n.t('Try Again');
    const editAnswers = vscode.l10n.t('Edit Answers');
    const pick = await this.d.prompts().confirm({
      message,
      actions: [tryAgain, editAnswers],
      modal: false,
      severity: 'error',
    });
    if (pick === tryAgain) return { startAt: 'summary' };
    if (pick === editAnswers) return { startAt: 'instanceType' };
    return 'stop';
  }

  private afterCreate(
    state: CreateState,
    clusterId: string,
    requestId: string | undefined,
    instanceIds: string[],
  ): void {
    this.d.created.remember(clusterId, instanceIds);
    this.onCreated(clusterId, state);
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
    void this.d.follower.follow(
      { target: 'cluster', kind: 'create', id: clusterId, label: clusterLabel(placeholder), placeholder },
      requestId ? [requestId] : [],
    );
  }
}
