/**
 * The list sections are wired in one place: each section folder exports its descriptor (defineSection,
 * shared/listSection.ts), src/vscode/app/features.ts names them, and nothing in shared/ or testing/ names a
 * section (its view id, scope key, or folder), so adding one touches only the files CONTRIBUTING.md lists.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandIdFolders } from '../shared/commandIds';

const vscodeDir = path.resolve(__dirname, '../../../src/vscode');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Each section's folder and name, read from its `defineSection({ name: '…' })`. */
function sections(): { folder: string; name: string }[] {
  return fs.readdirSync(vscodeDir).flatMap((folder) => {
    const dir = path.join(vscodeDir, folder);
    if (!fs.statSync(dir).isDirectory() || folder === 'shared') return [];
    return tsFiles(dir).flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/defineSection\(\{\s*name: '(\w+)'/g)].map((m) => ({
        folder,
        name: m[1],
      })),
    );
  });
}

describe('list sections wired in one place', () => {
  const found = sections();

  it('finds the sections by their descriptors', () => {
    const names = found.map((s) => s.name);
    for (const name of ['jobs', 'sshKeys', 'volumes']) assert.ok(names.includes(name), name);
    assert.equal(new Set(names).size, names.length, 'one descriptor per section');
  });

  it('shared/ and testing/ name no section: no view id, scope key or entry file of one', () => {
    const files = [...tsFiles(path.join(vscodeDir, 'shared')), ...tsFiles(path.join(vscodeDir, 'testing'))];
    for (const { folder, name } of found)
      for (const f of files) {
        const text = fs.readFileSync(f, 'utf8');
        assert.ok(
          !text.includes(`'tensorpool.${name}`),
          `${f} names the ${name} section's view or scope key`,
        );
        // Its entry file (index.ts: the section's setup, controller, tree); testing/ may read a feature's
        // first-use parts (a job's metrics panel) as a hook of its own.
        assert.ok(!new RegExp(`from '\\.\\./(\\.\\./)?${folder}'`).test(text), `${f} imports ${folder}/`);
      }
  });

  it('in the composition root, only features.ts (and the actions bundle) imports a section', () => {
    for (const { folder } of found)
      for (const f of tsFiles(path.join(vscodeDir, 'app'))) {
        const rel = path.relative(path.join(vscodeDir, 'app'), f).split(path.sep).join('/');
        if (rel === 'features.ts' || rel === 'onUse/actions.ts') continue;
        const text = fs.readFileSync(f, 'utf8');
        assert.ok(!new RegExp(`from '\\.\\./${folder}'`).test(text), `app/${rel} imports ${folder}/`);
      }
  });

  it("a section's command ids may live in its folder, found without a list", () => {
    assert.ok(commandIdFolders().includes('volumes'), 'volumes/commandIds.ts is found');
  });
});
