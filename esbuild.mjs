// One build for everything:
//   dist/extension.js  the activation bundle: small, no undici/zod/config writers/wizards (loads the three below
//                      on first use)
//   dist/api.js        the API client with undici and zod/mini, loaded lazily by the extension
//   dist/config.js     the config writers (AWS/rclone profiles, SSH config), loaded lazily by the extension
//   dist/actions.js    the command actions and the wizards (src/vscode/app/onUse/actions.ts), loaded on the first command
//                      that needs them
//   dist/testSurface.js the test surface activate() returns outside production (not in the VSIX)
//   dist/media/        the chart pages' files (uPlot, media/charts/), copied (copyChartMedia)
//   dist/engine.js     the local TensorPool engine (npm run engine, tests, demo); not shipped in the VSIX
//   dist/nvidia-smi.js the engine's stand-in nvidia-smi (its nodes' bin/); not shipped either
//   out/**             src/ and test/ transpiled file by file for mocha (unit tests in Node,
//                      integration tests in the extension host) and the test harness
// Flags: --production (minify, no source maps), --watch, --quiet (no size report).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const quiet = process.argv.includes('--quiet');

/**
 * Bundles follow folders. Under src/vscode/, each feature folder's own files load at activation
 * (dist/extension.js); its `onUse/` folder holds what loads on first use: the command actions and wizards
 * (dist/actions.js, entry src/vscode/app/onUse/actions.ts, which makes every feature's actions), the job-file
 * checker (dist/jobFiles.js) and the bucket browser (dist/objectBrowser.js). The build fails when a file of an
 * `onUse/` folder lands in dist/extension.js. The test surface (src/vscode/testing/testSurface.ts) is its own
 * bundle, loaded outside production only. The other lazily loaded layers are src/api, src/config and src/s3.
 */
const LAZY_ENTRIES = {
  actions: 'src/vscode/app/onUse/actions.ts',
  jobFiles: 'src/vscode/jobFiles/onUse/jobFiles.ts',
  objectBrowser: 'src/vscode/objectBrowser/onUse/objectBrowser.ts',
  notebooks: 'src/vscode/notebooks/onUse/notebooks.ts',
  testSurface: 'src/vscode/testing/testSurface.ts',
};

/** A `require()` of a lazy bundle's entry (`./onUse/actions.js`, lazyActions.ts) or of a layer's index
 *  (`../../api/index.js`, lazyApi.ts) stays a require of the sibling bundle in dist/ at run time. */
const lazyLayers = {
  name: 'lazy-layers',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (a) => {
      if (a.kind !== 'require-call') return undefined;
      const layer = /^(?:\.\.\/)+(api|config|s3)\/index\.js$/.exec(a.path);
      if (layer) return { path: `./${layer[1]}.js`, external: true };
      const file = join(a.resolveDir, a.path).replace(/\.js$/, '.ts');
      const name = Object.keys(LAZY_ENTRIES).find((k) => join(import.meta.dirname, LAZY_ENTRIES[k]) === file);
      return name ? { path: `./${name}.js`, external: true } : undefined;
    });
  },
};

/** `@vscode/l10n` in src/ resolves to src/model/l10n.ts, which feeds each bundle's copy of it the translations
 *  activation shared (only that module imports the package itself); in the activation bundle it resolves to
 *  src/vscode/shared/l10nVscode.ts (vscode.l10n.t), so activation carries no second l10n runtime. */
const L10N_SHIM = join(import.meta.dirname, 'src', 'model', 'l10n.ts');
const L10N_VSCODE = join(import.meta.dirname, 'src', 'vscode', 'shared', 'l10nVscode.ts');
const l10nPlugin = (shim) => ({
  name: 'l10n-shared',
  setup(build) {
    build.onResolve({ filter: /^@vscode\/l10n$/ }, (args) =>
      args.importer === L10N_SHIM || args.importer === L10N_VSCODE ? undefined : { path: shim },
    );
  },
});
const l10nShared = l10nPlugin(L10N_SHIM);

const bundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  metafile: true,
  legalComments: 'none',
};

/** `import * as vscode from 'vscode'` in each of ~17 modules would otherwise copy the whole vscode API object
 *  (hundreds of properties) into a namespace object of its own while the bundle loads (esbuild's __toESM
 *  per importing module, a few milliseconds of activation). Route every import through one ESM module
 *  that re-exports the external `vscode` once. */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({
      contents: "export * from 'vscode';",
      loader: 'js',
    }));
  },
};

/** The activation bundle's first and last statements note when it started and finished evaluating
 *  (performance.now()); src/extension.ts exposes them to the benchmarks (test/bench). The banner comes
 *  before esbuild's "use strict", so it repeats that directive to keep the bundle in strict mode. */
const loadMarks = {
  banner: { js: '"use strict";var __TP_LOAD__={start:performance.now()};' },
  footer: { js: '__TP_LOAD__.end=performance.now();' },
};

