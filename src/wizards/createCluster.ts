/**
 * The create-cluster wizard: one field per step, validated as the user types, a summary to
 * confirm. It produces the request body; sending it is the caller's job (and is never retried).
 */
import {
  KNOWN_INSTANCE_TYPES,
  validateClusterName,
  validateContainerImage,
  validateInstanceType,
  validateNumNodes,
  validatePublicKey,
} from '../model/validate';
import type { Answer, PickItem, Prompter, StepMeta } from './prompter';
import {
  NO_KEY_LABEL,
  UNREACHABLE_WARNING,
  noKeyDescription,
  noKeySummary,
  type SavedKeys,
} from './savedKeys';
import { mapAnswer, runSteps, type Step, type StepAnswer } from './steps';

export interface LocalKey {
  /** Path of the .pub file. */
  readonly path: string;
  readonly key: string;
  readonly comment?: string;
}

export type KeyChoice =
  | { readonly kind: 'none' }
  | { readonly kind: 'file'; readonly path: string; readonly key: string }
  | { readonly kind: 'pasted'; readonly key: string };

export interface CreateState {
  readonly instanceType: string;
  readonly numNodes: string;
  readonly name: string;
  readonly key: KeyChoice;
  readonly container: string;
  readonly deletionProtection: boolean;
  readonly saveKeys: boolean;
}

export const EMPTY_CREATE: CreateState = {
  instanceType: '',
  numNodes: '1',
  name: '',
  key: { kind: 'none' },
  container: '',
  deletionProtection: false,
  saveKeys: true,
};

export interface CreateWizardDeps {
  readonly prompter: Prompter;
  /** ~/.ssh/*.pub (read by the caller; the wizard does no I/O). */
  readonly localKeys: () => Promise<readonly LocalKey[]>;
  /** Make a new key pair (ssh-keygen) when the user asks for one. */
  readonly generateKey?: () => Promise<LocalKey>;
  /** Cluster names already used in the scope (for a warning, not a refusal: the server decides). */
  readonly existingNames: () => readonly string[];
  /** The wire name of the image field, shown in the summary. */
  readonly imageField: string;
  /** The keys saved on the account (savedKeys.ts); undefined or failing: not known. */
  readonly savedKeys?: () => Promise<SavedKeys | undefined>;
}

export interface CreateWizardOptions {
  readonly initial?: CreateState;
  /** Reopen at this step with this message (a 422 from the server). */
  readonly startAt?: CreateStepId;
  readonly errors?: Partial<Record<CreateStepId, string>>;
}

export type CreateStepId =
  'instanceType' | 'numNodes' | 'name' | 'key' | 'container' | 'deletionProtection' | 'summary';

/** Which wizard step a request field belongs to (to reopen the wizard where a 422 points). */
export const FIELD_STEP: Readonly<Record<string, CreateStepId>> = {
  instance_type: 'instanceType',
  num_nodes: 'numNodes',
  tp_cluster_name: 'name',
  public_keys: 'key',
  container: 'container',
  experimental_container: 'container',
  deletion_protection: 'deletionProtection',
  save_keys: 'key',
};

export const TITLE = 'Create TensorPool Cluster';

export function isDirty(s: CreateState): boolean {
  return (
    s.instanceType !== '' ||
    s.numNodes !== '1' ||
    s.name !== '' ||
    s.key.kind !== 'none' ||
    s.container !== '' ||
    s.deletionProtection
  );
}

function keyOf(choice: KeyChoice): string | undefined {
  return choice.kind === 'none' ? undefined : choice.key;
}

/** The request body for POST /cluster/create (the client renames `container` per the setting). */
export function toCreateRequest(s: CreateState): {
  instance_type: string;
  num_nodes: number;
  tp_cluster_name?: string;
  public_keys?: string[];
  container?: string;
  deletion_protection: boolean;
  save_keys?: boolean;
} {
  const key = keyOf(s.key);
  return {
    instance_type: s.instanceType,
    num_nodes: Number(s.numNodes.trim()),
    ...(s.name.trim() ? { tp_cluster_name: s.name.trim() } : {}),
    ...(key ? { public_keys: [key.trim()], save_keys: s.saveKeys } : {}),
    ...(s.container.trim() ? { container: s.container.trim() } : {}),
    deletion_protection: s.deletionProtection,
  };
}

export function nameWarning(names: readonly string[], name: string): string | undefined {
  const n = name.trim();
  return n && names.includes(n)
    ? `A cluster named "${n}" already exists in this scope; the service will refuse a duplicate name.`
    : undefined;
}

