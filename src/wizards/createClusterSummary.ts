/** The create-cluster wizard's last step: review the answers, create, or pick a row to change it. */
import * as l10n from '@vscode/l10n';
import { formatHourly } from '../model/gpu/cost';
import { protectionRow } from './commonSteps';
import type { PickItem, StepMeta } from './prompter';
import { noKeySummary, unreachableWarning, type SavedKeys } from './savedKeys';
import type { StepAnswer } from './steps';
import { basename } from './createClusterKey';
import {
  toCreateRequest,
  type CreateState,
  type CreateStepId,
  type CreateWizardDeps,
} from './createClusterState';

export async function summaryStep(
  deps: CreateWizardDeps,
  s: CreateState,
  meta: StepMeta,
  saved: SavedKeys | undefined,
): Promise<StepAnswer<CreateState>> {
  type Row = { kind: 'create' } | { kind: 'edit'; field: CreateStepId };
  const body = toCreateRequest(s);
  const unreachable = s.key.kind === 'none' && saved?.names.length === 0;
  const keyText =
    s.key.kind === 'none'
      ? noKeySummary(saved)
      : s.key.kind === 'file'
        ? basename(s.key.path)
        : l10n.t('pasted key');
  const what =
    body.num_nodes === 1
      ? l10n.t('{0} × 1 node', body.instance_type)
      : l10n.t('{0} × {1} nodes', body.instance_type, body.num_nodes);
  const rowsAt = (price: number | undefined): PickItem<Row>[] => [
    {
      label: l10n.t('$(rocket) Create cluster'),
      description: price === undefined ? what : l10n.t('{0} · {1}', what, formatHourly(price)),
      detail: unreachable
        ? l10n.t('Billing starts when the nodes are provisioned. {0}', unreachableWarning())
        : l10n.t('Billing starts when the nodes are provisioned.'),
      value: { kind: 'create' },
    },
    ...(unreachable
      ? [
          {
            label: l10n.t('$(key) Add an SSH Key…'),
            description: l10n.t(
              'pick one from ~/.ssh, generate or paste one; it can be saved to your account',
            ),
            value: { kind: 'edit', field: 'key' } as Row,
          },
        ]
      : []),
    {
      label: l10n.t('Instance type'),
      description: s.instanceType,
      value: { kind: 'edit', field: 'instanceType' },
    },
    { label: l10n.t('Nodes'), description: s.numNodes, value: { kind: 'edit', field: 'numNodes' } },
    {
      label: l10n.t('Name'),
      description: s.name || l10n.t('(generated)'),
      value: { kind: 'edit', field: 'name' },
    },
    {
      label: l10n.t('SSH key'),
      description:
        s.key.kind === 'none'
          ? keyText
          : s.saveKeys
            ? l10n.t('{0}, saved to profile', keyText)
            : l10n.t('{0}, this cluster only', keyText),
      value: { kind: 'edit', field: 'key' },
    },
    {
      label: l10n.t('Container image'),
      description: s.container
        ? l10n.t('{0} (sent as {1})', s.container, deps.imageField)
        : l10n.t('(default)'),
      value: { kind: 'edit', field: 'container' },
    },
    protectionRow(s.deletionProtection, { kind: 'edit', field: 'deletionProtection' }),
  ];
  // The price when it already came; else the rows are shown now and the price joins them when it comes.
  const prices = deps.prices;
  const price = prices?.known(body.instance_type, body.num_nodes);
  const rows = rowsAt(price);
  const picked = await deps.prompter.pick<Row>({
    ...meta,
    placeholder: l10n.t('Review and create (pick a row to change it)'),
    items: rows,
    active: rows[0].value,
    later:
      prices && price === undefined
        ? prices
            .ask(body.instance_type, body.num_nodes)
            .then((p) => (p === undefined ? undefined : rowsAt(p)))
        : undefined,
  });
  if (picked.kind !== 'value') return picked;
  if (picked.value.kind === 'create') return { kind: 'value', value: s };
  return { kind: 'goto', target: picked.value.field, value: s };
}
