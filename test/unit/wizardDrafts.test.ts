/**
 * What is typed in a wizard's box survives leaving the step without confirming it (Escape then keep
 * editing, Back, the wizard reopened after the server refused an answer), and throwing the answers away
 * takes an explicit choice: Enter and Escape on the question keep editing.
 */
import * as assert from 'node:assert/strict';
import { runCreateWizard, toCreateRequest, type CreateWizardDeps } from '../../src/wizards/createCluster';
import { editChanges, runEditWizard } from '../../src/wizards/editCluster';
import { toCluster } from '../../src/api/normalize';
import type { Cluster } from '../../src/model/cluster';
import {
  ACCEPT,
  BACK,
  DISCARD,
  ESCAPE,
  KEEP_EDITING,
  ScriptedPrompter,
  typeText,
  type Shown,
} from '../fixtures/scriptedPrompter';
import { ED25519_KEY, clusterRecord } from '../fixtures/payloads';

const createDeps = (p: ScriptedPrompter): CreateWizardDeps => ({
  prompter: p,
  localKeys: async () => [],
  existingNames: () => [],
  imageField: 'container',
});
/** The rest of a create wizard after the node count: no name, no key, default image, no protection. */
const REST = ['', 'No new key', '', 'Off', 'Create cluster'];
const isQuestion = (x: Shown) => x.prompt?.startsWith('Discard') ?? false;
const nodeBoxes = (p: ScriptedPrompter) =>
  p.shown.filter((x) => x.prompt?.startsWith('Number of nodes')).map((x) => x.value);

describe('wizards keep what was typed', () => {
  it('Escape, then Enter on the question: the box shows the typed "2", and 2 nodes are sent', async () => {
    const p = new ScriptedPrompter(['1xH100', typeText('2'), ESCAPE, ACCEPT, ACCEPT, ...REST]);
    const s = await runCreateWizard(createDeps(p));
    assert.deepEqual(nodeBoxes(p), ['1', '2']);
    assert.equal(toCreateRequest(s!).num_nodes, 2);
    const question = p.shown.find(isQuestion)!;
    assert.equal(question.kind, 'pick');
    assert.deepEqual(question.items, [KEEP_EDITING, DISCARD], 'one way to discard, keeping first');
    assert.equal(question.active, KEEP_EDITING, 'Enter keeps editing');
    assert.equal(question.step, 2);
    assert.ok(!p.shown.some((x) => x.kind === 'confirm'));
    assert.deepEqual(p.remaining, []);
  });

  it('Escape on the question keeps editing too; only picking Discard ends the wizard', async () => {
    const p = new ScriptedPrompter([
      '1xH100',
      typeText('3'),
      ESCAPE,
      ESCAPE,
      typeText('4'),
      ESCAPE,
      KEEP_EDITING,
      ESCAPE,
      DISCARD,
    ]);
    assert.equal(await runCreateWizard(createDeps(p)), undefined);
    assert.deepEqual(nodeBoxes(p), ['1', '3', '4']);
    assert.equal(p.shown.filter(isQuestion).length, 3);
    assert.deepEqual(p.remaining, []);
  });

  it('Back keeps the typed text, also text that does not validate yet, until it is confirmed', async () => {
    const p = new ScriptedPrompter([
      '1xH100',
      typeText('2x'),
      BACK,
      ACCEPT,
      typeText('5'),
      BACK,
      ACCEPT,
      ACCEPT,
      ...REST,
    ]);
    const s = await runCreateWizard(createDeps(p));
    assert.deepEqual(nodeBoxes(p), ['1', '2x', '5']);
    assert.equal(s?.numNodes, '5');
    assert.equal(s?.instanceType, '1xH100');
  });

  it('a typed instance type left by Escape comes back in the filter', async () => {
    const p = new ScriptedPrompter([
      '1xH100',
      BACK,
      typeText('4xH200'),
      ESCAPE,
      ACCEPT,
      ACCEPT,
      ACCEPT,
      ...REST,
    ]);
    const s = await runCreateWizard(createDeps(p));
    const typePicks = p.shown.filter((x) => x.prompt?.startsWith('GPU instance type'));
    assert.deepEqual(
      typePicks.map((x) => x.value),
      [undefined, undefined, '4xH200'],
    );
    assert.equal(s?.instanceType, '4xH200');
  });

  it('a half-pasted key left by Escape: keep editing goes straight back to the paste box with it', async () => {
    const half = ED25519_KEY.slice(0, 30);
    const p = new ScriptedPrompter([
      '1xH100',
      ACCEPT,
      '',
      'Paste a public key…',
      typeText(half),
      ESCAPE,
      KEEP_EDITING,
      typeText(ED25519_KEY),
      ACCEPT,
      'Save the key',
      '',
      'Off',
      'Create cluster',
    ]);
    const s = await runCreateWizard(createDeps(p));
    const pastes = p.shown.filter((x) => x.prompt?.startsWith('Paste an SSH public key'));
    assert.deepEqual(
      pastes.map((x) => x.value),
      ['', half],
    );
    assert.equal(p.shown[p.shown.indexOf(pastes[1]) - 1].prompt?.startsWith('Discard'), true);
    assert.deepEqual(s?.key, { kind: 'pasted', key: ED25519_KEY });
  });

  it('a key pasted, Back from the save question, Escape in the paste box: keep editing shows the key', async () => {
    const p = new ScriptedPrompter([
      '1xH100',
      ACCEPT,
      '',
      'Paste a public key…',
      ED25519_KEY,
      BACK,
      'Paste a public key…',
      ESCAPE,
      KEEP_EDITING,
      ACCEPT,
      'Only for this cluster',
      '',
      'Off',
      'Create cluster',
    ]);
    const s = await runCreateWizard(createDeps(p));
    const pastes = p.shown.filter((x) => x.prompt?.startsWith('Paste an SSH public key'));
    assert.deepEqual(
      pastes.map((x) => x.value),
      ['', ED25519_KEY, ED25519_KEY],
    );
    assert.deepEqual(s?.key, { kind: 'pasted', key: ED25519_KEY });
  });

  it('reopened after the server refused a field: what is typed there survives Escape and Back', async () => {
    const first = new ScriptedPrompter(['8xH100', '2', 'n1', 'No new key', '', 'Off', 'Create cluster']);
    const answers = await runCreateWizard(createDeps(first));
    const p = new ScriptedPrompter([
      typeText('n2'),
      ESCAPE,
      ACCEPT,
      typeText('n3'),
      BACK,
      ACCEPT,
      ACCEPT,
      'Create cluster',
    ]);
    const s = await runCreateWizard(createDeps(p), {
      initial: answers,
      startAt: 'name',
      errors: { name: 'A cluster named n1 already exists' },
    });
    const names = p.shown.filter((x) => x.prompt?.startsWith('Cluster name'));
    assert.deepEqual(
      names.map((x) => x.value),
      ['n1', 'n2', 'n3'],
    );
    assert.equal(names[0].initialError, 'A cluster named n1 already exists');
    // Back from the name, Enter on the node count: the name box (with "n3" unconfirmed) comes before the summary.
    assert.deepEqual(
      p.shown.slice(-4).map((x) => x.step),
      [3, 2, 3, 7],
    );
    assert.equal(s?.name, 'n3');
  });

  it('Escape on the first step with nothing confirmed closes without asking, typed text or not', async () => {
    const p = new ScriptedPrompter([typeText('8xH'), ESCAPE]);
    assert.equal(await runCreateWizard(createDeps(p)), undefined);
    assert.equal(p.shown.length, 1);
  });
});

