// What `vsce` makes of this repository: the files a user gets (`vsce ls`: the bundles the extension loads,
// its media, the manifest and its English text (package.nls.json), README, CHANGELOG and LICENSE; no
// source, maps, engine or screenshots), no warnings, and a manifest Open VSX takes as the Marketplace
// does. The packaged .vsix itself is installed into code-server from the file and driven in the real
// workbench by the UI suite (test/harness/runUi.ts).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const vsce = path.join(root, 'node_modules', '.bin', 'vsce');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, any>;

function vsceLs(): { files: string[]; output: string } {
  const r = spawnSync(vsce, ['ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `vsce ls failed:\n${r.stdout}${r.stderr}`);
  return { files: r.stdout.split('\n').filter(Boolean).sort(), output: r.stdout + r.stderr };
}

/** What dist/ holds that is not the extension's: the local engine, its nodes' stand-in nvidia-smi, and the
 *  test surface (loaded outside production only). */
const NOT_SHIPPED = ['engine.js', 'nvidia-smi.js', 'testSurface.js'];

/** The bundles esbuild.mjs makes for the extension (all of dist/*.js but NOT_SHIPPED). */
function shippedBundles(): string[] {
  return fs
    .readdirSync(path.join(root, 'dist'))
    .filter((f) => f.endsWith('.js') && !NOT_SHIPPED.includes(f))
    .map((f) => `dist/${f}`);
}

/** The chart pages' files (Show Metrics, the GPU monitor): uPlot and our page script and style, copied into
 *  dist/media/ by esbuild.mjs and loaded only in the webviews. */
const CHART_PAGE_FILES = [
  'dist/media/charts.css',
  'dist/media/charts.js',
  'dist/media/uPlot.iife.min.js',
  'dist/media/uPlot.min.css',
];

/** package.nls.json (the manifest's English text) and each translation of it beside package.json. */
function manifestText(): string[] {
  const files = fs.readdirSync(root).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f));
  assert.ok(files.includes('package.nls.json'));
  return files;
}

/** Translations of the runtime messages (l10n/bundle.l10n.<language>.json); the English bundle stays home. */
function runtimeTranslations(): string[] {
  return fs
    .readdirSync(path.join(root, 'l10n'))
    .filter((f) => /^bundle\.l10n\.[\w-]+\.json$/.test(f))
    .map((f) => `l10n/${f}`);
}

describe('packaging (vsce)', function () {
  this.timeout(90_000);
  let listed: { files: string[]; output: string };
  before(() => {
    listed = vsceLs();
  });

  it('lists only what a user needs: the bundles, media, manifest and its text, README, CHANGELOG and LICENSE', () => {
    const media = listed.files.filter((f) => f.startsWith('media/'));
    assert.deepEqual(
      listed.files.filter((f) => !f.startsWith('media/')),
      [
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        'package.json',
        ...manifestText(),
        ...runtimeTranslations(),
        ...shippedBundles(),
        ...CHART_PAGE_FILES,
      ].sort(),
    );
    // Every media file the manifest names (icon, view icons, language configuration, walkthrough media).
    const named = JSON.stringify(manifest).match(/"(?:\.\/)?media\/[^"]+"/g) ?? [];
    assert.ok(named.length > 0);
    for (const ref of named) {
      const file = ref.slice(1, -1).replace(/^\.\//, '');
      assert.ok(media.includes(file), `${file} is named in package.json and packaged`);
    }
    for (const f of media)
      assert.doesNotMatch(f, /^media\/screenshots\//, `${f}: README images stay in the repository`);
    assert.ok(listed.files.includes(manifest.main.replace(/^\.\//, '')), 'the main bundle');
  });

  it('vsce has no warning to give', () => {
    assert.doesNotMatch(listed.output, /WARNING|warn/i);
  });

  it('the manifest suits Open VSX as well as the Marketplace', () => {
    // Open VSX namespaces and names: lower case, digits, dashes; a licence it can show; a PNG icon.
    assert.match(manifest.publisher, /^[a-z0-9][a-z0-9-]*$/);
    assert.match(manifest.name, /^[a-z0-9][a-z0-9-]*$/);
    assert.ok(manifest.license && fs.existsSync(path.join(root, 'LICENSE')));
    assert.match(manifest.icon, /\.png$/);
    assert.match(manifest.repository.url, /^https:\/\//);
    assert.match(manifest.engines.vscode, /^\^\d+\.\d+\.\d+$/);
    // Nothing that only the Marketplace can satisfy: no extension dependencies or packs.
    assert.equal(manifest.extensionDependencies, undefined);
    assert.equal(manifest.extensionPack, undefined);
    // README images: vsce rewrites relative links against the repository; SVG images are refused.
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const [, src] of readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
      assert.doesNotMatch(src, /\.svg$/i, src);
      if (!/^https:\/\//.test(src)) assert.ok(fs.existsSync(path.join(root, src)), `${src} exists`);
    }
  });
});
