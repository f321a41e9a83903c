// Job files (*.tp.toml) in the editor: New Job File writes job.tp.toml, then job2.tp.toml, never over a
// file, and opens it; problems (TOML syntax at its position, unknown keys, wrong types) appear while
// typing, in the Problems panel and as a CodeLens count, and go away when fixed or closed (renamed away).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { eventually } from './helpers';
import { api, control, signIn } from './control';

interface NewJobFileResult {
  path: string;
  source: 'service' | 'built-in';
}

/** Our problems for a document as [severity, line, character, message]. */
function problems(uri: vscode.Uri): Array<[string, number, number, string]> {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === 'TensorPool')
    .map((d) => [
      vscode.DiagnosticSeverity[d.severity],
      d.range.start.line,
      d.range.start.character,
      d.message,
    ]);
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
    'vscode.executeCodeLensProvider',
    uri,
  );
  return lenses.map((l) => l.command?.title ?? '');
}

async function replaceText(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
  assert.ok(await editor.edit((e) => e.replace(all, text)));
}

suite('Job files: New Job File and problems while typing', () => {
  let root: string;
  const scratch: string[] = [];

  suiteSetup(async () => {
    await api();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the harness opens a folder');
    root = folder.uri.fsPath;
    for (const name of fs.readdirSync(root)) if (name.endsWith('.tp.toml')) fs.rmSync(path.join(root, name));
  });
  teardown(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  suiteTeardown(() => {
    for (const p of scratch) fs.rmSync(p, { recursive: true, force: true });
  });

  test('New Job File writes job.tp.toml, then job2.tp.toml beside it, opening each and keeping the first', async () => {
    assert.equal((await signIn()).ok, true);
    await control.clearLog();
    const first = await vscode.commands.executeCommand<NewJobFileResult>('tensorpool.newJobFile');
    scratch.push(first.path);
    assert.equal(first.source, 'service', 'signed in: the template comes from GET /job/init');
    assert.equal((await control.calls('GET', '/job/init')).length, 1);
    assert.equal(first.path, path.join(root, 'job.tp.toml'));
    const firstText = fs.readFileSync(first.path, 'utf8');
    assert.match(firstText, /^commands\s*=/m);
    let editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, first.path);
    assert.equal(editor.document.languageId, 'toml', 'a job file keeps the TOML language');

    const second = await vscode.commands.executeCommand<NewJobFileResult>('tensorpool.newJobFile');
    scratch.push(second.path);
    assert.equal(second.path, path.join(root, 'job2.tp.toml'));
    editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, second.path);
    assert.equal(fs.readFileSync(first.path, 'utf8'), firstText, 'the first file is left as it was');
    assert.deepEqual(
      fs.readdirSync(root).filter((n) => n.includes('.tp.toml') || n.endsWith('.tmp')),
      ['job.tp.toml', 'job2.tp.toml'],
      'no temp file is left behind',
    );
    // The template is a valid job file: checking it finds no problem.
    await eventually(3000, () => Promise.resolve(assert.deepEqual(problems(editor.document.uri), [])));
  });

  test('from the Explorer, the job file goes into the folder that was clicked', async () => {
    const sub = fs.mkdtempSync(path.join(root, 'train-'));
    scratch.push(sub);
    fs.writeFileSync(path.join(sub, 'job.tp.toml'), 'commands = ["mine"]\n');
    const made = await vscode.commands.executeCommand<NewJobFileResult>(
      'tensorpool.newJobFile',
      vscode.Uri.file(sub),
    );
    assert.equal(made.path, path.join(sub, 'job2.tp.toml'));
    assert.equal(fs.readFileSync(path.join(sub, 'job.tp.toml'), 'utf8'), 'commands = ["mine"]\n');
  });

  test('problems appear while typing (wrong type, unknown key, syntax error at its position) and clear when fixed or no longer a job file', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'broken-'));
    scratch.push(dir);
    const file = path.join(dir, 'train.tp.toml');
    fs.writeFileSync(file, 'commands = "python train.py"\ncommand = ["x"]\n');
    const other = path.join(dir, 'pyproject.toml');
    fs.writeFileSync(other, 'command = 1\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(other), { preview: false });
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), {
      preview: false,
    });
    const uri = editor.document.uri;

    await eventually(5000, async () => {
      const found = problems(uri);
      assert.deepEqual(
        found.map(([severity, line, character]) => [severity, line, character]),
        [
          ['Error', 0, 11],
          ['Warning', 1, 0],
        ],
      );
      assert.match(found[0][3], /`commands` must be an array of strings/);
      assert.match(found[1][3], /Unknown key `command`: did you mean `commands`\?/);
      assert.deepEqual(await lensTitles(uri), ['$(play) Run on Cluster…', '$(error) 1 error, 1 warning']);
    });
    assert.deepEqual(problems(vscode.Uri.file(other)), [], 'other TOML files are not job files');

    await replaceText(editor, 'commands = ["python train.py"]\noutputs = ["a" "b"]\n');
    await eventually(5000, () => {
      const found = problems(uri);
      assert.deepEqual(
        found.map(([severity, line, character]) => [severity, line, character]),
        [['Error', 1, 15]],
      );
      assert.match(found[0][3], /^TOML syntax error: /);
      return Promise.resolve();
    });

    await replaceText(editor, 'commands = ["python train.py"]\noutputs = ["a", "b"]\n');
    await eventually(5000, async () => {
      assert.deepEqual(problems(uri), []);
      assert.deepEqual(await lensTitles(uri), ['$(play) Run on Cluster…'], 'no problem count once fixed');
    });

    await replaceText(editor, 'commands = []\n');
    await eventually(5000, () => Promise.resolve(assert.deepEqual(problems(uri).length, 1)));
    // Renamed away from *.tp.toml: the job file's document closes and its problems go with it.
    assert.ok(await editor.document.save());
    const renamed = vscode.Uri.file(path.join(dir, 'train.toml'));
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(uri, renamed);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await eventually(10_000, () => Promise.resolve(assert.deepEqual(problems(uri), [])));
    assert.deepEqual(problems(renamed), []);
  });
});
