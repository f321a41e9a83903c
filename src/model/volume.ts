/**
 * Storage volumes as the extension understands them (shared file systems attached to clusters,
 * mounted at /mnt/<storage_id> on every node), whatever shape the server sent (src/api/volumes.ts).
 * Status vocabularies are open strings. Also the volume input rules and which clusters can take a
 * volume. No `vscode` import, no zod.
 */
import * as l10n from '@vscode/l10n';
import type { Cluster } from './cluster';
import { nameProblem, type Validator } from './validate';

export interface VolumeAttachment {
  readonly clusterId: string;
  readonly clusterName?: string;
  readonly status?: string;
}

export interface Volume {
  readonly id: string;
  readonly name?: string;
  readonly sizeGb?: number;
  readonly status?: string;
  readonly attachments: readonly VolumeAttachment[];
  readonly hourlyRate?: number;
  readonly deletionProtection?: boolean;
  readonly createdAt?: string;
  readonly owner?: string;
  /** 'text' when read from the server's text answer (a guess, said so in the UI). */
  readonly source?: 'text';
}

/** A volume as a cluster record lists it (`attached_volumes`). */
export interface AttachedVolume {
  readonly id: string;
  readonly name?: string;
  readonly sizeGb?: number;
  readonly status?: string;
}

export interface VolumeListing {
  /** `undefined` when the server answered with text only (not the same as an empty list). */
  readonly volumes: readonly Volume[] | undefined;
  readonly message?: string;
  /** With a text-only answer: the volumes its table names, read by header (each `source: 'text'`). */
  readonly textVolumes?: readonly Volume[];
}

/** Largest size the extension will request: 100 TB; far above real orders, far below a typo like 10^12. */
export const MAX_VOLUME_GB = 100_000;

export const mountPath = (id: string): string => `/mnt/${id}`;

export function volumeLabel(v: { id: string; name?: string }): string {
  return v.name && v.name.trim() !== '' ? v.name : v.id;
}

export type VolumePhase = 'ready' | 'attached' | 'transitional' | 'failed' | 'unknown';

const READY = new Set(['READY', 'AVAILABLE', 'ACTIVE', 'CREATED', 'DETACHED']);
const ATTACHED = new Set(['ATTACHED', 'IN_USE', 'MOUNTED']);
const TRANSITIONAL = new Set([
  'PENDING',
  'PROCESSING',
  'RETRYING',
  'CREATING',
  'PROVISIONING',
  'ATTACHING',
  'DETACHING',
  'RESIZING',
  'UPDATING',
  'DESTROYING',
  'DELETING',
]);
const FAILED = new Set(['FAILED', 'ERROR']);

export function volumePhase(status: string | undefined): VolumePhase {
  if (!status) return 'unknown';
  const s = status
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (READY.has(s)) return 'ready';
  if (ATTACHED.has(s)) return 'attached';
  if (TRANSITIONAL.has(s)) return 'transitional';
  if (FAILED.has(s)) return 'failed';
  return 'unknown';
}

export function isVolumeInTransition(v: Volume): boolean {
  return (
    volumePhase(v.status) === 'transitional' ||
    v.attachments.some((a) => volumePhase(a.status) === 'transitional')
  );
}

/** Why a volume cannot be attached to this cluster (multi-node GPU clusters and CPU instances only). */
export function attachIneligibility(cluster: Cluster): string | undefined {
  const type = cluster.instanceType ?? '';
  if (/CPU$/i.test(type)) return undefined;
  const nodes = cluster.numNodes ?? cluster.instances.length;
  if (!type) return l10n.t('Its instance type is unknown.');
  if (nodes <= 1)
    return l10n.t(
      'Single-node GPU cluster ({0}): volumes attach to multi-node GPU clusters and CPU instances.',
      type,
    );
  return undefined;
}

// ---- input rules -------------------------------------------------------------------------------

/** Size in GB as typed (a string) or given by code: a whole number from 1 to MAX_VOLUME_GB. */
export const validateVolumeSize: Validator<string | number> = (value) => {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (text === '') return l10n.t('Enter the size in GB (a whole number, at least 1).');
  if (!/^[0-9]+$/.test(text)) {
    if (/^-/.test(text)) return l10n.t('The size cannot be negative; enter 1 GB or more.');
    if (/^[0-9]*[.,][0-9]+$/.test(text))
      return l10n.t('The size must be a whole number of GB, such as 100 or 500.');
    if (/e/i.test(text) && !Number.isNaN(Number(text)))
      return l10n.t('Write the size as a whole number of GB, such as 1000.');
    return l10n.t('"{0}" is not a number; enter the size in GB, such as 100.', text.slice(0, 40));
  }
  const n = Number(text);
  if (n < 1) return l10n.t('A volume needs at least 1 GB.');
  if (n > MAX_VOLUME_GB)
    return l10n.t(
      '{0} GB is more than the {1} GB this extension will request; check the number.',
      text,
      MAX_VOLUME_GB,
    );
  return undefined;
};

/** A new size for an existing volume: as above, and strictly larger (sizes only grow). */
export function validateNewSize(current: number | undefined, value: string): string | undefined {
  const problem = validateVolumeSize(value);
  if (problem) return problem;
  if (current !== undefined && Number(value.trim()) <= current)
    return l10n.t(
      'Sizes only grow: enter more than the current {0} GB (or keep {0} to leave it unchanged).',
      current,
    );
  return undefined;
}

/** Volume names follow the cluster-name rules (they travel in URL paths too). */
export const validateVolumeName: Validator = (value) => nameProblem(value, 'volume');

/** Name checks plus uniqueness among the volumes in scope. */
export function validateUniqueVolumeName(
  all: readonly Volume[],
  selfId: string | undefined,
  value: string,
): string | undefined {
  const problem = validateVolumeName(value);
  if (problem) return problem;
  const clash = all.find((v) => v.id !== selfId && v.name === value.trim());
  return clash
    ? l10n.t(
        'Another volume ({0}) is already named "{1}"; names are unique in your scope.',
        clash.id,
        value.trim(),
      )
    : undefined;
}

/** The service's 24-hour rule, as a sentence for the size step. */
export function balanceRule(ratePerGbHour: number | undefined, sizeText: string): string {
  const n = Number(sizeText.trim());
  if (ratePerGbHour === undefined || !Number.isInteger(n) || n < 1)
    return l10n.t("Your balance must cover 24 hours of the volume's cost when you create it.");
  return l10n.t(
    "Your balance must cover 24 hours of the volume's cost when you create it. {0} GB ≈ ${1} for 24 hours.",
    n,
    (n * ratePerGbHour * 24).toFixed(2),
  );
}
