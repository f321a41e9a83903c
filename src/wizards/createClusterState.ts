/**
 * The create-cluster wizard's answers and what they become: the state, its empty value, which step
 * a request field belongs to, and the POST /cluster/create body.
 */
import * as l10n from '@vscode/l10n';
import type { SavedKeys } from './savedKeys';
import type { Prompter } from './prompter';
import type { PriceQuotes } from '../model/priceQuotes';

export interface LocalKey {
  /** Path of the .pub file. */
  readonly path: string;
  readonly key: string;
  readonly comment?: string;
}

export type KeyChoice =
  | { readonly kind: 'none' }
  | { readonly kind: 'file'; readonly path: string; readonly key: string }
  | { readonly kind: 'pasted'; readonly key: string };

export interface CreateState {
  readonly instanceType: string;
  readonly numNodes: string;
  readonly name: string;
  readonly key: KeyChoice;
  readonly container: string;
  readonly deletionProtection: boolean;
  readonly saveKeys: boolean;
}

export const EMPTY_CREATE: CreateState = {
  instanceType: '',
  numNodes: '1',
  name: '',
  key: { kind: 'none' },
  container: '',
  deletionProtection: false,
  saveKeys: true,
};

export interface CreateWizardDeps {
  readonly prompter: Prompter;
  /** ~/.ssh/*.pub (read by the caller; the wizard does no I/O). */
  readonly localKeys: () => Promise<readonly LocalKey[]>;
  /** Make a new key pair (ssh-keygen) when the user asks for one. */
  readonly generateKey?: () => Promise<LocalKey>;
  /** Cluster names already used in the scope (for a warning, not a refusal: the server decides). */
  readonly existingNames: () => readonly string[];
  /** The wire name of the image field, shown in the summary. */
  readonly imageField: string;
  /** The keys saved on the account (savedKeys.ts); undefined or failing: not known. */
  readonly savedKeys?: () => Promise<SavedKeys | undefined>;
  /** Hourly prices by instance type and node count (asked while the user answers; optional). */
  readonly prices?: PriceQuotes<[string, number]>;
}

export interface CreateWizardOptions {
  readonly initial?: CreateState;
  /** Reopen at this step with this message (a 422 from the server). */
  readonly startAt?: CreateStepId;
  readonly errors?: Partial<Record<CreateStepId, string>>;
}

export type CreateStepId =
  'instanceType' | 'numNodes' | 'name' | 'key' | 'container' | 'deletionProtection' | 'summary';

/** Which wizard step a request field belongs to (to reopen the wizard where a 422 points). */
export const FIELD_STEP: Readonly<Record<string, CreateStepId>> = {
  instance_type: 'instanceType',
  num_nodes: 'numNodes',
  tp_cluster_name: 'name',
  public_keys: 'key',
  container: 'container',
  experimental_container: 'container',
  deletion_protection: 'deletionProtection',
  save_keys: 'key',
};

export const createClusterTitle = (): string => l10n.t('Create TensorPool Cluster');

export function isDirty(s: CreateState): boolean {
  return (
    s.instanceType !== '' ||
    s.numNodes !== '1' ||
    s.name !== '' ||
    s.key.kind !== 'none' ||
    s.container !== '' ||
    s.deletionProtection
  );
}

function keyOf(choice: KeyChoice): string | undefined {
  return choice.kind === 'none' ? undefined : choice.key;
}

/** The request body for POST /cluster/create (the client renames `container` per the setting). */
export function toCreateRequest(s: CreateState): {
  instance_type: string;
  num_nodes: number;
  tp_cluster_name?: string;
  public_keys?: string[];
  container?: string;
  deletion_protection: boolean;
  save_keys?: boolean;
} {
  const key = keyOf(s.key);
  return {
    instance_type: s.instanceType,
    num_nodes: Number(s.numNodes.trim()),
    ...(s.name.trim() ? { tp_cluster_name: s.name.trim() } : {}),
    ...(key ? { public_keys: [key.trim()], save_keys: s.saveKeys } : {}),
    ...(s.container.trim() ? { container: s.container.trim() } : {}),
    deletion_protection: s.deletionProtection,
  };
}

export function nameWarning(names: readonly string[], name: string): string | undefined {
  const n = name.trim();
  return n && names.includes(n)
    ? l10n.t(
        'A cluster named "{0}" already exists in this scope; the service will refuse a duplicate name.',
        n,
      )
    : undefined;
}
