/**
 * The create-volume wizard: size (with the service's 24-hour balance rule in the prompt), optional
 * name, deletion protection, summary. It produces the POST /storage/create body; sending it (once)
 * is the caller's job.
 */
import * as l10n from '@vscode/l10n';
import { formatHourly } from '../model/gpu/cost';
import type { PriceQuotes } from '../model/priceQuotes';
import { balanceRule, validateUniqueVolumeName, validateVolumeSize, type Volume } from '../model/volume';
import { errorTaker, pickNewProtection, protectionRow } from './commonSteps';
import type { PickItem, Prompter } from './prompter';
import { mapAnswer, runSteps, type Step } from './steps';

const createVolumeTitle = (): string => l10n.t('Create TensorPool Storage Volume');

export interface CreateVolumeState {
  readonly size: string;
  readonly name: string;
  readonly deletionProtection: boolean;
}

const EMPTY_VOLUME: CreateVolumeState = { size: '', name: '', deletionProtection: false };

export type CreateVolumeStepId = 'size' | 'name' | 'deletionProtection' | 'summary';

/** Which step a request field belongs to (a 422 reopens the wizard there). */
export const VOLUME_FIELD_STEP: Readonly<Record<string, CreateVolumeStepId>> = {
  size: 'size',
  name: 'name',
  deletion_protection: 'deletionProtection',
};

export interface CreateVolumeDeps {
  readonly prompter: Prompter;
  /** Volumes in scope (names must be unique). */
  readonly volumes: () => readonly Volume[];
  /** Price per GB-hour when known (from listed volumes), for the balance sentence. */
  readonly ratePerGbHour?: number;
  /** Hourly prices by size in GB (GET /storage/quote; asked while the user types; optional). */
  readonly prices?: PriceQuotes<[number]>;
}

export interface CreateVolumeOptions {
  readonly initial?: CreateVolumeState;
  readonly startAt?: CreateVolumeStepId;
  readonly errors?: Partial<Record<CreateVolumeStepId, string>>;
}

export function toVolumeCreateRequest(s: CreateVolumeState): {
  size: number;
  deletion_protection: boolean;
  name?: string;
} {
  return {
    size: Number(s.size.trim()),
    deletion_protection: s.deletionProtection,
    ...(s.name.trim() ? { name: s.name.trim() } : {}),
  };
}

export async function runCreateVolumeWizard(
  deps: CreateVolumeDeps,
  options: CreateVolumeOptions = {},
): Promise<CreateVolumeState | undefined> {
  const { prompter } = deps;
  const take = errorTaker(options.errors);
  const steps: Step<CreateVolumeState>[] = [
    {
      id: 'size',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: l10n.t(
              'Size in GB (a whole number, at least 1). {0}',
              balanceRule(deps.ratePerGbHour, s.size || '100'),
            ),
            placeholder: '100',
            value: s.size,
            initialError: take('size'),
            validate: (v) => {
              const verdict = validateVolumeSize(v);
              if (verdict === undefined && deps.prices) void deps.prices.ask(Number(v.trim()));
              return verdict;
            },
          }),
          (size) => ({ ...s, size: size.trim() }),
        ),
    },
    {
      id: 'name',
      run: async (s, meta) =>
        mapAnswer(
          await prompter.input({
            ...meta,
            prompt: l10n.t('Name (optional, unique among your volumes); leave empty for a generated name'),
            placeholder: l10n.t({ message: 'datasets', comment: ['An example volume name'] }),
            value: s.name,
            initialError: take('name'),
            validate: (v) => (v === '' ? undefined : validateUniqueVolumeName(deps.volumes(), undefined, v)),
          }),
          (name) => ({ ...s, name: name.trim() }),
        ),
    },
    {
      id: 'deletionProtection',
      run: async (s, meta) =>
        mapAnswer(
          await pickNewProtection(prompter, meta, {
            placeholder: l10n.t('Deletion protection: a protected volume cannot be destroyed'),
            offDescription: l10n.t('the volume can be destroyed'),
            active: s.deletionProtection,
            initialError: take('deletionProtection'),
          }),
          (deletionProtection) => ({ ...s, deletionProtection }),
        ),
    },
    {
      id: 'summary',
      run: async (s, meta) => {
        type Row = 'create' | 'size' | 'name' | 'deletionProtection';
        const what = s.name ? l10n.t('{0} GB, {1}', s.size, s.name) : l10n.t('{0} GB', s.size);
        const rowsAt = (price: number | undefined): PickItem<Row>[] => [
          {
            label: l10n.t('$(database) Create volume'),
            description: price === undefined ? what : l10n.t('{0} · {1}', what, formatHourly(price)),
            detail: l10n.t('{0} Billing starts when it is created.', balanceRule(deps.ratePerGbHour, s.size)),
            value: 'create',
          },
          { label: l10n.t('Size'), description: l10n.t('{0} GB', s.size), value: 'size' },
          { label: l10n.t('Name'), description: s.name || l10n.t('(generated)'), value: 'name' },
          protectionRow(s.deletionProtection, 'deletionProtection'),
        ];
        const size = Number(s.size.trim());
        const price = deps.prices?.known(size);
        const rows = rowsAt(price);
        const picked = await prompter.pick<Row>({
          ...meta,
          placeholder: l10n.t('Review and create (pick a row to change it)'),
          items: rows,
          active: 'create',
          initialError: take('summary'),
          later:
            deps.prices && price === undefined
              ? deps.prices.ask(size).then((p) => (p === undefined ? undefined : rowsAt(p)))
              : undefined,
        });
        if (picked.kind !== 'value') return picked;
        return picked.value === 'create'
          ? { kind: 'value', value: s }
          : { kind: 'goto', target: picked.value, value: s };
      },
    },
  ];
  return runSteps(steps, options.initial ?? EMPTY_VOLUME, {
    title: createVolumeTitle(),
    prompter,
    startAt: options.startAt,
    returnTo: options.initial ? 'summary' : undefined,
    isDirty: (s) => s.size !== '' || s.name !== '' || s.deletionProtection,
    discardMessage: l10n.t('Discard this new volume?'),
  });
}
