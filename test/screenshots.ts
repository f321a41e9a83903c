// `npm run screenshots`: the README's screenshots, refreshed from the UI suite. The suite installs the
// packaged extension into code-server, drives the real workbench against the local engine and its demo
// data, and saves a screenshot of every checked screen in test-results/vscode-<version>/; this script runs
// it on the newest VS Code version and copies the ones the README shows into media/screenshots/ (kept in
// the repository, left out of the .vsix by .vscodeignore).
//
// usage: node out/test/screenshots.js [--from-results]   (--from-results: copy from the last UI run only)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TARGETS } from './harness/targets';
import { REPO, RESULTS } from './harness/util';

/** media/screenshots/<name>.png <- the UI suite's screenshot of that screen. */
export const README_SCREENSHOTS: Readonly<Record<string, string>> = {
  'hero.png': '13-cluster-running',
  'create-wizard.png': '11-wizard-summary',
  'cluster-volume.png': '44-cluster-volume-child',
  'job-file.png': '50-job-file-codelens',
  'job-logs.png': '54-job-terminal-logs',
  'metrics.png': '56-metrics-panel',
  'object-storage.png': '21-object-storage-section',
  'port-forward.png': '81-ports-forward-row',
  'gpu-nodes.png': '90-gpu-node-rows',
  'gpu-monitor.png': '91-gpu-monitor',
  'notebook.png': '95-notebook-plot',
};

function main(): void {
  const newest = TARGETS[TARGETS.length - 1].name;
  if (!process.argv.includes('--from-results')) {
    const ui = spawnSync(
      process.execPath,
      [path.join(REPO, 'out/test/harness/runUi.js'), '--vscode', newest],
      {
        stdio: 'inherit',
      },
    );
    if (ui.status !== 0) {
      console.error('screenshots: the UI suite failed; media/screenshots/ is left as it was');
      process.exit(1);
    }
  }
  const from = path.join(RESULTS, `vscode-${newest}`);
  const to = path.join(REPO, 'media', 'screenshots');
  fs.mkdirSync(to, { recursive: true });
  const missing = Object.values(README_SCREENSHOTS).filter(
    (s) => !fs.existsSync(path.join(from, `${s}.png`)),
  );
  if (missing.length > 0) {
    console.error(`screenshots: not in ${path.relative(REPO, from)}/: ${missing.join(', ')}`);
    process.exit(1);
  }
  for (const [name, shot] of Object.entries(README_SCREENSHOTS))
    fs.copyFileSync(path.join(from, `${shot}.png`), path.join(to, name));
  console.log(
    `screenshots: ${Object.keys(README_SCREENSHOTS).length} files in media/screenshots/ from VS Code ${newest}`,
  );
}

if (require.main === module) main();
