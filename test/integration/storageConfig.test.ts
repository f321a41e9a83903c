// AWS CLI profile and rclone remote written into the user's files (a scratch home here):
// a preview first (secret masked), only our section changes, modes kept; environment variables as
// the alternative; rotation offers to rewrite what was configured.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engine } from './helpers';
import { accountIs, api, control, signIn } from './control';

const CREDENTIALS =
  '# my keys\r\n[default]\r\naws_access_key_id = AKIAMINE\r\naws_secret_access_key = mine\r\n\r\n[work]\r\naws_access_key_id=AKIAWORK\r\naws_secret_access_key=work'; // CRLF, no final newline
const CONFIG = '[default]\nregion = eu-west-1\n; comment\n[profile work]\noutput = json\n';
const RCLONE = '[gdrive]\ntype = drive\nscope = drive\n';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

async function creds(): Promise<{ access_key_id: string; secret_access_key: string; endpoint: string }> {
  return (
    await fetch(`${engine.url}/object-storage/credentials`, {
      headers: { authorization: `Bearer ${engine.token}` },
    })
  ).json() as never;
}

suite('Object storage: AWS CLI profile, rclone remote, environment variables', () => {
  let ext: TensorPoolExtensionApi;
  let home: string;
  const file = (...p: string[]) => path.join(home, ...p);
  const read = (...p: string[]) => fs.readFileSync(file(...p), 'utf8');

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-home-'));
    fs.mkdirSync(file('.aws'));
    fs.writeFileSync(file('.aws', 'credentials'), CREDENTIALS, { mode: 0o600 });
    fs.writeFileSync(file('.aws', 'config'), CONFIG, { mode: 0o644 });
    fs.writeFileSync(file('rclone.conf'), RCLONE, { mode: 0o640 });
    ext.testing.configure({ home: () => home, env: () => ({ RCLONE_CONFIG: file('rclone.conf') }) });
    ext.setPrompter(new ScriptedPrompter(['Enable']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.enableObjectStorage'), true);
  });
  teardown(() => ext.setPrompter(undefined));
  suiteTeardown(() => {
    ext.testing.configure({});
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('AWS CLI: the preview names both files and masks the secret; cancelling writes nothing', async () => {
    const p = new ScriptedPrompter(['<escape>']);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.configureAws'), false);
    const c = await creds();
    const detail = p.shown[0].detail ?? '';
    assert.match(detail, /credentials/);
    assert.match(detail, /config/);
    assert.ok(!detail.includes(c.secret_access_key), 'secret in the preview');
    assert.equal(read('.aws', 'credentials'), CREDENTIALS);
    assert.equal(read('.aws', 'config'), CONFIG);
  });

  test('AWS CLI: only our profile is added; every other byte and the modes are kept', async () => {
    ext.setPrompter(new ScriptedPrompter(['Write Profile']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.configureAws'), true);
    const c = await creds();
    const credentials = read('.aws', 'credentials');
    assert.ok(credentials.startsWith(`${CREDENTIALS}\r\n`), 'foreign content (CRLF) unchanged');
    assert.match(
      credentials,
      new RegExp(
        `\\[tp\\]\\r\\naws_access_key_id = ${esc(c.access_key_id)}\\r\\naws_secret_access_key = ${esc(c.secret_access_key)}`,
      ),
    );
    const config = read('.aws', 'config');
    assert.ok(config.startsWith(CONFIG));
    assert.match(config, /\[profile tp\]\n/);
    assert.match(config, new RegExp(`endpoint_url = ${esc(c.endpoint)}`));
    assert.equal(fs.statSync(file('.aws', 'credentials')).mode & 0o777, 0o600);
    assert.equal(fs.statSync(file('.aws', 'config')).mode & 0o777, 0o644);
  });

  test('rclone: a [tp] remote in the file rclone uses, others kept', async () => {
    ext.setPrompter(new ScriptedPrompter(['Write Remote']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.configureRclone'), true);
    const text = read('rclone.conf');
    assert.ok(text.startsWith(RCLONE));
    assert.match(text, /\[tp\]\ntype = s3\n/);
    assert.match(text, new RegExp(`access_key_id = ${esc((await creds()).access_key_id)}`));
    assert.equal(fs.statSync(file('rclone.conf')).mode & 0o777, 0o640);
  });

  test('environment variables go to the clipboard and nothing is written', async () => {
    const before = read('.aws', 'credentials');
    ext.setPrompter(new ScriptedPrompter(['bash / zsh / sh']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.copyStorageEnvironment'), true);
    const clip = await vscode.env.clipboard.readText();
    const c = await creds();
    assert.match(clip, new RegExp(`export AWS_ACCESS_KEY_ID=['"]?${esc(c.access_key_id)}`));
    assert.match(clip, /AWS_ENDPOINT_URL/);
    assert.equal(read('.aws', 'credentials'), before);
    await vscode.env.clipboard.writeText('');
  });

  test('rotate offers to update the configured profile and remote with the new keys', async () => {
    const old = await creds();
    const p = new ScriptedPrompter(['Rotate Keys', 'Update']);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.rotateObjectStorageKeys'), true);
    assert.match(p.shown[1].message ?? '', /AWS CLI profile "tp" and rclone remote "tp"/);
    const fresh = await creds();
    assert.notEqual(fresh.access_key_id, old.access_key_id);
    const credentials = read('.aws', 'credentials');
    assert.ok(credentials.startsWith(`${CREDENTIALS}\r\n`));
    assert.ok(credentials.includes(fresh.secret_access_key) && !credentials.includes(old.secret_access_key));
    assert.ok(read('rclone.conf').includes(fresh.access_key_id));
    assert.equal((credentials.match(/\[tp\]/g) ?? []).length, 1, 'our section replaced, not duplicated');
  });
});
