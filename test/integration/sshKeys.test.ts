// Saved SSH keys in the real extension host: the SSH Keys view (Mine / Organisation, text-only
// answers), Add SSH Key… (bodies read back from the engine's log; a pasted private key refused with no
// request), Remove SSH Key… (a confirmation naming the key), and the create wizard's saved-key messages.
import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { SshKeyNode } from '../../src/vscode/sshKeys/sshKeysTree';
import type { PickOptions } from '../../src/wizards/prompter';
import { ACCEPT, ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn } from './control';
import { assertTextListing } from './textListing';

function publicKey(comment: string): string {
  const { publicKey: k } = generateKeyPairSync('ed25519');
  const der = k.export({ format: 'der', type: 'spki' });
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

const PRIVATE_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDLsecretsecretsecretsecretsecretsecretAAAAAAAAAAAAAAAAAAAAA',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');

async function rows(
  ext: TensorPoolExtensionApi,
): Promise<Array<{ node: SshKeyNode; item: vscode.TreeItem }>> {
  const provider = ext.views.sshKeys;
  const nodes = (await provider.getChildren(undefined)) ?? [];
  return Promise.all(nodes.map(async (node) => ({ node, item: await provider.getTreeItem(node) })));
}

const label = (item: vscode.TreeItem) =>
  typeof item.label === 'string' ? item.label : (item.label?.label ?? '');

/** A scripted prompter that also keeps every pick's items with their descriptions and details. */
class RecordingPrompter extends ScriptedPrompter {
  readonly picks: Array<{
    placeholder: string;
    items: Array<{ label: string; description?: string; detail?: string }>;
  }> = [];
  override pick<T>(o: PickOptions<T>) {
    this.picks.push({
      placeholder: o.placeholder,
      items: o.items.map((i) => ({
        label: i.label.replace(/\$\([a-z0-9~-]+\)\s*/g, ''),
        description: i.description,
        detail: i.detail,
      })),
    });
    return super.pick(o);
  }
}

