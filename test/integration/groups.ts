// The integration files in two groups, each run in an extension host of its own (its own code-server, engine
// and nodes), side by side with the other group and the other version's (test/harness/runIntegration.ts): a
// host's tests keep the cores busy about a third of the time (they mostly wait on real timers, ssh and real
// nodes), so four hosts at once take less wall time than two. The second group is the files that work on
// real nodes the longest (notebooks, GPU telemetry, sync: about half of the suite's time); every other file, a
// new one included, is in the first.
const SECOND = ['notebooks', 'gpu', 'sync'];

export const INTEGRATION_GROUPS = 2;

/** Whether test file `file` (its name) runs in group `group` (0-based). */
export function inGroup(file: string, group: number): boolean {
  return SECOND.some((prefix) => file.startsWith(prefix)) === (group === 1);
}
