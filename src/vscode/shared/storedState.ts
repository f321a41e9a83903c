/**
 * Everything this extension keeps in VS Code's globalState, by key, with its type: the only place a
 * state key is spelt. Nothing secret belongs here (the API token and the object-storage secret live
 * in SecretStorage, under SECRET_KEYS). No runtime `vscode` import, so plain Node tests can read it.
 */
import type * as vscode from 'vscode';
import type { Cluster } from '../../model/cluster';

/** A list section's Mine / Organisation scope (`tensorpool.<section>IncludeOrg`, shared/listSection.ts): the
 *  whole organisation (true) or only mine. The Clusters view's is `tensorpool.includeOrg`. */
export type SectionScopeKey = `tensorpool.${string}IncludeOrg`;

export interface StoredStateTypes {
  /** Clusters view scope: the whole organisation (true) or only mine. */
  'tensorpool.includeOrg': boolean;
  /** Each list section's scope (Jobs, Volumes, SSH Keys…), named after the section. */
  [scope: SectionScopeKey]: boolean;
  /** TENSORPOOL_KEY from the environment was offered once. */
  'tensorpool.envTokenOffered': boolean;
  /** Cluster id -> private key file chosen when it was created (for ssh -i / IdentityFile). */
  'tensorpool.identityFiles': Record<string, string>;
  /** Cluster ids the idle guard must not ask about again ("Don't Ask for This Cluster"). */
  'tensorpool.idleGuardDontAsk': string[];
  /** Remote-SSH host alias -> the folder last opened there. */
  'tensorpool.remoteFolders': Record<string, string>;
  /** The answer to "add the Include line to ~/.ssh/config?". */
  'tensorpool.sshIncludeDecision': 'added' | 'declined';
  /** The AWS profile and rclone remote this extension wrote (rewritten after a key rotation). */
  'tensorpool.configuredStorageProfiles': { aws?: string; rclone?: string };
  /** The workspace `.env` files whose token was offered (each once). */
  'tensorpool.dotenvTokenOffered': string[];
  /** The Get Started walkthrough was opened (or skipped) after the first activation. */
  'tensorpool.walkthroughOffered': boolean;
  /** The extension version POST /health last refused (the next check then asks for nothing alongside it). */
  'tensorpool.refusedVersion': string;
  /** The last cluster list this window loaded (clusters.ts): shown at the next start while the stored token
   *  is checked, for the same service URL, account and scope; dropped on sign-out. No secrets in it. */
  'tensorpool.lastClusters': LastClusters;
}

export interface LastClusters {
  readonly apiUrl: string;
  readonly accountId: string;
  readonly includeOrg: boolean;
  readonly at: number;
  readonly clusters: readonly Cluster[];
}

export type StoredKey = keyof StoredStateTypes;

/** Every key once but the sections' scopes (the mapped type makes a missing or unknown key a compile
 *  error); a section's scope key is derived from its name. */
const LISTED: { readonly [K in Exclude<StoredKey, SectionScopeKey>]: true } = {
  'tensorpool.includeOrg': true,
  'tensorpool.envTokenOffered': true,
  'tensorpool.identityFiles': true,
  'tensorpool.idleGuardDontAsk': true,
  'tensorpool.remoteFolders': true,
  'tensorpool.sshIncludeDecision': true,
  'tensorpool.configuredStorageProfiles': true,
  'tensorpool.dotenvTokenOffered': true,
  'tensorpool.walkthroughOffered': true,
  'tensorpool.refusedVersion': true,
  'tensorpool.lastClusters': true,
};

export const STORED_KEYS = Object.keys(LISTED) as readonly StoredKey[];

/** SecretStorage keys (values are secrets: never logged, never in globalState). */
export const SECRET_KEYS = {
  apiToken: 'tensorpool.apiToken',
  objectStorage: 'tensorpool.objectStorage.secret',
} as const;

