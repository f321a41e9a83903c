/**
 * The edit-cluster wizard: pick the cluster (unless given), rename and/or set deletion protection,
 * review. Produces only the fields that changed; nothing changed means nothing to send.
 */
import * as l10n from '@vscode/l10n';
import { clusterLabel, type Cluster } from '../model/cluster';
import { clusterPickLabel } from '../model/labels';
import { validateClusterName } from '../model/validate';
import {
  errorTaker,
  pickEditedProtection,
  protectionChange,
  protectionRow,
  reviewChanges,
} from './commonSteps';
import type { PickItem, Prompter } from './prompter';
import { mapAnswer, runSteps, type Step } from './steps';

const editClusterTitle = (): string => l10n.t('Edit TensorPool Cluster');

export interface EditState {
  readonly cluster: Cluster | undefined;
  readonly name: string;
  readonly deletionProtection: boolean | undefined;
}

export interface EditWizardDeps {
  readonly prompter: Prompter;
  readonly clusters: () => readonly Cluster[];
}

export interface EditWizardOptions {
  readonly cluster?: Cluster;
  readonly initial?: EditState;
  readonly startAt?: 'cluster' | 'name' | 'deletionProtection' | 'summary';
  readonly errors?: Partial<Record<'name' | 'deletionProtection', string>>;
}

export interface EditChanges {
  cluster_name?: string;
  deletion_protection?: boolean;
}

/** What differs from the cluster as it is; empty when nothing changed. */
export function editChanges(s: EditState): EditChanges {
  const out: EditChanges = {};
  if (!s.cluster) return out;
  const name = s.name.trim();
  if (name !== '' && name !== (s.cluster.name ?? '')) out.cluster_name = name;
  if (
    s.deletionProtection !== undefined &&
    s.deletionProtection !== (s.cluster.deletionProtection ?? false)
  ) {
    out.deletion_protection = s.deletionProtection;
  }
  return out;
}

function validateNewName(
  all: readonly Cluster[],
  self: Cluster | undefined,
  value: string,
): string | undefined {
  const problem = validateClusterName(value);
  if (problem) return problem;
  const clash = all.find((c) => c.id !== self?.id && c.name === value.trim());
  return clash
    ? l10n.t(
        'Another cluster ({0}) is already named "{1}"; names are unique in your scope.',
        clash.id,
        value.trim(),
      )
    : undefined;
}

function startEdit(cluster: Cluster): EditState {
  return { cluster, name: cluster.name ?? '', deletionProtection: cluster.deletionProtection ?? false };
}

export async function runEditWizard(
  deps: EditWizardDeps,
  options: EditWizardOptions = {},
): Promise<EditState | undefined> {
  const { prompter } = deps;
  const take = errorTaker(options.errors);
  const preselected = options.cluster !== undefined;
  const steps: Step<EditState>[] = [
    {
      id: 'cluster',
      skip: () => preselected,
      run: async (s, meta) =>
        mapAnswer(
          await prompter.pick<Cluster>({
            ...meta,
            placeholder: l10n.t('Which cluster?'),
            items: deps.clusters().map((c): PickItem<Cluster> => ({ ...clusterPickLabel(c), value: c })),
            active: s.cluster,
          }),
          (cluster) => (cluster.id === s.cluster?.id ? s : startEdit(cluster)),
        ),
    },
    {
      id: 'name',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: s.cluster
              ? l10n.t('Name for {0} (keep it to leave the name unchanged)', clusterLabel(s.cluster))
              : l10n.t('Name for the cluster (keep it to leave the name unchanged)'),
            value: s.name,
            initialError: take('name'),
            validate: (v) =>
              v.trim() === (s.cluster?.name ?? '') && v.trim() !== ''
                ? undefined
                : validateNewName(deps.clusters(), s.cluster, v),
          }),
          (name) => ({ ...s, name: name.trim() }),
        ),
    },
    {
      id: 'deletionProtection',
      run: async (s, meta) =>
        mapAnswer(
          await pickEditedProtection(prompter, meta, {
            what: 'cluster',
            current: s.cluster?.deletionProtection ?? false,
            active: s.deletionProtection,
            initialError: take('deletionProtection'),
          }),
          (deletionProtection) => ({ ...s, deletionProtection }),
        ),
    },
    {
      id: 'summary',
      run: (s, meta) => {
        const changes = editChanges(s);
        const lines: string[] = [];
        if (changes.cluster_name !== undefined) lines.push(l10n.t('rename to "{0}"', changes.cluster_name));
        if (changes.deletion_protection !== undefined)
          lines.push(protectionChange(changes.deletion_protection));
        return reviewChanges(prompter, meta, s, {
          changes: lines,
          fields: [
            { label: l10n.t('Name'), description: s.name, value: 'name' },
            protectionRow(s.deletionProtection, 'deletionProtection'),
          ],
        });
      },
    },
  ];
  const initial =
    options.initial ??
    (options.cluster
      ? startEdit(options.cluster)
      : { cluster: undefined, name: '', deletionProtection: undefined });
  return runSteps(steps, initial, {
    title: editClusterTitle(),
    prompter,
    startAt: options.startAt,
    returnTo: options.initial ? 'summary' : undefined,
    isDirty: (s) => Object.keys(editChanges(s)).length > 0,
    discardMessage: l10n.t('Discard your changes to the cluster?'),
  });
}
