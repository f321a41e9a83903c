// package.json as VS Code shows it. Its user-visible strings are "%key%" references to package.nls.json
// (English; package.nls.<locale>.json beside it for a translation): when VS Code scans an extension it
// replaces every string that starts and ends with `%` by the message of that key, anywhere in the
// manifest, and nothing else (no partial substitution). The unit tests read the manifest through this.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');

/** A whole-string reference; the key as vsce accepts it too (letters, digits, `_` and dots). */
export const NLS_REFERENCE = /^%([\w.]+)%$/;

export type Messages = Record<string, string>;

export function readJsonFile(name: string): any {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, name), 'utf8'));
}

/** package.json as written: the localisable strings are "%key%" references. */
export function rawManifest(): Record<string, any> {
  return readJsonFile('package.json') as Record<string, any>;
}

/** package.nls.json: the English message of every key. */
export function englishMessages(): Messages {
  return readJsonFile('package.nls.json') as Messages;
}

/**
 * `node` with every "%key%" string replaced by its message, as VS Code does; a reference without a message
 * stays as it is, as in VS Code (test/unit/manifest-nls.test.ts reports it).
 */
function localise<T>(node: T, messages: Messages): T {
  if (typeof node === 'string') {
    const key = NLS_REFERENCE.exec(node)?.[1];
    const message = key === undefined ? undefined : messages[key];
    return (typeof message === 'string' ? message : node) as T;
  }
  if (Array.isArray(node)) return node.map((n: unknown) => localise(n, messages)) as T;
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, localise(v, messages)])) as T;
  return node;
}

/** package.json with its English text in place, as the workbench shows it. */
export function localisedManifest<T = Record<string, any>>(): T {
  return localise(rawManifest(), englishMessages()) as T;
}
