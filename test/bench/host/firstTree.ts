// Time to first tree, in the real extension host (called by ./index.ts on the launches that start with the
// TensorPool view open and a stored token): from the moment VS Code starts loading the extension
// (its mark code/extHost/willLoadExtensionCode) until the Clusters view's data provider first returned
// cluster rows (getChildren() of the root, called by VS Code because the view is showing, returned at least
// one cluster row: the moment VS Code has the rows to draw; the mark `clusters.firstRows` of
// src/vscode/timingMarks.ts). The engine holds the account's 20 running clusters (./index.ts FIRST_CLUSTERS:
// an ordinary account; the 1,000-cluster list is measured by the tree step of the last launch).
//
// The parts, each from its own marks (wall clock, ms), in the order they lie on the way to the rows:
//   load           willLoadExtensionCode -> didLoadExtensionCode (require() of dist/extension.js)
//   context wait   didLoadExtensionCode -> willActivateExtension: VS Code's own work between loading the code
//                  and calling activate() (the extension context: its stored state, paths, secrets), which at
//                  window startup waits on the rest of the workbench starting
//   activate       willActivateExtension -> didActivateExtension (the activate() call, and what VS Code runs
//                  before it counts the activation done: other extensions activating beside it at startup)
//   token read     SecretStorage.get of the API token (marks token.read -> token.readEnd, account.ts), the
//                  part after activate() returned (the read is asked for at its start)
//   API layer load require() of dist/api.js (lazyApi.ts), the part of it after the token was read (it starts
//                  while the token is read; the whole load is the API layer row)
//   requests       from there until the list is in the store: POST /health with GET /me and GET /cluster/list
//                  alongside (one round trip; the list is kept once /me said signed in and /health did not
//                  refuse), parsed, stored (-> clusters.listEnd; the marks hold clusters.list, when the list
//                  went out, and account.signedIn)
//   VS Code's ask  the store holding the rows -> VS Code's first getChildren() of the root (mark clusters.ask),
//                  when it came after the rows were ready: VS Code's own scheduling (the window asks once the
//                  view's tree exists and the provider's registration reached it; the request then waits on
//                  the extension host's thread, which the built-in extensions' startup also holds), 0 otherwise
//   render         from the later of the rows in the store and VS Code's ask to the data provider returning
//                  the rows (an earlier ask waits for them: src/vscode/views/firstRows.ts)
//   other          what lies between those (setImmediate, the scheduling of the steps)
// Beside the total, two points on the same clock (less VS Code's wait between load and activate()): when the
// rows were ready in the store (the extension's own path: the last session's list, shown while the token is
// checked, when there was one; else the fresh list), and when VS Code first asked for them (a floor
// under the total that no work of the extension moves).
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { until } from '../../shared/wait';

export interface FirstTreeSample {
  /** willLoadExtensionCode -> rows. */
  totalMs: number;
  /** The same without VS Code's wait between load and activate(): what the extension's own path takes. */
  ownMs: number;
  /** On that clock: the rows in the store (the last session's, clusters.lastSession, when they were shown
   *  while the token was checked; else the fresh list, clusters.listEnd). */
  readyMs: number;
  /** The first rows were the last session's list (src/vscode/clusters.ts showLastSession). */
  lastSession: boolean;
  /** On that clock: VS Code's first ask for the rows (clusters.ask). */
  askMs: number;
  parts: {
    loadMs: number;
    contextWaitMs: number;
    activateMs: number;
    tokenReadMs: number;
    apiLoadMs: number;
    requestMs: number;
    askWaitMs: number;
    renderMs: number;
    otherMs: number;
  };
  clusters: number;
  /** Every mark (VS Code's and the extension's), ms after willLoadExtensionCode. */
  marks: Record<string, number>;
}

const NEEDED = [
  'token.read',
  'token.readEnd',
  'clusters.list',
  'clusters.listEnd',
  'clusters.ask',
  'clusters.firstRows',
];

/** The first tree of this launch; `vsMarks` are VS Code's marks for the extension (hostMarks in ./index.ts). */
export async function firstTree(
  api: TensorPoolExtensionApi,
  vsMarks: Record<string, number>,
): Promise<FirstTreeSample> {
  await until(
    'the Clusters view to return its first cluster rows',
    () => api.testing.marks()['clusters.firstRows'] !== undefined,
    30_000,
    20,
  ).catch((err: Error) => {
    throw new Error(
      `${err.message}; marks: ${JSON.stringify(api.testing.marks())}; account ${api.store.account.kind}; log: ${api.testing.logTail.slice(-5).join(' | ')}`,
    );
  });
  const m = api.testing.marks();
  const missing = NEEDED.filter((n) => m[n] === undefined);
  if (missing.length) throw new Error(`timing marks missing: ${missing.join(', ')}`);
  const apiLoad = api.testing.apiLoad();
  if (!apiLoad) throw new Error('the API layer load was not timed');
  const total = m['clusters.firstRows'] - vsMarks.willLoadExtensionCode;
  // apiLoad.at is Date.now() (1 ms resolution): the load's start is at - ms.
  const apiAfterRead = Math.max(0, apiLoad.at - Math.max(m['token.readEnd'], apiLoad.at - apiLoad.ms));
  const parts = {
    loadMs: vsMarks.didLoadExtensionCode - vsMarks.willLoadExtensionCode,
    contextWaitMs: vsMarks.willActivateExtension - vsMarks.didLoadExtensionCode,
    activateMs: vsMarks.didActivateExtension - vsMarks.willActivateExtension,
    tokenReadMs: m['token.readEnd'] - Math.max(m['token.read'], vsMarks.didActivateExtension),
    apiLoadMs: apiAfterRead,
    requestMs: m['clusters.listEnd'] - m['token.readEnd'] - apiAfterRead,
    askWaitMs: Math.max(0, m['clusters.ask'] - m['clusters.listEnd']),
    renderMs: m['clusters.firstRows'] - Math.max(m['clusters.ask'], m['clusters.listEnd']),
    otherMs: 0,
  };
  parts.otherMs = total - Object.values(parts).reduce((a, b) => a + b, 0);
  const start = vsMarks.willLoadExtensionCode;
  const marks: Record<string, number> = {};
  for (const [name, at] of Object.entries({ ...vsMarks, ...m, apiLoaded: apiLoad.at }))
    marks[name] = Math.round((at - start) * 10) / 10;
  const ownClock = (at: number): number => at - vsMarks.willLoadExtensionCode - parts.contextWaitMs;
  return {
    totalMs: total,
    ownMs: total - parts.contextWaitMs,
    readyMs: ownClock(Math.min(m['clusters.lastSession'] ?? Infinity, m['clusters.listEnd'])),
    lastSession: m['clusters.lastSession'] !== undefined,
    askMs: ownClock(m['clusters.ask']),
    parts,
    clusters: api.testing.clusters.data?.clusters?.length ?? 0,
    marks,
  };
}
