/**
 * package.json against the code: the typed command list, menus, views and settings agree.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allCommandIds } from '../shared/commandIds';
import { localisedManifest } from '../shared/manifest';

/** Every command id declared: shared/commands.ts and each feature's commandIds.ts. */
const ALL_COMMANDS = allCommandIds();

interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string; icon?: string }>;
    menus: Record<string, Array<{ command?: string; when?: string }>>;
    views: Record<string, Array<{ id: string }>>;
    viewsContainers: { activitybar: Array<{ id: string; icon: string }> };
    viewsWelcome?: Array<{ view: string }>;
    configuration: { properties: Record<string, { markdownDescription?: string; description?: string }> };
  };
  main: string;
  engines: { vscode: string };
  devDependencies: Record<string, string>;
}

const root = path.resolve(__dirname, '../../..');
// With its English text in place of the %key% references to package.nls.json, as VS Code shows it.
const manifest = localisedManifest<Manifest>();

describe('package.json manifest', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command);

  it('contributes exactly the commands in the typed list', () => {
    assert.deepEqual([...contributed].sort(), [...ALL_COMMANDS].sort());
  });

  it('every command has a title and the TensorPool category', () => {
    for (const c of manifest.contributes.commands) {
      assert.ok(c.title && c.title.length > 2, c.command);
      assert.equal(c.category, 'TensorPool', c.command);
    }
  });

  it('every menu entry names a contributed command and has a when clause', () => {
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const e of entries) {
        if (!e.command) continue;
        assert.ok(contributed.includes(e.command), `${menu}: ${e.command}`);
        assert.ok(e.when, `${menu}: ${e.command} has no when clause`);
      }
    }
  });

  it('views live in the TensorPool container, whose icon exists; welcome views name real views', () => {
    const container = manifest.contributes.viewsContainers.activitybar.find((c) => c.id === 'tensorpool');
    assert.ok(container);
    assert.ok(fs.existsSync(path.join(root, container.icon)));
    const viewIds = manifest.contributes.views.tensorpool.map((v) => v.id);
    assert.ok(viewIds.includes('tensorpool.clusters'));
    for (const w of manifest.contributes.viewsWelcome ?? []) assert.ok(viewIds.includes(w.view), w.view);
  });

  it('every setting is documented; the main bundle is dist/extension.js; engines match @types/vscode', () => {
    for (const [key, prop] of Object.entries(manifest.contributes.configuration.properties)) {
      assert.ok((prop.markdownDescription ?? prop.description ?? '').length > 20, key);
    }
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(
      manifest.engines.vscode.replace(/^\^/, ''),
      manifest.devDependencies['@types/vscode'].replace(/^~/, ''),
    );
  });
});
