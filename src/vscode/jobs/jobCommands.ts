/** The Jobs section's commands whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { JobActions, JobPull, JobRunner } from './onUse';

export const JOB_COMMANDS: readonly ActionCommand<{
  jobs: JobActions;
  runJob: JobRunner;
  pullJob: JobPull;
}>[] = [
  [Commands.runJobFile, (a, arg?: unknown) => a.runJob.run(arg)],
  [Commands.followJob, (a, arg?: unknown) => a.jobs.follow(arg)],
  [Commands.cancelJob, (a, arg?: unknown) => a.jobs.cancel(arg)],
  [Commands.deleteJob, (a, arg?: unknown) => a.jobs.delete(arg)],
  [Commands.pullJobOutputs, (a, arg?: unknown) => a.pullJob.pull(arg)],
  [Commands.copyJobId, (a, arg?: unknown) => a.jobs.copyId(arg)],
  [Commands.showJobInfo, (a, arg?: unknown) => a.jobs.showInfo(arg)],
  [Commands.showMetrics, (a, arg?: unknown) => a.jobs.showMetrics(arg)],
];
