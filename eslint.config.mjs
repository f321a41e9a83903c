// Lint: typescript-eslint's type-aware rules where they catch real bugs (promises left floating or
// passed where a void callback is expected, unused code, `any` in shipped code). Style is Prettier's
// business (eslint-config-prettier turns off every rule that would argue with it); max-len stays on
// for what Prettier does not wrap (comments), at a width that fits a side-by-side diff.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { l10nRule } from './eslint/l10nRule.mjs';
import { layersRule } from './eslint/layersRule.mjs';

// The house rules, one plugin: tensorpool/l10n and tensorpool/layers.
const tensorpool = { rules: { l10n: l10nRule, layers: layersRule } };

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', '.cache/', 'test-results/', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // Style, not bugs: an async function without await is still a correct function.
      '@typescript-eslint/require-await': 'off',
      // The validators and the terminal-text cleaners match control characters on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'max-len': [
        'error',
        {
          code: 120,
          ignoreUrls: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
        },
      ],
    },
  },
  {
    // Every user-facing string of the extension goes through l10n (eslint/l10nRule.mjs).
    files: ['src/**/*.ts'],
    plugins: { tensorpool },
    rules: { 'tensorpool/l10n': 'error' },
  },
  {
    // Notifications are shown in one place (src/vscode/shared/notices.ts), which makes the links in
    // the service's and the nodes' text inert.
    files: ['src/vscode/**/*.ts'],
    ignores: ['src/vscode/shared/notices.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.property.name='window'][property.name=/^show(Information|Warning|Error)Message$/]",
          message:
            'Show notifications through notices (src/vscode/shared/notices.ts), which makes links inert.',
        },
      ],
    },
  },
  {
    // The layer rules (eslint/layersRule.mjs): no `vscode` in src/api, src/config, src/model, src/s3 and
    // src/wizards; nothing in src/ imports engine/ or test/; the engine imports nothing from src/.
    files: ['src/**/*.ts', 'engine/**/*.ts'],
    plugins: { tensorpool },
    rules: { 'tensorpool/layers': ['error', { root: import.meta.dirname }] },
  },
  {
    // Tests and the harness talk to loosely typed things on purpose (JSON from the engine, the
    // workbench's DOM, the extension's test API): `any` is allowed there, unsafe-* rules off.
    files: ['test/**/*.ts', 'engine/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Assertion messages and harness output stringify whatever they are given.
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      // The bench measures require() of the built bundles on purpose.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
