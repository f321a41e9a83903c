/**
 * The create-cluster wizard: one field per step, validated as the user types, a summary to
 * confirm. It produces the request body; sending it is the caller's job (and is never retried).
 */
import * as l10n from '@vscode/l10n';
import {
  KNOWN_INSTANCE_TYPES,
  validateClusterName,
  validateContainerImage,
  validateInstanceType,
  validateNumNodes,
} from '../model/validate';
import type { SavedKeys } from './savedKeys';
import { errorTaker, pickNewProtection } from './commonSteps';
import { keyStep } from './createClusterKey';
import { summaryStep } from './createClusterSummary';
import {
  EMPTY_CREATE,
  createClusterTitle,
  isDirty,
  nameWarning,
  type CreateState,
  type CreateWizardDeps,
  type CreateWizardOptions,
} from './createClusterState';
import { mapAnswer, runSteps, type Step } from './steps';

export {
  FIELD_STEP,
  toCreateRequest,
  type CreateState,
  type CreateStepId,
  type CreateWizardDeps,
  type CreateWizardOptions,
  type LocalKey,
} from './createClusterState';

export async function runCreateWizard(
  deps: CreateWizardDeps,
  options: CreateWizardOptions = {},
): Promise<CreateState | undefined> {
  const { prompter } = deps;
  const takeError = errorTaker(options.errors);

  /** Listed once per wizard run (the key step and the summary both use it). */
  let saved: Promise<SavedKeys | undefined> | undefined;
  const savedKeys = () =>
    (saved ??= deps.savedKeys ? deps.savedKeys().catch(() => undefined) : Promise.resolve(undefined));

  const askPrice = (type: string, nodes: string) => {
    const n = Number(nodes.trim());
    if (deps.prices && type && Number.isInteger(n) && n > 0) void deps.prices.ask(type, n);
  };
  const steps: Step<CreateState>[] = [
    {
      id: 'instanceType',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.pick<string>({
            ...meta,
            placeholder: l10n.t(
              'GPU instance type: pick one, or type another as <count>x<model> (e.g. 8xH100)',
            ),
            items: KNOWN_INSTANCE_TYPES.map((t) => ({ label: t, description: describeType(t), value: t })),
            active: s.instanceType || undefined,
            initialError: takeError('instanceType'),
            custom: {
              label: (t) => l10n.t('Use "{0}"', t),
              validate: validateInstanceType,
              toValue: (t) => t.trim(),
            },
          }),
          (instanceType) => {
            askPrice(instanceType, s.numNodes);
            return { ...s, instanceType };
          },
        ),
    },
    {
      id: 'numNodes',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: s.instanceType
              ? l10n.t('Number of nodes (each node is one {0})', s.instanceType)
              : l10n.t('Number of nodes (each node is one instance)'),
            value: s.numNodes,
            placeholder: '1',
            initialError: takeError('numNodes'),
            validate: (v) => {
              const verdict = validateNumNodes(v);
              if (verdict === undefined) askPrice(s.instanceType, v); // while the user types
              return verdict;
            },
          }),
          (numNodes) => ({ ...s, numNodes: numNodes.trim() }),
        ),
    },
    {
      id: 'name',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: l10n.t('Cluster name (optional: leave empty for a generated name)'),
            value: s.name,
            placeholder: l10n.t('e.g. {0}', 'llama-finetune'),
            initialError: takeError('name'),
            validate: (v) => {
              if (v === '') return undefined;
              const problem = validateClusterName(v);
              if (problem) return problem;
              const warning = nameWarning(deps.existingNames(), v);
              return warning ? { message: warning, severity: 'warning' } : undefined;
            },
          }),
          (name) => ({ ...s, name }),
        ),
    },
    { id: 'key', run: (s, meta) => keyStep(deps, s, meta, takeError('key'), savedKeys) },
    {
      id: 'container',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: l10n.t('Container image (optional: leave empty for the default image)'),
            value: s.container,
            placeholder: l10n.t('e.g. {0}', 'nvcr.io/nvidia/pytorch:24.05-py3'),
            initialError: takeError('container'),
            validate: (v) => (v === '' ? undefined : validateContainerImage(v)),
          }),
          (container) => ({ ...s, container: container.trim() }),
        ),
    },
    {
      id: 'deletionProtection',
      run: async (s, meta) =>
        mapAnswer(
          await pickNewProtection(prompter, meta, {
            placeholder: l10n.t(
              'Deletion protection: a protected cluster cannot be destroyed until protection is turned off',
            ),
            offDescription: l10n.t('the cluster can be destroyed directly'),
            active: s.deletionProtection,
            initialError: takeError('deletionProtection'),
          }),
          (deletionProtection) => ({ ...s, deletionProtection }),
        ),
    },
    { id: 'summary', run: async (s, meta) => summaryStep(deps, s, meta, await savedKeys()) },
  ];

  return runSteps(steps, options.initial ?? EMPTY_CREATE, {
    title: createClusterTitle(),
    prompter,
    startAt: options.startAt,
    returnTo: options.initial ? 'summary' : undefined,
    isDirty,
    discardMessage: l10n.t('Discard the cluster you were setting up?'),
  });
}

function describeType(t: string): string {
  const [count, model] = t.split('x');
  if (model === 'CPU') return l10n.t('{0} vCPUs per node, no GPU', count);
  return count === '1'
    ? l10n.t('1 × {0} GPU per node', model)
    : l10n.t('{0} × {1} GPUs per node', count, model);
}