/** Everything kept per workspace (workspaceState), by key, with its type. */
export interface WorkspaceStateTypes {
  /** "Run and don't ask again for this workspace": the service's upload and pull commands of the understood
   *  rsync/scp shape (model/transferCommand.ts) run here unasked; any other command is asked about every time. */
  'tensorpool.localCommandsAllowed': boolean;
  /** Job file (workspace-relative path) -> the cluster id it last ran on (preselected next time). */
  'tensorpool.jobClusters': Record<string, string>;
  /** Job file (workspace-relative path) -> the id of the job last started from it (Show Last Run). */
  'tensorpool.jobRuns': Record<string, string>;
  /** Local folder -> its sync (Sync Folder to Node): the node, the folder there, and the files this sync
   *  sent (only those are ever deleted on the node; bounded, model/syncQueue.ts). */
  'tensorpool.syncs': Record<string, StoredSync>;
  /** Notebook (URI) -> the kernel it last ran on (no token: that stays on the node). */
  'tensorpool.notebookKernels': Record<string, StoredKernel>;
  /** `<workspace folder>|<cluster id>|<instance id>` -> "Use Home Folder" answered for its notebooks there:
   *  not asked again; forgotten once a sync of that folder to that node runs (notebooks/onUse/notebookFolder.ts). */
  'tensorpool.notebookFolders': Record<string, 'home'>;
}

export interface StoredKernel {
  readonly clusterId: string;
  readonly instanceId: string;
  readonly kernelId: string;
  readonly sessionId?: string;
  /** The session's path on the node (its folder is the kernel's): a kernel started again there keeps it. */
  readonly path?: string;
}

export interface StoredSync {
  readonly clusterId: string;
  readonly instanceId: string;
  readonly remote: string;
  readonly sent: readonly string[];
  /** Per path, the state both copies had after the last sync (`size:mtime[:checksum]`, syncState.ts). */
  readonly states?: Readonly<Record<string, string>>;
}

const WORKSPACE_LISTED: { readonly [K in keyof WorkspaceStateTypes]: true } = {
  'tensorpool.localCommandsAllowed': true,
  'tensorpool.jobClusters': true,
  'tensorpool.jobRuns': true,
  'tensorpool.syncs': true,
  'tensorpool.notebookKernels': true,
  'tensorpool.notebookFolders': true,
};

export const WORKSPACE_KEYS = Object.keys(WORKSPACE_LISTED) as readonly (keyof WorkspaceStateTypes)[];

/**
 * Typed get/update over a Memento, with every write made after the one before it was stored. VS Code sends
 * each stored write of globalState back to the extension host and replaces the whole in-memory state with
 * it, so a second key updated while the first write's echo is on its way would be undone, in memory and
 * then on disk (a cluster's key file forgotten). A write waits for the one before it, and reads see a
 * value still waiting.
 */
class TypedMemento<T> {
  private readonly waiting = new Map<string, { readonly value: unknown }>();
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly memento: vscode.Memento) {}

  get<K extends keyof T & string>(key: K): T[K] | undefined;
  get<K extends keyof T & string>(key: K, fallback: T[K]): T[K];
  get<K extends keyof T & string>(key: K, fallback?: T[K]): T[K] | undefined {
    const w = this.waiting.get(key);
    return ((w ? w.value : this.memento.get<T[K]>(key)) as T[K] | undefined) ?? fallback;
  }

  update<K extends keyof T & string>(key: K, value: T[K] | undefined): Thenable<void> {
    const entry = { value };
    this.waiting.set(key, entry);
    const stored = this.last
      .then(() => this.memento.update(key, value))
      .finally(() => {
        if (this.waiting.get(key) === entry) this.waiting.delete(key);
      });
    this.last = stored.catch(() => undefined);
    return stored;
  }

  /** Every entry as stored or waiting to be (for the test API's secret scans). */
  snapshot(): Record<string, unknown> {
    const all: Record<string, unknown> = Object.fromEntries(
      this.memento.keys().map((k) => [k, this.memento.get(k)]),
    );
    for (const [k, w] of this.waiting) all[k] = w.value;
    return all;
  }
}

/** globalState, typed by StoredStateTypes. */
export class StoredState extends TypedMemento<StoredStateTypes> {}

/** workspaceState, typed by WorkspaceStateTypes. */
export class WorkspaceState extends TypedMemento<WorkspaceStateTypes> {}
