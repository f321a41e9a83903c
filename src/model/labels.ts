/**
 * How a cluster, a node and a few long values are named to the user: one place, so the tree, every
 * picker and every notification say the same thing. Short first (the state word leads, because a
 * narrow side bar cuts the end of a row), details left to tooltips.
 */
import * as l10n from '@vscode/l10n';
import { clusterLabel, clusterShape, type Cluster, type Instance } from './cluster';

export { clusterLabel } from './cluster';

/** An operation this window is following on a cluster (create, destroy, edit). */
export type OperationKind = 'create' | 'destroy' | 'edit';

function operationWord(operation: OperationKind): string {
  if (operation === 'create') return l10n.t('creating');
  if (operation === 'destroy') return l10n.t('destroying');
  return l10n.t('updating');
}

const MAX_STATE_WORD = 14;

/** A short lower-case word for a server status ("RUNNING" -> "running", "NOT_READY" -> "not ready"). */
export function stateWord(status: string | undefined): string {
  const word = (status ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  if (word === '') return l10n.t('unknown');
  return word.length > MAX_STATE_WORD ? `${word.slice(0, MAX_STATE_WORD - 1)}…` : word;
}

/**
 * The one description of a cluster: state word first, then type and node count
 * ("running · 8xH100 × 2"). While this window follows an operation on it, the operation's word
 * ("creating") is the state.
 */
export function clusterDescription(cluster: Cluster, operation?: OperationKind): string {
  const state = operation ? operationWord(operation) : stateWord(cluster.status);
  return [state, clusterShape(cluster)].filter(Boolean).join(' · ');
}

export interface ClusterPickLabel {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

/** Label, description and detail of a cluster in a quick pick (the same words as its tree row). */
export function clusterPickLabel(cluster: Cluster, operation?: OperationKind): ClusterPickLabel {
  return {
    label: clusterLabel(cluster),
    description: clusterDescription(cluster, operation),
    detail: cluster.id,
  };
}

/** A node of a cluster, numbered from 1: "node 1 · 203.0.113.7" or "node 1 · no address yet". */
export function instanceLabel(index: number, instance: Instance): string {
  return instance.ip !== undefined
    ? l10n.t('node {0} · {1}', index + 1, instance.ip)
    : l10n.t('node {0} · no address yet', index + 1);
}

/** Keep the start and the end of a long identifier: "TPAKABCD…WXYZ". */
export function shortenMiddle(text: string, max = 12): string {
  if (text.length <= max) return text;
  const keep = Math.max(1, max - 1);
  const head = Math.ceil(keep / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`;
}

/** The host (and port) of an endpoint URL, without scheme or path; the text itself if it is no URL. */
export function endpointHost(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return url.host || endpoint;
  } catch {
    return endpoint;
  }
}

/** What an accepted edit did, in our words: "Renamed x to y.", "Deletion protection is on for x." */
export function editSentence(
  label: string,
  changes: { readonly cluster_name?: string; readonly deletion_protection?: boolean },
): string {
  const on = changes.deletion_protection;
  const name = changes.cluster_name;
  if (name !== undefined) {
    if (on === undefined) return l10n.t('Renamed {0} to {1}.', label, name);
    return on
      ? l10n.t('Renamed {0} to {1}; deletion protection is on.', label, name)
      : l10n.t('Renamed {0} to {1}; deletion protection is off.', label, name);
  }
  if (on === undefined) return l10n.t('No change to {0}.', label);
  return on
    ? l10n.t('Deletion protection is on for {0}.', label)
    : l10n.t('Deletion protection is off for {0}.', label);
}
