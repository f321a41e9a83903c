/**
 * The `when`-clause context keys this extension sets: one typed table (name, type, default) and one
 * setter (after coder/vscode-coder's ContextManager). test/unit/stateTables.test.ts checks the table
 * against every `tensorpool.*` key package.json's when/enablement clauses use. No runtime `vscode`
 * import: the composition root passes the function that runs `setContext`.
 */
import type { AccountState, ObjectStorageState } from './store';

export interface ContextKeyTypes {
  /** The account state's kind (signedOut, checking, signedIn, rejected, forbidden, unreachable). */
  'tensorpool.account': AccountState['kind'];
  /** The Clusters view shows the whole organisation. */
  'tensorpool.includeOrg': boolean;
  /** The object-storage state's kind (unknown, loading, disabled, enabled, error). */
  'tensorpool.objectStorage': ObjectStorageState['kind'];
  /** The SSH Keys view shows the whole organisation's keys. */
  'tensorpool.sshKeysIncludeOrg': boolean;
  /** The Volumes view shows the whole organisation's volumes. */
  'tensorpool.volumesIncludeOrg': boolean;
  /** The Jobs view shows the whole organisation's jobs. */
  'tensorpool.jobsIncludeOrg': boolean;
  /** The last cluster list named at least one cluster (the walkthrough's "Create a cluster" step). */
  'tensorpool.hasClusters': boolean;
}

export type ContextKey = keyof ContextKeyTypes;

/** Every key with its value before anything is known. */
export const CONTEXT_KEY_DEFAULTS: { readonly [K in ContextKey]: ContextKeyTypes[K] } = {
  'tensorpool.account': 'checking',
  'tensorpool.includeOrg': false,
  'tensorpool.objectStorage': 'unknown',
  'tensorpool.sshKeysIncludeOrg': false,
  'tensorpool.volumesIncludeOrg': false,
  'tensorpool.jobsIncludeOrg': false,
  'tensorpool.hasClusters': false,
};

export type SetContext = (key: string, value: unknown) => Thenable<unknown>;

/** The one setter: remembers what it set, so a value is only sent when it changes. */
export class ContextKeys {
  private readonly values = new Map<ContextKey, unknown>();

  constructor(
    private readonly setContext: SetContext,
    /** Told each value that is sent (the walkthrough ticks the steps that are states). */
    private readonly onSet?: (key: ContextKey, value: unknown) => void,
  ) {}

  set<K extends ContextKey>(key: K, value: ContextKeyTypes[K]): void {
    if (this.values.has(key) && this.values.get(key) === value) return;
    this.values.set(key, value);
    void this.setContext(key, value);
    this.onSet?.(key, value);
  }

  get<K extends ContextKey>(key: K): ContextKeyTypes[K] {
    return (this.values.has(key) ? this.values.get(key) : CONTEXT_KEY_DEFAULTS[key]) as ContextKeyTypes[K];
  }
}
