/**
 * Jobs: the list (single-flight refresh, last good answer kept on error, Mine / Organisation), refreshed
 * automatically only while the Jobs view is visible, fast while a job is not terminal. Text-only answers
 * keep the service's text and the jobs read from it. Acting on jobs is in jobActions.ts (lazy bundle).
 */
import { isTerminalJobState, type Job } from '../../model/job';
import type { ApiService } from '../shared/apiService';
import type { Log } from '../shared/log';
import type { Store } from '../shared/store';
import type { StoredState } from '../shared/storedState';
import { ViewedList, type ApiClient } from '../shared/viewedList';

export interface JobData {
  /** Undefined when the server answered with text only. */
  readonly jobs: readonly Job[] | undefined;
  readonly message: string | undefined;
  /** With a text-only answer: the jobs read from its table. */
  readonly textJobs?: readonly Job[];
  readonly includeOrg: boolean;
}

export class JobsController extends ViewedList<JobData> {
  constructor(store: Store, api: ApiService, state: StoredState, log: Log) {
    super(store, api, state, 'tensorpool.jobsIncludeOrg', log, 'Job');
  }

  get jobs(): readonly Job[] {
    return this.data?.jobs ?? this.data?.textJobs ?? [];
  }

  find(jobId: string): Job | undefined {
    return this.jobs.find((j) => j.id === jobId);
  }

  protected async fetch(client: ApiClient, includeOrg: boolean): Promise<JobData> {
    const listing = await client.jobs.list({ includeOrg });
    return { jobs: listing.jobs, message: listing.message, textJobs: listing.textJobs, includeOrg };
  }

  protected busy(): boolean {
    return this.jobs.some((j) => !isTerminalJobState(j.status));
  }
}
