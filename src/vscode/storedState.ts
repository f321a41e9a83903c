/**
 * Everything this extension keeps in VS Code's globalState, by key, with its type: the only place a
 * state key is spelt. Nothing secret belongs here (the API token and the object-storage secret live
 * in SecretStorage, under SECRET_KEYS). No runtime `vscode` import, so plain Node tests can read it.
 */
import type * as vscode from 'vscode';

export interface StoredStateTypes {
  /** Clusters view scope: the whole organisation (true) or only mine. */
  'tensorpool.includeOrg': boolean;
  /** TENSORPOOL_KEY from the environment was offered once. */
  'tensorpool.envTokenOffered': boolean;
  /** Cluster id -> private key file chosen when it was created (for ssh -i / IdentityFile). */
  'tensorpool.identityFiles': Record<string, string>;
  /** Remote-SSH host alias -> the folder last opened there. */
  'tensorpool.remoteFolders': Record<string, string>;
  /** The answer to "add the Include line to ~/.ssh/config?". */
  'tensorpool.sshIncludeDecision': 'added' | 'declined';
  /** The AWS profile and rclone remote this extension wrote (rewritten after a key rotation). */
  'tensorpool.configuredStorageProfiles': { aws?: string; rclone?: string };
  /** The workspace `.env` files whose token was offered (each once). */
  'tensorpool.dotenvTokenOffered': string[];
  /** SSH Keys view scope: the whole organisation (true) or only mine. */
  'tensorpool.sshKeysIncludeOrg': boolean;
  /** Volumes view scope: the whole organisation (true) or only mine. */
  'tensorpool.volumesIncludeOrg': boolean;
}

export type StoredKey = keyof StoredStateTypes;

/** Every key once (the mapped type makes a missing or unknown key a compile error). */
const LISTED: { readonly [K in StoredKey]: true } = {
  'tensorpool.includeOrg': true,
  'tensorpool.envTokenOffered': true,
  'tensorpool.identityFiles': true,
  'tensorpool.remoteFolders': true,
  'tensorpool.sshIncludeDecision': true,
  'tensorpool.configuredStorageProfiles': true,
  'tensorpool.dotenvTokenOffered': true,
  'tensorpool.sshKeysIncludeOrg': true,
  'tensorpool.volumesIncludeOrg': true,
};

export const STORED_KEYS = Object.keys(LISTED) as readonly StoredKey[];

/** SecretStorage keys (values are secrets: never logged, never in globalState). */
export const SECRET_KEYS = {
  apiToken: 'tensorpool.apiToken',
  objectStorage: 'tensorpool.objectStorage.secret',
} as const;

/** Typed get/update over a Memento (globalState). */
export class StoredState {
  constructor(private readonly memento: vscode.Memento) {}

  get<K extends StoredKey>(key: K): StoredStateTypes[K] | undefined;
  get<K extends StoredKey>(key: K, fallback: StoredStateTypes[K]): StoredStateTypes[K];
  get<K extends StoredKey>(key: K, fallback?: StoredStateTypes[K]): StoredStateTypes[K] | undefined {
    return this.memento.get<StoredStateTypes[K]>(key) ?? fallback;
  }

  update<K extends StoredKey>(key: K, value: StoredStateTypes[K] | undefined): Thenable<void> {
    return this.memento.update(key, value);
  }

  /** Every entry as stored (for the test API's secret scans). */
  snapshot(): Record<string, unknown> {
    return Object.fromEntries(this.memento.keys().map((k) => [k, this.memento.get(k)]));
  }
}
