// The check that fails the build when a user-facing string bypasses l10n: ESLint's rule tensorpool/l10n
// (eslint/l10nRule.mjs, on for src/ in eslint.config.mjs; `npm run lint` runs in CI) reports what it must
// and leaves alone what is not UI.
import * as path from 'node:path';
import { RuleTester } from 'eslint';
import { parser as tsParser } from 'typescript-eslint';
import { REPO } from '../harness/util';

describe('the l10n lint rule', () => {
  it('reports user-facing strings outside l10n.t and accepts them inside it', async () => {
    // The rule is an ES module (Node 20 loads it with import()).
    const { l10nRule } = (await import(path.join(REPO, 'eslint', 'l10nRule.mjs'))) as { l10nRule: never };
    const tester = new RuleTester({ languageOptions: { parser: tsParser } });
    const vscodeFile = path.join(REPO, 'src', 'vscode', 'x.ts');
    const modelFile = path.join(REPO, 'src', 'model', 'x.ts');
    tester.run('tensorpool/l10n', l10nRule, {
      valid: [
        {
          filename: vscodeFile,
          code: "vscode.window.showInformationMessage(vscode.l10n.t('Cluster {0} is ready', n));",
        },
        {
          filename: vscodeFile,
          code: "item.tooltip = vscode.l10n.t('The service answered with text only.');",
        },
        { filename: modelFile, code: 'const m = l10n.t`Cluster ${name} is ready to use`;' },
        { filename: modelFile, code: "this.log.info('Signed in; token stored in SecretStorage.');" },
        { filename: modelFile, code: "import { x } from './some module path';" },
        { filename: modelFile, code: "const id = 'tensorpool.createCluster';" },
        {
          filename: modelFile,
          code: "throw new ConfigError('invalid-value', l10n.t('The value is wrong.'));",
        },
        { filename: modelFile, code: "const o = { 'three word key': 1 };" },
      ],
      invalid: [
        {
          filename: vscodeFile,
          code: "vscode.window.showErrorMessage('Could not load');",
          errors: [{ messageId: 'ui' }],
        },
        {
          filename: vscodeFile,
          code: "vscode.window.showWarningMessage(m, 'Destroy');",
          errors: [{ messageId: 'ui' }],
        },
        {
          filename: vscodeFile,
          code: "const item = { label: 'Name', value: 1 };",
          errors: [{ messageId: 'ui' }],
        },
        {
          filename: vscodeFile,
          code: "box.placeholder = cond ? 'Pick one' : other;",
          errors: [{ messageId: 'ui' }],
        },
        { filename: vscodeFile, code: 'new vscode.TreeItem(`No clusters`);', errors: [{ messageId: 'ui' }] },
        {
          filename: modelFile,
          code: "throw new ApiError('The service refused the request.');",
          errors: [{ messageId: 'ui' }],
        },
        {
          filename: modelFile,
          code: 'return `The size must be a whole number of GB, such as ${x}.`;',
          errors: [{ messageId: 'prose' }],
        },
        {
          filename: modelFile,
          code: "const note = l10n.t('Ready') + ' and waiting for you';",
          errors: [{ messageId: 'prose' }],
        },
      ],
    });
  });
});