const builds = [
  {
    ...bundle,
    ...loadMarks,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [lazyLayers, vscodeOnce, l10nPlugin(L10N_VSCODE)],
  },
  {
    ...bundle,
    entryPoints: { jobFiles: LAZY_ENTRIES.jobFiles },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [l10nShared],
  },
  // The test surface activate() returns outside production (src/vscode/testing/testSurface.ts); not in the VSIX.
  {
    ...bundle,
    entryPoints: { testSurface: LAZY_ENTRIES.testSurface },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [lazyLayers, vscodeOnce, l10nShared],
  },
  {
    ...bundle,
    entryPoints: { objectBrowser: LAZY_ENTRIES.objectBrowser },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [lazyLayers, vscodeOnce, l10nShared],
  },
  // Notebooks on nodes with the Jupyter client (@jupyterlab/services, ws), loaded with the first .ipynb.
  {
    ...bundle,
    entryPoints: { notebooks: LAZY_ENTRIES.notebooks },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [lazyLayers, vscodeOnce, l10nShared],
  },
  {
    ...bundle,
    entryPoints: { api: 'src/api/index.ts' },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [l10nShared],
  },
  // The job log reader's worker thread (src/api/listenThread.ts starts it beside dist/api.js, which it loads).
  {
    ...bundle,
    entryPoints: { listenWorker: 'src/api/listenWorker.ts' },
    outdir: 'dist',
    plugins: [
      l10nShared,
      {
        name: 'api-bundle',
        setup: (build) =>
          build.onResolve({ filter: /^\.\/index\.js$/ }, (a) =>
            a.kind === 'require-call' ? { path: './api.js', external: true } : undefined,
          ),
      },
    ],
  },
  {
    ...bundle,
    entryPoints: { config: 'src/config/index.ts' },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [l10nShared],
  },
  // The object-storage (S3) layer with the AWS SDK's S3 client, loaded when a bucket is first expanded.
  {
    ...bundle,
    entryPoints: { s3: 'src/s3/index.ts' },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [l10nShared],
  },
  {
    ...bundle,
    entryPoints: { actions: LAZY_ENTRIES.actions },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [lazyLayers, vscodeOnce, l10nShared],
  },
  {
    ...bundle,
    // dist/nvidia-smi.js: the engine's stand-in nvidia-smi for its nodes (engine/nvidiaSmi.ts).
    entryPoints: { engine: 'engine/main.ts', 'nvidia-smi': 'engine/nvidiaSmi.ts' },
    outdir: 'dist',
    // s3rver (engine/objectStore.ts) loads from node_modules: one copy of its account registry.
    external: ['vscode', 's3rver', 's3rver/*'],
    minify: false,
  },
];

function tsFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) found.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(p);
  }
  return found;
}
if (!production) {
  builds.push({
    entryPoints: [...tsFiles('src'), ...tsFiles('engine'), ...tsFiles('test')],
    outdir: 'out',
    outbase: '.',
    bundle: false,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

/** Remove transpiled files whose source is gone. Done after building, never before: a test run that is
 *  reading out/ at the same time must not find it empty. */
function pruneStale(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) pruneStale(p);
    else if (name.endsWith('.js') && !existsSync(join(p.slice('out/'.length).replace(/\.js$/, '.ts'))))
      rmSync(p);
  }
}

/** The chart pages' files (src/vscode/shared/onUse/chartPanel.ts): uPlot's script and stylesheet and our page
 *  script, in dist/media/ (the only folder the page may load from). uPlot is loaded by the page only, never
 *  by the extension's bundles. */
function copyChartMedia() {
  mkdirSync('dist/media', { recursive: true });
  for (const f of ['uPlot.iife.min.js', 'uPlot.min.css'])
    copyFileSync(join('node_modules', 'uplot', 'dist', f), join('dist', 'media', f));
  for (const f of ['charts.js', 'charts.css'])
    copyFileSync(join('media', 'charts', f), join('dist', 'media', f));
}
copyChartMedia();

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching for changes');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  if (!production) {
    pruneStale('out/src');
    pruneStale('out/engine');
    pruneStale('out/test');
  }
  // The lazily loaded layers must stay out of the activation bundle: a static import of src/config, of
  // the API layer's dependencies, of a wizard or of a file in an `onUse/` folder from the extension side
  // would quietly pull them in again.
  const leaked = Object.keys(results[0].metafile.inputs).filter(
    (f) =>
      /^(src\/config\/|src\/s3\/|src\/wizards\/(?!prompter\.ts$)|node_modules\/(undici|zod|@aws-sdk|@smithy|@jupyterlab|@lumino|ws)\/)/.test(
        f,
      ) ||
      f.includes('/onUse/') ||
      f === LAZY_ENTRIES.testSurface,
  );
  if (leaked.length) {
    console.error(`esbuild: dist/extension.js must not contain ${leaked.join(', ')}: import it lazily`);
    process.exitCode = 1;
  }
  // The test surface takes the activation bundle's module state as arguments: a module of src/ bundled into
  // it would be a second copy with state of its own.
  const surface = results.find((r) => r.metafile && 'dist/testSurface.js' in r.metafile.outputs);
  const copied = Object.keys(surface.metafile.inputs).filter((f) => f !== LAZY_ENTRIES.testSurface);
  if (copied.length) {
    console.error(`esbuild: dist/testSurface.js must not contain ${copied.join(', ')}: pass it in instead`);
    process.exitCode = 1;
  }
  // The job-file checker and its TOML parser load with the first job file (src/vscode/jobFiles/jobFileSetup.ts).
  if (
    Object.keys(results[0].metafile.inputs).some((f) =>
      /^(src\/model\/jobFile\.ts|node_modules\/smol-toml\/)/.test(f),
    )
  ) {
    console.error(
      'esbuild: dist/extension.js must not contain the job-file checker or smol-toml (dist/jobFiles.js)',
    );
    process.exitCode = 1;
  }
  if (!quiet) {
    for (const r of results.filter((r) => r.metafile)) {
      for (const [file, info] of Object.entries(r.metafile.outputs)) {
        if (file.endsWith('.js')) console.log(`esbuild: ${file} ${(info.bytes / 1024).toFixed(1)} KB`);
      }
    }
  }
}