export async function runCreateWizard(
  deps: CreateWizardDeps,
  options: CreateWizardOptions = {},
): Promise<CreateState | undefined> {
  const { prompter } = deps;
  const errors = { ...options.errors };
  /** A server message is shown once, on the first visit of its step. */
  const takeError = (id: CreateStepId) => {
    const e = errors[id];
    delete errors[id];
    return e;
  };

  /** Listed once per wizard run (the key step and the summary both use it). */
  let saved: Promise<SavedKeys | undefined> | undefined;
  const savedKeys = () =>
    (saved ??= deps.savedKeys ? deps.savedKeys().catch(() => undefined) : Promise.resolve(undefined));

  const steps: Step<CreateState>[] = [
    {
      id: 'instanceType',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.pick<string>({
            ...meta,
            placeholder: 'GPU instance type: pick one, or type another as <count>x<model> (e.g. 8xH100)',
            items: KNOWN_INSTANCE_TYPES.map((t) => ({ label: t, description: describeType(t), value: t })),
            active: s.instanceType || undefined,
            initialError: takeError('instanceType'),
            custom: { label: (t) => `Use "${t}"`, validate: validateInstanceType, toValue: (t) => t.trim() },
          }),
          (instanceType) => ({ ...s, instanceType }),
        ),
    },
    {
      id: 'numNodes',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: `Number of nodes (each node is one ${s.instanceType || 'instance'})`,
            value: s.numNodes,
            placeholder: '1',
            initialError: takeError('numNodes'),
            validate: validateNumNodes,
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
            prompt: 'Cluster name (optional: leave empty for a generated name)',
            value: s.name,
            placeholder: 'e.g. llama-finetune',
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
            prompt: 'Container image (optional: leave empty for the default image)',
            value: s.container,
            placeholder: 'e.g. nvcr.io/nvidia/pytorch:24.05-py3',
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
          await prompter.pick<boolean>({
            ...meta,
            placeholder:
              'Deletion protection: a protected cluster cannot be destroyed until protection is turned off',
            items: [
              { label: 'Off', description: 'the cluster can be destroyed directly', value: false },
              { label: 'On', description: 'protect against accidental destroy', value: true },
            ],
            active: s.deletionProtection,
            initialError: takeError('deletionProtection'),
          }),
          (deletionProtection) => ({ ...s, deletionProtection }),
        ),
    },
    { id: 'summary', run: async (s, meta) => summaryStep(deps, s, meta, await savedKeys()) },
  ];

  return runSteps(steps, options.initial ?? EMPTY_CREATE, {
    title: TITLE,
    prompter,
    startAt: options.startAt,
    returnTo: options.initial ? 'summary' : undefined,
    isDirty,
    discardMessage: 'Discard the cluster you were setting up?',
  });
}

async function keyStep(
  deps: CreateWizardDeps,
  s: CreateState,
  meta: StepMeta,
  initialError: string | undefined,
  savedKeys: () => Promise<SavedKeys | undefined>,
): Promise<Answer<CreateState>> {
  const keys = await deps.localKeys();
  const saved = await savedKeys();
  type KeyPick =
    { kind: 'none' } | { kind: 'paste' } | { kind: 'generate' } | { kind: 'file'; key: LocalKey };
  const items: PickItem<KeyPick>[] = [
    ...keys.map((k) => ({
      label: `$(key) ${basename(k.path)}`,
      description: k.comment,
      detail: `${k.key.slice(0, 40)}…`,
      value: { kind: 'file' as const, key: k },
    })),
    ...(deps.generateKey
      ? [
          {
            label: '$(add) Generate a new ed25519 key…',
            description: 'with ssh-keygen, in ~/.ssh',
            value: { kind: 'generate' },
          } as PickItem<KeyPick>,
        ]
      : []),
    { label: '$(clippy) Paste a public key…', value: { kind: 'paste' } },
    {
      label: `$(circle-slash) ${NO_KEY_LABEL}`,
      description: noKeyDescription(saved),
      value: { kind: 'none' },
    },
  ];
  const previous = s.key;
  const active = items.find((i) =>
    previous.kind === 'file'
      ? i.value.kind === 'file' && i.value.key.path === previous.path
      : previous.kind === 'pasted'
        ? i.value.kind === 'paste'
        : i.value.kind === 'none',
  )?.value;
  // Text left in the paste box (Escape then keep editing, Back) is shown there again; after Escape, at once.
  let pasteDraft = meta.draft;
  let pasteFirst = pasteDraft !== undefined;
  for (;;) {
    const picked: Answer<KeyPick> = pasteFirst
      ? { kind: 'value', value: { kind: 'paste' } }
      : await deps.prompter.pick<KeyPick>({
          ...meta,
          placeholder: keys.length
            ? 'SSH public key for the nodes (combined with the keys saved for you and your organisation)'
            : 'No ~/.ssh/*.pub found. Generate or paste a public key, or continue with the keys saved on your account',
          items,
          active,
          initialError,
        });
    pasteFirst = false;
    if (picked.kind !== 'value') return picked;
    let v = picked.value;
    if (v.kind === 'none') return { kind: 'value', value: { ...s, key: { kind: 'none' } } };
    if (v.kind === 'generate' && deps.generateKey) {
      try {
        v = { kind: 'file', key: await deps.generateKey() };
      } catch (e) {
        initialError = `Could not generate a key: ${e instanceof Error ? e.message : String(e)}`;
        continue;
      }
    }
    if (v.kind === 'file') {
      const problem = validatePublicKey(v.key.key);
      if (problem) {
        initialError = `${basename(v.key.path)}: ${problem}`;
        continue;
      }
      const save = await askSaveKey(deps.prompter, meta, s.saveKeys);
      if (save.kind === 'value')
        return {
          kind: 'value',
          value: {
            ...s,
            key: { kind: 'file', path: v.key.path, key: v.key.key.trim() },
            saveKeys: save.value,
          },
        };
      if (save.kind === 'cancel') return save;
      continue; // Back: the key list again
    }
    const pasted = await deps.prompter.input({
      ...meta,
      prompt: 'Paste an SSH public key (one line from a .pub file)',
      value: s.key.kind === 'pasted' ? s.key.key : '',
      draft: pasteDraft,
      placeholder: 'ssh-ed25519 AAAA… you@host',
      validate: validatePublicKey,
    });
    if (pasted.kind === 'cancel') return { kind: 'cancel', typed: pasted.typed ?? pasteDraft };
    pasteDraft = pasted.kind === 'value' ? pasted.value : (pasted.typed ?? pasteDraft);
    if (pasted.kind === 'value') {
      const save = await askSaveKey(deps.prompter, meta, s.saveKeys);
      if (save.kind === 'value')
        return {
          kind: 'value',
          value: { ...s, key: { kind: 'pasted', key: pasted.value.trim() }, saveKeys: save.value },
        };
      if (save.kind === 'cancel') return save;
    }
    // Back from the paste box returns to the key list.
  }
}

