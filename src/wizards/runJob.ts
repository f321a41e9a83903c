/**
 * The "Run on Cluster…" wizard for a job file: which cluster (running ones first, the one last used for
 * this file preselected, "Create a cluster…" that runs the create wizard and comes back, or an ID typed
 * by hand when the list could not be read), whether to tear the cluster down when the job ends (off by
 * default), then a summary. Sending the job (once) is the caller's job. No `vscode` import.
 */
import { validateClusterRef } from '../model/validate';
import type { PickItem, Prompter } from './prompter';
import { mapAnswer, runSteps, type Step } from './steps';

export const RUN_JOB_TITLE = 'Run Job on TensorPool';
export const CREATE_CLUSTER_LABEL = 'Create a cluster…';

/** A cluster as the wizard shows it. */
export interface JobTarget {
  readonly id: string;
  readonly label: string;
  /** The row's description (state, type, nodes). */
  readonly description: string;
  readonly running: boolean;
}

export interface RunJobState {
  /** The cluster id ('' until one is chosen). */
  readonly clusterId: string;
  /** What the summary calls it (the row label, or the typed id). */
  readonly clusterLabel: string;
  readonly teardown: boolean;
}

export interface RunJobDeps {
  readonly prompter: Prompter;
  /** The job file's name, for the titles ("job.tp.toml"). */
  readonly fileName: string;
  /** The clusters that can be picked (in scope, as the tree shows them). */
  readonly clusters: () => readonly JobTarget[];
  /** Why the list is empty or incomplete when the service answered in text only (shown as the placeholder). */
  readonly listNote?: string;
  /** The cluster last used for this file (preselected when it is still listed). */
  readonly lastUsed?: string;
  /** Run the create-cluster wizard; the new cluster (or undefined when it was cancelled). */
  readonly createCluster?: () => Promise<JobTarget | undefined>;
}

type Pick = { kind: 'cluster'; target: JobTarget } | { kind: 'create' } | { kind: 'typed'; id: string };

function clusterItems(deps: RunJobDeps): PickItem<Pick>[] {
  const all = deps.clusters();
  const ordered = [...all.filter((c) => c.running), ...all.filter((c) => !c.running)];
  return [
    ...ordered.map((c) => ({
      label: `$(${c.running ? 'vm-running' : 'vm-outline'}) ${c.label}`,
      description: c.description,
      detail: c.running ? c.id : `${c.id} · not running: the service may refuse the job until it is`,
      value: { kind: 'cluster' as const, target: c },
    })),
    ...(deps.createCluster
      ? [
          {
            label: `$(add) ${CREATE_CLUSTER_LABEL}`,
            description: 'then run the job on it',
            value: { kind: 'create' } as Pick,
          },
        ]
      : []),
  ];
}

async function clusterStep(deps: RunJobDeps, s: RunJobState, meta: Parameters<Step<RunJobState>['run']>[1]) {
  let initialError: string | undefined;
  for (;;) {
    const items = clusterItems(deps);
    const preferred = s.clusterId || deps.lastUsed;
    const active = items.find((i) => i.value.kind === 'cluster' && i.value.target.id === preferred)?.value;
    const listed = items.some((i) => i.value.kind === 'cluster');
    const picked = await deps.prompter.pick<Pick>({
      ...meta,
      placeholder: listed
        ? `Cluster to run ${deps.fileName} on (or type a cluster ID)`
        : `${deps.listNote ?? 'No cluster is listed.'} Create one, or type a cluster ID.`,
      items,
      active,
      initialError,
      custom: {
        label: (text) => `Use cluster ID "${text.trim()}"`,
        validate: (text) => validateClusterRef(text),
        toValue: (text) => ({ kind: 'typed', id: text.trim() }),
      },
    });
    if (picked.kind !== 'value') return picked;
    const v = picked.value;
    if (v.kind === 'cluster')
      return {
        kind: 'value' as const,
        value: { ...s, clusterId: v.target.id, clusterLabel: v.target.label },
      };
    if (v.kind === 'typed')
      return { kind: 'value' as const, value: { ...s, clusterId: v.id, clusterLabel: v.id } };
    const created = await deps.createCluster?.();
    if (created)
      return { kind: 'value' as const, value: { ...s, clusterId: created.id, clusterLabel: created.label } };
    initialError = 'No cluster was created. Pick one, or create one again.';
  }
}

/** Resolves to the answers, or undefined when the user cancelled. */
export async function runRunJobWizard(
  deps: RunJobDeps,
  initial: RunJobState = { clusterId: '', clusterLabel: '', teardown: false },
): Promise<RunJobState | undefined> {
  const { prompter } = deps;
  const steps: Step<RunJobState>[] = [
    { id: 'cluster', run: (s, meta) => clusterStep(deps, s, meta) },
    {
      id: 'teardown',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.pick<boolean>({
            ...meta,
            placeholder: 'When the job ends, keep the cluster or destroy it?',
            items: [
              {
                label: 'Keep the cluster',
                description: 'it keeps running (and billing) after the job',
                value: false,
              },
              {
                label: 'Destroy the cluster when the job ends',
                description: `${s.clusterLabel} is torn down, whatever the outcome`,
                value: true,
              },
            ],
            active: s.teardown,
          }),
          (teardown) => ({ ...s, teardown }),
        ),
    },
    {
      id: 'summary',
      run: async (s, meta) => {
        type Row = 'run' | 'cluster' | 'teardown';
        const rows: PickItem<Row>[] = [
          {
            label: '$(play) Run job',
            description: `${deps.fileName} on ${s.clusterLabel}`,
            detail: s.teardown
              ? `The cluster ${s.clusterLabel} will be destroyed when the job ends.`
              : `The cluster ${s.clusterLabel} keeps running after the job ends.`,
            value: 'run',
          },
          { label: 'Cluster', description: s.clusterLabel, value: 'cluster' },
          {
            label: 'When the job ends',
            description: s.teardown ? 'destroy the cluster' : 'keep the cluster',
            value: 'teardown',
          },
        ];
        const picked = await prompter.pick<Row>({
          ...meta,
          placeholder: 'Review and run (pick a row to change it)',
          items: rows,
          active: 'run',
        });
        if (picked.kind !== 'value') return picked;
        if (picked.value === 'run') return { kind: 'value', value: s };
        return { kind: 'goto', target: picked.value, value: s };
      },
    },
  ];
  return runSteps(steps, initial, {
    title: `${RUN_JOB_TITLE}: ${deps.fileName}`,
    prompter,
    isDirty: (s) => s.clusterId !== '',
    discardMessage: 'Stop without running the job?',
  });
}
