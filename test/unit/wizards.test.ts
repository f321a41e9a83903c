/**
 * The create and edit wizards driven through the same Prompter interface the real UI uses.
 */
import * as assert from 'node:assert/strict';
import {
  runCreateWizard,
  toCreateRequest,
  type CreateWizardDeps,
  type LocalKey,
} from '../../src/wizards/createCluster';
import { editChanges, runEditWizard } from '../../src/wizards/editCluster';
import { toCluster } from '../../src/api/normalize';
import type { Cluster } from '../../src/model/cluster';
import { ACCEPT, BACK, DISCARD, ESCAPE, KEEP_EDITING, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { ED25519_KEY, RSA_PRIVATE_KEY_HEAD, clusterRecord } from '../fixtures/payloads';

const LOCAL_KEY: LocalKey = {
  path: '/home/dev/.ssh/id_ed25519.pub',
  key: ED25519_KEY,
  comment: 'dev@laptop',
};

function deps(p: ScriptedPrompter, over: Partial<CreateWizardDeps> = {}): CreateWizardDeps {
  return {
    prompter: p,
    localKeys: async () => [LOCAL_KEY],
    existingNames: () => ['taken'],
    imageField: 'container',
    ...over,
  };
}

describe('create wizard', () => {
  it('walks every step with "step n/N" and produces the request body', async () => {
    const p = new ScriptedPrompter([
      '8xH100',
      '2',
      'train-a',
      'id_ed25519.pub',
      'Only for this cluster',
      'nvcr.io/nvidia/pytorch:24.05-py3',
      'On',
      'Create cluster',
    ]);
    const s = await runCreateWizard(deps(p));
    assert.ok(s);
    assert.deepEqual(toCreateRequest(s), {
      instance_type: '8xH100',
      num_nodes: 2,
      tp_cluster_name: 'train-a',
      public_keys: [ED25519_KEY],
      save_keys: false,
      container: 'nvcr.io/nvidia/pytorch:24.05-py3',
      deletion_protection: true,
    });
    assert.deepEqual(
      p.shown.map((x) => `${x.step}/${x.totalSteps}`),
      ['1/7', '2/7', '3/7', '4/7', '4/7', '5/7', '6/7', '7/7'],
    );
    assert.ok(p.shown.every((x) => x.title === 'Create TensorPool Cluster'));
    assert.equal(p.shown[0].canGoBack, false);
    assert.ok(p.shown.slice(1).every((x) => x.canGoBack));
  });

  it('optional fields can stay empty; no key means no save_keys', async () => {
    const p = new ScriptedPrompter(['1xH100', ACCEPT, '', 'No new key', '', 'Off', 'Create cluster']);
    const s = await runCreateWizard(deps(p));
    assert.deepEqual(toCreateRequest(s!), {
      instance_type: '1xH100',
      num_nodes: 1,
      deletion_protection: false,
    });
    assert.equal(p.shown.at(-1)?.totalSteps, 7);
    assert.ok(!p.shown.some((x) => x.prompt?.startsWith('Save this SSH key')));
  });

  it('Back keeps every value typed', async () => {
    const p = new ScriptedPrompter([
      '4xH200',
      '3',
      'run-1',
      BACK,
      BACK,
      ACCEPT,
      ACCEPT,
      'No new key',
      '',
      'Off',
      'Create cluster',
    ]);
    const s = await runCreateWizard(deps(p));
    const inputs = p.shown.filter((x) => x.kind === 'input').map((x) => x.value);
    assert.deepEqual(
      inputs.slice(0, 5),
      ['1', '', 'run-1', '3', 'run-1'],
      'prefilled with what was typed before',
    );
    assert.equal(s?.numNodes, '3');
    assert.equal(s?.name, 'run-1');
  });

  it('rejects bad values as they are typed, with specific messages, and keeps asking', async () => {
    const p = new ScriptedPrompter([
      'xH100',
      '8x',
      '8 x H100',
      '\u0663xH100',
      '8xH100',
      '0',
      '-1',
      '1.5',
      '1000000000',
      ' ',
      '2',
      'a\u0001b',
      'x'.repeat(10_000),
      '2',
      'No new key',
      'my image',
      '',
      'Off',
      'Create cluster',
    ]);
    const s = await runCreateWizard(deps(p));
    assert.equal(s?.instanceType, '8xH100');
    assert.equal(p.rejections.length, 12);
    assert.ok(p.rejections.every((r) => r.message.length > 15));
    assert.match(p.rejections.find((r) => r.value === '1.5')!.message, /whole/);
    assert.equal(s?.name, '2');
  });

  it('warns (without refusing) when the name is already used', async () => {
    const p = new ScriptedPrompter(['1xH100', ACCEPT, 'taken', 'No new key', '', 'Off', 'Create cluster']);
    await runCreateWizard(deps(p));
    assert.match(p.warnings[0]?.message ?? '', /already exists/);
  });

  it('keys: paste one (a private key is refused), or none', async () => {
    const p = new ScriptedPrompter([
      '1xH100',
      ACCEPT,
      '',
      'Paste a public key…',
      RSA_PRIVATE_KEY_HEAD,
      'not a key',
      ED25519_KEY,
      'Save the key',
      '',
      'Off',
      'Create cluster',
    ]);
    const s = await runCreateWizard(deps(p, { localKeys: async () => [] }));
    assert.deepEqual(s?.key, { kind: 'pasted', key: ED25519_KEY });
    assert.match(p.rejections[0].message, /PRIVATE/);
    assert.match(p.shown.find((x) => x.step === 4)?.prompt ?? '', /No ~\/\.ssh\/\*\.pub found/);
  });

  it('Escape on a filled wizard asks; Keep editing returns to the same step with values kept; Discard ends', async () => {
    const p = new ScriptedPrompter(['8xH100', '4', ESCAPE, KEEP_EDITING, ESCAPE, DISCARD]);
    const s = await runCreateWizard(deps(p));
    assert.equal(s, undefined);
    const names = p.shown.filter((x) => x.prompt?.startsWith('Cluster name'));
    assert.equal(names.length, 2);
    assert.equal(p.shown.filter((x) => x.prompt?.startsWith('Discard the cluster')).length, 2);
    assert.deepEqual(p.remaining, []);
  });

  it('Escape on an untouched wizard closes without asking', async () => {
    const p = new ScriptedPrompter([ESCAPE]);
    assert.equal(await runCreateWizard(deps(p)), undefined);
    assert.equal(p.shown.length, 1, 'no question asked');
  });

  it('reopens at the field a 422 named, with the server message, all answers kept', async () => {
    const first = new ScriptedPrompter(['8xH100', '2', 'n1', 'No new key', '', 'Off', 'Create cluster']);
    const answers = await runCreateWizard(deps(first));
    const p = new ScriptedPrompter(['3', 'Create cluster']);
    const s = await runCreateWizard(deps(p), {
      initial: answers,
      startAt: 'numNodes',
      errors: { numNodes: 'Too many nodes for 8xH100' },
    });
    assert.equal(p.shown[0].step, 2);
    assert.equal(p.shown[0].initialError, 'Too many nodes for 8xH100');
    assert.equal(p.shown[0].value, '2');
    assert.equal(s?.numNodes, '3');
    assert.equal(s?.name, 'n1');
    assert.deepEqual(
      p.shown.map((x) => x.step),
      [2, 7],
      'straight back to the summary',
    );
  });

  it('the summary can jump to one field and come straight back', async () => {
    const p = new ScriptedPrompter([
      '1xH100',
      ACCEPT,
      'a1',
      'No new key',
      '',
      'Off',
      'Nodes',
      '5',
      'Create cluster',
    ]);
    const s = await runCreateWizard(deps(p));
    assert.equal(s?.numNodes, '5');
    assert.deepEqual(
      p.shown.slice(-3).map((x) => x.step),
      [7, 2, 7],
    );
  });
});

describe('edit wizard', () => {
  const clusters: Cluster[] = [
    toCluster(clusterRecord({ id: 'c-1', name: 'alpha', deletion_protection: false }))!,
    toCluster(clusterRecord({ id: 'c-2', name: 'beta', deletion_protection: true }))!,
  ];
  const d = (p: ScriptedPrompter) => ({ prompter: p, clusters: () => clusters });

  it('picks the cluster, renames, sets protection; only changed fields', async () => {
    const p = new ScriptedPrompter(['alpha', 'alpha-2', 'On', 'Apply changes']);
    const s = await runEditWizard(d(p));
    assert.deepEqual(editChanges(s!), { cluster_name: 'alpha-2', deletion_protection: true });
  });

  it('preselected cluster skips the pick; unchanged values produce no changes', async () => {
    const p = new ScriptedPrompter([ACCEPT, ACCEPT, 'Nothing to change: close']);
    const s = await runEditWizard(d(p), { cluster: clusters[1] });
    assert.deepEqual(editChanges(s!), {});
    assert.equal(p.shown[0].step, 1);
    assert.equal(p.shown[0].totalSteps, 3);
  });

  it('refuses an empty name and a name another cluster has', async () => {
    const p = new ScriptedPrompter(['', '  ', 'beta', 'gamma', ACCEPT, 'Apply changes']);
    const s = await runEditWizard(d(p), { cluster: clusters[0] });
    assert.equal(p.rejections.length, 3);
    assert.match(p.rejections[2].message, /already named/);
    assert.deepEqual(editChanges(s!), { cluster_name: 'gamma' });
  });
});
