/**
 * The `when`-clause context keys this extension sets: one typed table (name, type, default) and one
 * setter (after coder/vscode-coder's ContextManager). test/unit/stateTables.test.ts checks the table
 * against every `tensorpool.*` key package.json's when/enablement clauses use. No runtime `vscode`
 * import: the composition root passes the function that runs `setContext`.
 */
import type { AccountState, ObjectStorageState } from './store';
import type { SectionScopeKey } from './storedState';

export interface ContextKeyTypes {
  /** The account state's kind (signedOut, checking, signedIn, rejected, forbidden, unreachable). */
  'tensorpool.account': AccountState['kind'];
  /** The Clusters view shows the whole organisation. */
  'tensorpool.includeOrg': boolean;
  /** The object-storage state's kind (unknown, loading, disabled, enabled, error). */
  'tensorpool.objectStorage': ObjectStorageState['kind'];
  /** A list section's view (`tensorpool.<section>`) shows the whole organisation's (listViewSetup.ts). */
  [scope: SectionScopeKey]: boolean;
  /** The last cluster list named at least one cluster (the walkthrough's "Create a cluster" step). */
  'tensorpool.hasClusters': boolean;
}

export type ContextKey = keyof ContextKeyTypes;

/** Every key but the sections' scopes (false until set) with its value before anything is known. */
export const CONTEXT_KEY_DEFAULTS: {
  readonly [K in Exclude<ContextKey, SectionScopeKey>]: ContextKeyTypes[K];
} = {
  'tensorpool.account': 'checking',
  'tensorpool.includeOrg': false,
  'tensorpool.objectStorage': 'unknown',
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
    const fallback = (CONTEXT_KEY_DEFAULTS as Partial<Record<ContextKey, unknown>>)[key] ?? false;
    return (this.values.has(key) ? this.values.get(key) : fallback) as ContextKeyTypes[K];
  }
}
