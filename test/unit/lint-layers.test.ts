// The layer rules fail `npm run lint`: ESLint, run with the repository's own eslint.config.mjs, reports
// tensorpool/layers (eslint/layersRule.mjs) for a `vscode` import below the UI layer, for src/ reaching into
// engine/ or test/ and for the engine reaching into src/, whichever way the module is named; and it stays
// quiet for the imports each layer is allowed.
import * as assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { REPO } from '../harness/util';

const RULE = 'tensorpool/layers';

describe('the layer lint rule', function () {
  this.timeout(60_000);
  // The repository's config as `npm run lint` loads it. The probes are not files on disk, which the
  // TypeScript project service (the type-aware rules) refuses, so they are parsed without it and only the
  // rule under test runs.
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({
      cwd: REPO,
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
      ruleFilter: ({ ruleId }) => ruleId === RULE,
    });
  });

  /** The messages of tensorpool/layers for `code` placed at `filePath`; fails on a parse error, so a
   *  quiet answer means the rule looked at the code and found nothing. */
  async function layerMessages(code: string, filePath: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    const fatal = result.messages.filter((m) => m.fatal);
    assert.deepEqual(fatal, [], `ESLint could not parse ${filePath}`);
    return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
  }

  it('is on for src/ and engine/ in the repository config', async () => {
    for (const file of ['src/model/probe.ts', 'src/vscode/probe.ts', 'engine/probe.ts']) {
      const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown> };
      assert.deepEqual(
        (config.rules?.[RULE] as unknown[] | undefined)?.[0],
        2,
        `${RULE} is not an error for ${file}`,
      );
    }
  });

  it("reports a 'vscode' import in src/model, src/api, src/config, src/s3 and src/wizards", async () => {
    const cases: [string, string][] = [
      ["import * as vscode from 'vscode';\nexport const a = vscode.version;\n", 'src/model/probe.ts'],
      ["import type { Uri } from 'vscode';\nexport type A = Uri;\n", 'src/api/probe.ts'],
      ["export const v = require('vscode');\n", 'src/s3/probe.ts'],
      ["export async function f() {\n  return import('vscode');\n}\n", 'src/wizards/probe.ts'],
      ["export type V = typeof import('vscode');\n", 'src/config/probe.ts'],
      ["export { window } from 'vscode';\n", 'src/model/probe.ts'],
    ];
    for (const [code, file] of cases) {
      const messages = await layerMessages(code, file);
      assert.equal(messages.length, 1, `${file}: ${code}`);
      assert.match(messages[0], /must not import 'vscode'/);
    }
  });

  it('reports src/ importing from engine/, however the path is written', async () => {
    for (const [code, file] of [
      [
        "import { EngineState } from '../../engine/state';\nexport type S = EngineState;\n",
        'src/vscode/foo.ts',
      ],
      ["import { seed } from '../engine/seed.js';\nexport const s = seed;\n", 'src/extension.ts'],
      ["export * from '../../engine/types';\n", 'src/model/probe.ts'],
      ["export type T = typeof import('../../engine/jobs');\n", 'src/api/probe.ts'],
    ]) {
      const messages = await layerMessages(code, file);
      assert.equal(messages.length, 1, `${file}: ${code}`);
      assert.match(messages[0], /src\/ must not import from engine\//);
    }
  });

  it('reports src/ importing from test/', async () => {
    const messages = await layerMessages(
      "import { REPO } from '../../test/harness/util';\nexport const r = REPO;\n",
      'src/vscode/probe.ts',
    );
    assert.deepEqual(messages.length, 1);
    assert.match(messages[0], /src\/ must not import from test\//);
  });

  it("reports a src/vscode folder reaching past another folder's entry files", async () => {
    for (const code of [
      "import { JobsTreeProvider } from '../jobs/jobsTree';\nexport const t = JobsTreeProvider;\n",
      "import type { JobRunner } from '../jobs/onUse/jobRun';\nexport type R = JobRunner;\n",
      "export { PortForwards } from '../ports/portForwards';\n",
      "export type T = typeof import('../gpu/gpuSampler');\n",
    ]) {
      const messages = await layerMessages(code, 'src/vscode/clusters/probe.ts');
      assert.equal(messages.length, 1, code);
      assert.match(
        messages[0],
        /reaches into src\/vscode\/(jobs|ports|gpu)\/: import it from that folder's entry file/,
      );
    }
    for (const code of [
      "import { type JobsFeature } from '../jobs';\nexport type F = JobsFeature;\n",
      "import { JobRunner } from '../jobs/onUse/index';\nexport const r = JobRunner;\n",
      "import { Log } from '../shared/log';\nexport const l = Log;\n",
      "import { ClustersController } from './clusters';\nexport const c = ClustersController;\n",
      "export const m = () => require('../../jobFiles/onUse/jobFiles.js') as unknown;\n",
    ]) {
      const file = code.includes('../../jobFiles')
        ? 'src/vscode/jobs/onUse/probe.ts'
        : 'src/vscode/clusters/probe.ts';
      assert.deepEqual(await layerMessages(code, file), [], code);
    }
  });

  it('reports shared/ importing a feature, and anything but src/extension.ts importing the composition root', async () => {
    for (const code of [
      "import type { ClustersFeature } from '../clusters';\nexport type F = ClustersFeature;\n",
      "import { PORT_COMMANDS } from '../../ports/index';\nexport const p = PORT_COMMANDS;\n",
      "export const a = () => require('../app/onUse/actions.js') as unknown;\n",
    ]) {
      const file = code.includes('../../ports')
        ? 'src/vscode/shared/onUse/probe.ts'
        : 'src/vscode/shared/probe.ts';
      const messages = await layerMessages(code, file);
      assert.equal(messages.length, 1, code);
      assert.match(
        messages[0],
        /src\/vscode\/shared\/ must not import from src\/vscode\/(clusters|ports|app)\/ \('[^']+'\): shared\/ knows no feature/,
      );
    }
    for (const [code, file] of [
      [
        "import { registerFeatureCommands } from '../app/actionCommands';\nexport const r = registerFeatureCommands;\n",
        'src/vscode/jobs/probe.ts',
      ],
      [
        "export const a = () => require('../../app/onUse/actions.js') as unknown;\n",
        'src/vscode/gpu/onUse/probe.ts',
      ],
    ]) {
      const messages = await layerMessages(code, file);
      assert.equal(messages.length, 1, code);
      assert.match(messages[0], /only src\/extension\.ts imports the composition root/);
    }
    for (const [code, file] of [
      ["export { activate } from './vscode/app/activate';\n", 'src/extension.ts'],
      [
        "import { Commands } from '../shared/commands';\nimport { CLUSTER_COMMANDS } from '../clusters';\nexport const c = [Commands, CLUSTER_COMMANDS];\n",
        'src/vscode/app/probe.ts',
      ],
      ["import { Log } from './log';\nexport const l = Log;\n", 'src/vscode/shared/probe.ts'],
    ]) {
      assert.deepEqual(await layerMessages(code, file), [], `${file}: ${code}`);
    }
  });

  it('reports the engine importing from src/', async () => {
    const messages = await layerMessages(
      "import { type Cluster } from '../src/model/cluster';\nexport type C = Cluster;\n",
      'engine/probe.ts',
    );
    assert.equal(messages.length, 1);
    assert.match(messages[0], /engine\/ must not import from src\//);
  });

  it('accepts the imports each layer is allowed', async () => {
    for (const [code, file] of [
      [
        "import * as path from 'node:path';\nimport * as l10n from '@vscode/l10n';\nimport { type Cluster } from './cluster';\n" +
          'export const f = (c: Cluster) => path.join(c.id, l10n.t("x"));\n',
        'src/model/probe.ts',
      ],
      [
        "import * as vscode from 'vscode';\nimport { type Cluster } from '../model/cluster';\n" +
          'export const f = (c: Cluster) => vscode.Uri.file(c.id);\n',
        'src/vscode/probe.ts',
      ],
      ["import * as vscode from 'vscode';\nexport const v = vscode.version;\n", 'src/extension.ts'],
      // A folder whose name merely contains "engine" or "test" is not engine/ or test/.
      ["import { type X } from './engineering/testing';\nexport type Y = X;\n", 'src/model/probe.ts'],
      [
        "import { seed } from './seed';\nimport * as http from 'node:http';\nexport const s = [seed, http];\n",
        'engine/probe.ts',
      ],
    ]) {
      assert.deepEqual(await layerMessages(code, file), [], `${file}: ${code}`);
    }
  });

  it('leaves test/ free to import from src/ and engine/', async () => {
    assert.deepEqual(
      await layerMessages(
        "import { EngineState } from '../../engine/state';\nimport { type Cluster } from '../../src/model/cluster';\n" +
          'export type T = [EngineState, Cluster];\n',
        'test/unit/probe.ts',
      ),
      [],
    );
  });
});
