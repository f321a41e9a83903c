/**
 * Add SSH Key… and the create wizard's saved-key messages, driven through the Prompter interface.
 */
import * as assert from 'node:assert/strict';
import { parsePublicKey } from '../../src/model/sshPublicKey';
import { runAddSshKeyWizard, validateKeyName, type AddSshKeyDeps } from '../../src/wizards/addSshKey';
import { runCreateWizard, type LocalKey } from '../../src/wizards/createCluster';
import { noKeyDescription, noKeySummary } from '../../src/wizards/savedKeys';
import { ESCAPE, RecordingPrompter, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { ED25519_KEY, RSA_PRIVATE_KEY_HEAD } from '../fixtures/payloads';

const LOCAL: LocalKey = { path: '/home/dev/.ssh/id_ed25519.pub', key: ED25519_KEY, comment: 'dev@laptop' };
const BROKEN: LocalKey = { path: '/home/dev/.ssh/broken.pub', key: 'not a key' };
const FINGERPRINT = (parsePublicKey(ED25519_KEY) as { ok: true; key: { fingerprint: string } }).key
  .fingerprint;

function deps(p: ScriptedPrompter, over: Partial<AddSshKeyDeps> = {}): AddSshKeyDeps {
  return { prompter: p, localKeys: async () => [LOCAL, BROKEN], ...over };
}

describe('Add SSH Key wizard', () => {
  it('lists ~/.ssh/*.pub with type and fingerprint (unusable files left out) and marks saved ones', async () => {
    const p = new RecordingPrompter(['id_ed25519.pub', '']);
    const r = await runAddSshKeyWizard(deps(p, { savedFingerprints: () => [FINGERPRINT] }));
    assert.ok(r);
    assert.equal(r.key.line, ED25519_KEY);
    assert.equal(r.name, undefined, 'empty name: the service names the key');
    assert.equal(r.source, LOCAL.path);
    const first = p.picks[0];
    assert.deepEqual(
      first.map((i) => i.label),
      ['$(key) id_ed25519.pub', '$(clippy) Paste a public key…'],
    );
    assert.equal(first[0].description, `ssh-ed25519 ${FINGERPRINT} (already saved)`);
    assert.match(p.shown[1].prompt ?? '', /optional/);
  });

  it('a pasted private key is refused with its specific message; the key is never accepted', async () => {
    const p = new ScriptedPrompter(['Paste a public key…', RSA_PRIVATE_KEY_HEAD, ESCAPE]);
    assert.equal(await runAddSshKeyWizard(deps(p)), undefined);
    assert.equal(p.rejections.length, 1);
    assert.match(p.rejections[0].message, /PRIVATE key: it was not sent anywhere/);
  });

  it('paste then name; Back from the name returns to the source list', async () => {
    const p = new ScriptedPrompter([
      'Paste a public key…',
      ED25519_KEY,
      '<back>',
      'Paste a public key…',
      ED25519_KEY,
      ' my laptop ',
    ]);
    const r = await runAddSshKeyWizard(deps(p));
    assert.equal(r?.name, 'my laptop');
    assert.equal(r?.source, 'pasted key');
  });

  it('generate: the new key is used; a failure is shown on the list', async () => {
    let calls = 0;
    const generateKey = async (): Promise<LocalKey> => {
      calls++;
      if (calls === 1) throw new Error('ssh-keygen: not found');
      return { path: '/home/dev/.ssh/tensorpool_ed25519.pub', key: ED25519_KEY };
    };
    const p = new ScriptedPrompter(['Generate a new ed25519 key…', 'Generate a new ed25519 key…', 'new']);
    const r = await runAddSshKeyWizard(deps(p, { generateKey }));
    assert.equal(r?.source, '/home/dev/.ssh/tensorpool_ed25519.pub');
    assert.match(p.shown[1].initialError ?? '', /Could not generate a key: ssh-keygen: not found/);
  });

  it('key names: empty is fine, blank, too long and control characters are not', () => {
    assert.equal(validateKeyName(''), undefined);
    assert.match(validateKeyName('   ') ?? '', /leave the box empty/);
    assert.match(validateKeyName('x'.repeat(129)) ?? '', /at most 128/);
    assert.match(validateKeyName('a\nb') ?? '', /control characters/);
  });
});

describe('create wizard and saved keys', () => {
  const script = ['1xH100', '<accept>', '', 'No new key', '', 'Off', 'Create cluster'];
  /** Run the wizard to the end with "No new key" (or another script); the recorded picks come back. */
  async function create(
    savedKeys: () => Promise<{ names: string[] } | undefined>,
    answers: readonly string[] = script,
  ) {
    const p = new RecordingPrompter([...answers]);
    const state = await runCreateWizard({
      prompter: p,
      localKeys: async () => [],
      existingNames: () => [],
      imageField: 'container',
      savedKeys,
    });
    return { p, state };
  }

  it('"No new key" says the saved keys will be added', async () => {
    const { p, state: s } = await create(async () => ({ names: ['laptop', 'desk'] }));
    assert.equal(s?.key.kind, 'none');
    const keyStep = p.picks.find((items) => items.some((i) => i.label.endsWith('No new key')))!;
    assert.equal(keyStep.at(-1)?.description, 'your 2 saved keys (laptop, desk) will be added');
    const summary = p.picks.at(-1)!;
    assert.equal(
      summary.find((i) => i.label === 'SSH key')?.description,
      'none new: your 2 saved keys (laptop, desk) will be added',
    );
  });

  it('no saved key and none chosen: warned in the key step and the summary', async () => {
    const { p } = await create(async () => ({ names: [] }));
    const summary = p.picks.at(-1)!;
    assert.match(summary[0].detail ?? '', /will be unreachable over SSH/);
    assert.match(summary.find((i) => i.label === 'SSH key')?.description ?? '', /unreachable over SSH/);
    assert.ok(
      summary.some((i) => i.label.endsWith('Add an SSH Key…')),
      'the summary offers to add a key',
    );
  });

  it('no saved key: "Add an SSH Key…" in the summary leads to a pasted key saved to the account', async () => {
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHx3Jz0Fq7m9i5h2aXbq2Yb0p7m3v4ZcE8Qy1mK2w5rT dev@box';
    const answers = [...script.slice(0, -1), 'Add an SSH Key…', 'Paste a public key…', key, 'Save the key'];
    const { p, state } = await create(async () => ({ names: [] }), [...answers, 'Create cluster']);
    assert.deepEqual([state?.key, state?.saveKeys], [{ kind: 'pasted', key }, true]);
    const last = p.picks.at(-1)!;
    assert.doesNotMatch(last[0].detail ?? '', /unreachable/, 'no warning once a key is chosen');
    assert.ok(!last.some((i) => i.label.endsWith('Add an SSH Key…')));
  });

  it('saved keys unknown (listing failed): the neutral wording, no warning', async () => {
    const { p } = await create(() => Promise.reject(new Error('offline')));
    assert.doesNotMatch(p.picks.at(-1)![0].detail ?? '', /unreachable/);
    assert.equal(noKeyDescription(undefined), 'use only the keys saved on your account and organisation');
    assert.equal(noKeySummary(undefined), 'none (saved keys only)');
    assert.match(noKeyDescription({ names: ['a', 'b', 'c', 'd'] }), /4 saved keys \(a, b, c, …\)/);
  });
});
