/**
 * The "Run on Cluster…" wizard for a job file: which cluster (running ones first, the one last used for
 * this file preselected, "Create a cluster…" that runs the create wizard and comes back, or an ID typed
 * by hand when the list could not be read), whether to tear the cluster down when the job ends (off by
 * default), then a summary. Sending the job (once) is the caller's job. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import { validateClusterRef } from '../model/validate';
import { withIcon, type PickItem, type Prompter } from './prompter';
import { mapAnswer, runSteps, type Step } from './steps';

const createClusterLabel = (): string => l10n.t('Create a cluster…');

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
      detail: c.running
        ? c.id
        : l10n.t('{0} · not running: the service may refuse the job until it is', c.id),
      value: { kind: 'cluster' as const, target: c },
    })),
    ...(deps.createCluster
      ? [
          {
            label: withIcon('add', createClusterLabel()),
            description: l10n.t('then run the job on it'),
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
        ? l10n.t('Cluster to run {0} on (or type a cluster ID)', deps.fileName)
        : l10n.t('{0} Create one, or type a cluster ID.', deps.listNote ?? l10n.t('No cluster is listed.')),
      items,
      active,
      initialError,
      custom: {
        label: (text) => l10n.t('Use cluster ID "{0}"', text.trim()),
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
    initialError = l10n.t('No cluster was created. Pick one, or create one again.');
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
            placeholder: l10n.t('When the job ends, keep the cluster or destroy it?'),
            items: [
              {
                label: l10n.t('Keep the cluster'),
                description: l10n.t('it keeps running (and billing) after the job'),
                value: false,
              },
              {
                label: l10n.t('Destroy the cluster when the job ends'),
                description: l10n.t('{0} is torn down, whatever the outcome', s.clusterLabel),
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
            label: l10n.t('$(play) Run job'),
            description: l10n.t('{0} on {1}', deps.fileName, s.clusterLabel),
            detail: s.teardown
              ? l10n.t('The cluster {0} will be destroyed when the job ends.', s.clusterLabel)
              : l10n.t('The cluster {0} keeps running after the job ends.', s.clusterLabel),
            value: 'run',
          },
          { label: l10n.t('Cluster'), description: s.clusterLabel, value: 'cluster' },
          {
            label: l10n.t('When the job ends'),
            description: s.teardown ? l10n.t('destroy the cluster') : l10n.t('keep the cluster'),
            value: 'teardown',
          },
        ];
        const picked = await prompter.pick<Row>({
          ...meta,
          placeholder: l10n.t('Review and run (pick a row to change it)'),
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
    title: l10n.t('Run Job on TensorPool: {0}', deps.fileName),
    prompter,
    isDirty: (s) => s.clusterId !== '',
    discardMessage: l10n.t('Stop without running the job?'),
  });
}
