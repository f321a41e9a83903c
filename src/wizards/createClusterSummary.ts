/** The create-cluster wizard's last step: review the answers, create, or pick a row to change it. */
import { protectionRow } from './commonSteps';
import type { PickItem, StepMeta } from './prompter';
import { UNREACHABLE_WARNING, noKeySummary, type SavedKeys } from './savedKeys';
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
    ...(unreachable
      ? [
          {
            label: '$(key) Add an SSH Key…',
            description: 'pick one from ~/.ssh, generate or paste one; it can be saved to your account',
            value: { kind: 'edit', field: 'key' } as Row,
          },
        ]
      : []),
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
    protectionRow(s.deletionProtection, { kind: 'edit', field: 'deletionProtection' }),
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
