// Which host/*.test.ts files the reliability suite runs in the extension host, and how they are split
// between the hosts that run side by side (run.ts starts one code-server and engine per group; each
// group's time is about half the whole: a host's tests mostly wait on faults, timeouts and real nodes).
// Every group ends with the secrets session, which searches everything its host's earlier tests produced,
// then the unhandled-rejection check.

const GROUPS: readonly (readonly string[])[] = [
  ['faults', 'gpuFaults', 'notebookFaults', 'syncNodeFaults'],
  [
    'badInput',
    'duplicates',
    'volumeDuplicates',
    'network',
    'proxyAuthorization',
    'operationFaults',
    'sshCommand',
    'serviceLinks',
    'priceFaults',
    'serviceCommands',
    'sshControlMaster',
    'syncFaults',
  ],
];
const LAST = ['secrets', 'unhandled'];

export const HOST_GROUPS = GROUPS.length;

/** The files of group `group` (0-based), or of every group in one host when it is undefined. */
export function hostFiles(group?: number): string[] {
  const files = group === undefined ? GROUPS.flat() : [...(GROUPS[group] ?? [])];
  return [...files, ...LAST];
}