suite('SSH keys: view, add, remove, and the create wizard', () => {
  let ext: TensorPoolExtensionApi;
  const first = publicKey('first@laptop');

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    await ext.testing.sshKeys.savedForWizard(); // the background listing after sign-in has settled
  });
  teardown(async () => {
    await control.clearFaults();
    ext.setPrompter(undefined);
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.showSshKeysMine');
  });

  test('a pasted private key is refused with a specific message, and nothing is sent or logged', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter(['Paste a public key…', PRIVATE_KEY, ESCAPE]);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.addSshKey'), undefined);
    assert.equal(p.rejections.length, 1);
    assert.match(p.rejections[0].message, /PRIVATE key: it was not sent anywhere/);
    // Only what changes something counts: the views may list the keys on their own meanwhile (GET).
    const keyCalls = async () =>
      (await control.log()).filter((e) => e.path.startsWith('/user/ssh-key') && e.method !== 'GET');
    assert.deepEqual(await keyCalls(), [], 'nothing sent');
    assert.ok(!ext.testing.logTail.join('\n').includes('secretsecret'), 'the key is not in the log');
  });

  test('with no saved key the create wizard warns the cluster would be unreachable over SSH', async () => {
    await control.clearLog();
    const p = new RecordingPrompter([
      '1xH100',
      ACCEPT,
      '',
      'No new key',
      '',
      'Off',
      'Add an SSH Key…',
      ESCAPE,
      'Discard',
    ]);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.createCluster'), undefined);
    const keyStep = p.picks.find((x) => x.items.some((i) => i.label === 'No new key'))!;
    const none = keyStep.items.find((i) => i.label === 'No new key')!;
    assert.match(
      none.description ?? '',
      /no key is saved on your account: the cluster would be unreachable over SSH/,
    );
    const summary = p.picks.find((x) => x.items.some((i) => i.label === 'Create cluster'))!;
    assert.match(summary.items[0].detail ?? '', /will be unreachable over SSH/);
    assert.match(
      summary.items.find((i) => i.label === 'SSH key')?.description ?? '',
      /Pick this row to add a key/,
    );
    assert.ok(
      summary.items.some((i) => i.label === 'Add an SSH Key…'),
      'the summary offers to add a key',
    );
    // Picking "Add an SSH Key…" offers the key step again (pick, paste or generate a key).
    assert.equal(p.picks.filter((x) => x.items.some((i) => i.label === 'Paste a public key…')).length, 2);
    assert.equal((await control.calls('POST', '/cluster/create')).length, 0);
    assert.deepEqual(
      (await control.log()).filter((e) => e.path.startsWith('/user/ssh-key')),
      [],
      'the saved keys were listed after sign-in, not by the wizard',
    );
  });

  test('Add SSH Key… pastes a key; an empty name leaves the name to the service', async () => {
    await control.clearLog();
    ext.setPrompter(new ScriptedPrompter(['Paste a public key…', `  ${first}  `, '']));
    const fingerprint = await vscode.commands.executeCommand<string>('tensorpool.addSshKey');
    assert.match(fingerprint ?? '', /^SHA256:/);
    const [post] = await control.calls('POST', '/user/ssh-key/add');
    assert.deepEqual(post.body, { public_key: first });
    assert.equal(post.status, 200);
  });

  test('the view lists saved keys with type, fingerprint and date; the organisation toggle asks include_org', async () => {
    await control.clearLog();
    const second = publicKey('second@desk');
    ext.setPrompter(new ScriptedPrompter(['Paste a public key…', second, 'desk key']));
    await vscode.commands.executeCommand('tensorpool.addSshKey');
    const [post] = await control.calls('POST', '/user/ssh-key/add');
    assert.deepEqual(post.body, { public_key: second, name: 'desk key' });
    await vscode.commands.executeCommand('tensorpool.refreshSshKeys');
    const shown = await rows(ext);
    assert.deepEqual(shown.map((r) => label(r.item)).sort(), ['desk key', 'first@laptop']);
    for (const r of shown) {
      assert.match(String(r.item.description), /^ssh-ed25519 · SHA256:/);
      assert.match(String(r.item.tooltip), /Added: \d{4}-\d\d-\d\d/);
      assert.equal(r.item.contextValue, 'sshKey removable');
    }
    await vscode.commands.executeCommand('tensorpool.showSshKeysOrganization');
    const lists = await control.calls('GET', '/user/ssh-key/list');
    assert.deepEqual(lists.at(-1)?.query, { include_org: 'true' });
    assert.match(String((await rows(ext))[0].item.description), /@tensorpool\.local/, 'owner shown');
    await vscode.commands.executeCommand('tensorpool.showSshKeysMine');
    assert.deepEqual((await control.calls('GET', '/user/ssh-key/list')).at(-1)?.query, {});
  });

  test('with saved keys, the create wizard says they will be added', async () => {
    const p = new RecordingPrompter(['1xH100', ACCEPT, '', 'No new key', '', 'Off', ESCAPE, 'Discard']);
    ext.setPrompter(p);
    await vscode.commands.executeCommand('tensorpool.createCluster');
    const keyStep = p.picks.find((x) => x.items.some((i) => i.label === 'No new key'))!;
    assert.match(
      keyStep.items.find((i) => i.label === 'No new key')?.description ?? '',
      /your 2 saved keys \(first@laptop, desk key\) will be added/,
    );
    const summary = p.picks.find((x) => x.items.some((i) => i.label === 'Create cluster'))!;
    assert.match(
      summary.items.find((i) => i.label === 'SSH key')?.description ?? '',
      /your 2 saved keys \(.*\) will be added/,
    );
    assert.doesNotMatch(summary.items[0].detail ?? '', /unreachable/);
  });

  test('Remove SSH Key… confirms naming the key and what it means, then sends DELETE', async () => {
    await vscode.commands.executeCommand('tensorpool.refreshSshKeys');
    const row = (await rows(ext)).find((r) => label(r.item) === 'desk key')!;
    const keyId = (row.node as { key: { id: string } }).key.id;
    const p = new ScriptedPrompter([ESCAPE, 'Remove']);
    ext.setPrompter(p);
    await control.clearLog();
    assert.equal(await vscode.commands.executeCommand('tensorpool.removeSshKey', row.node), false);
    assert.deepEqual(
      (await control.log()).filter((e) => e.method === 'DELETE'),
      [],
      'cancelled: nothing sent',
    );
    assert.equal(await vscode.commands.executeCommand('tensorpool.removeSshKey', row.node), true);
    assert.match(p.shown[0].message ?? '', /Remove the SSH key "desk key"/);
    assert.match(p.shown[0].detail ?? '', /New clusters will no longer get this key/);
    const [del] = await control.calls('DELETE', `/user/ssh-key/remove/${keyId}`);
    assert.equal(del.status, 200);
  });

  test('an add answer with only a message is accepted; a text-only list is shown and read by header', async () => {
    await control.fault({
      method: 'POST',
      path: '/user/ssh-key/add',
      status: 200,
      body: { message: 'SSH key added' },
    });
    ext.setPrompter(new ScriptedPrompter(['Paste a public key…', publicKey('third@box'), '']));
    assert.match((await vscode.commands.executeCommand<string>('tensorpool.addSshKey')) ?? '', /^SHA256:/);
    await control.fault({
      method: 'GET',
      path: '/user/ssh-key/list',
      status: 200,
      times: -1,
      body: { message: 'KEY ID  NAME\nkey_1   laptop' },
    });
    await vscode.commands.executeCommand('tensorpool.refreshSshKeys');
    await assertTextListing(ext.views.sshKeys, {
      label: 'SSH key list (text from the server)',
      command: 'tensorpool.showSshKeysText',
      text: /^KEY ID {2}NAME\nkey_1 {3}laptop$/,
    });
    const shown = await rows(ext);
    assert.deepEqual(
      shown.map((r) => label(r.item)),
      ['SSH key list (text from the server)', 'laptop'],
    );
    assert.equal(shown[0].item.description, 'KEY ID  NAME');
    assert.match(String(shown[1].item.tooltip), /Read from the server's text answer/);
    assert.equal((shown[1].node as { key: { id?: string } }).key.id, 'key_1');
  });
});