/** Part of the key step: a new key can be saved to the profile (the API's save_keys, default true). */
async function askSaveKey(prompter: Prompter, meta: StepMeta, current: boolean): Promise<Answer<boolean>> {
  return prompter.pick<boolean>({
    ...meta,
    placeholder: 'Save this SSH key to your TensorPool profile, so later clusters get it too?',
    items: [
      { label: 'Save the key', description: 'added to future clusters as well', value: true },
      { label: 'Only for this cluster', value: false },
    ],
    active: current,
  });
}

async function summaryStep(
  deps: CreateWizardDeps,
  s: CreateState,
  meta: StepMeta,
  saved: SavedKeys | undefined,
): Promise<StepAnswer<CreateState>> {
  type Row = { kind: 'create' } | { kind: 'edit'; field: CreateStepId };
  const body = toCreateRequest(s);
  const unreachable = s.key.kind === 'none' && saved?.names.length === 0;
  const keyText =
    s.key.kind === 'none' ? noKeySummary(saved) : s.key.kind === 'file' ? basename(s.key.path) : 'pasted key';
  const rows: PickItem<Row>[] = [
    {
      label: '$(rocket) Create cluster',
      description: `${body.instance_type} × ${body.num_nodes} node${body.num_nodes === 1 ? '' : 's'}`,
      detail: unreachable
        ? `Billing starts when the nodes are provisioned. ${UNREACHABLE_WARNING}`
        : 'Billing starts when the nodes are provisioned.',
      value: { kind: 'create' },
    },
    { label: 'Instance type', description: s.instanceType, value: { kind: 'edit', field: 'instanceType' } },
    { label: 'Nodes', description: s.numNodes, value: { kind: 'edit', field: 'numNodes' } },
    { label: 'Name', description: s.name || '(generated)', value: { kind: 'edit', field: 'name' } },
    {
      label: 'SSH key',
      description:
        s.key.kind === 'none'
          ? keyText
          : `${keyText}${s.saveKeys ? ', saved to profile' : ', this cluster only'}`,
      value: { kind: 'edit', field: 'key' },
    },
    {
      label: 'Container image',
      description: s.container ? `${s.container} (sent as ${deps.imageField})` : '(default)',
      value: { kind: 'edit', field: 'container' },
    },
    {
      label: 'Deletion protection',
      description: s.deletionProtection ? 'on' : 'off',
      value: { kind: 'edit', field: 'deletionProtection' },
    },
  ];
  const picked = await deps.prompter.pick<Row>({
    ...meta,
    placeholder: 'Review and create (pick a row to change it)',
    items: rows,
    active: rows[0].value,
  });
  if (picked.kind !== 'value') return picked;
  if (picked.value.kind === 'create') return { kind: 'value', value: s };
  return { kind: 'goto', target: picked.value.field, value: s };
}

function describeType(t: string): string {
  const [count, model] = t.split('x');
  if (model === 'CPU') return `${count} vCPUs per node, no GPU`;
  return `${count} × ${model} GPU${count === '1' ? '' : 's'} per node`;
}

function basename(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}