describe('edit wizard keeps what was typed', () => {
  const clusters: Cluster[] = [toCluster(clusterRecord({ id: 'c-1', name: 'alpha' }))!];
  const d = (p: ScriptedPrompter) => ({ prompter: p, clusters: () => clusters });

  it('a new name typed, Escape, Enter on the question: the box shows it and it is what changes', async () => {
    const p = new ScriptedPrompter([
      'alpha',
      typeText('alpha-9'),
      ESCAPE,
      ACCEPT,
      ACCEPT,
      ACCEPT,
      'Apply changes',
    ]);
    const s = await runEditWizard(d(p));
    const names = p.shown.filter((x) => x.prompt?.startsWith('Name for'));
    assert.deepEqual(
      names.map((x) => x.value),
      ['alpha', 'alpha-9'],
    );
    assert.ok(
      p.shown.some((x) => x.prompt === 'Discard your changes to the cluster? (Escape keeps editing)'),
    );
    assert.deepEqual(editChanges(s!), { cluster_name: 'alpha-9' });
  });

  it('from the summary: a name typed, Escape, keep editing: the box shows it, Enter returns to the summary', async () => {
    const p = new ScriptedPrompter([
      ACCEPT,
      'On',
      'Name',
      typeText('alpha-b'),
      ESCAPE,
      KEEP_EDITING,
      ACCEPT,
      'Apply changes',
    ]);
    const s = await runEditWizard(d(p), { cluster: clusters[0] });
    const names = p.shown.filter((x) => x.prompt?.startsWith('Name for'));
    assert.deepEqual(
      names.map((x) => x.value),
      ['alpha', 'alpha', 'alpha-b'],
    );
    assert.deepEqual(editChanges(s!), { cluster_name: 'alpha-b', deletion_protection: true });
  });
});
