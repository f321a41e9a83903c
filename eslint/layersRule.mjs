// ESLint rule `tensorpool/layers`: the house's layer rules, so breaking one fails `npm run lint`.
//  - src/api, src/config, src/model, src/s3 and src/wizards never import `vscode` (they run in plain Node:
//    the unit tests, the job log's worker thread, the lazily loaded bundles);
//  - nothing in src/ imports from engine/ or test/ (neither ships);
//  - the engine (engine/) imports nothing from src/ (it stands in for the service, not for us);
//  - in src/vscode/, a folder reaches another folder's code only through that folder's entry files, its
//    `index.ts` (what loads at activation) and `onUse/index.ts` (what loads on first use), or a bundle's
//    own entry (LAZY_ENTRIES in esbuild.mjs); `shared/` is open to all (what every feature uses);
//  - `shared/` imports no other folder of src/vscode (it knows no feature);
//  - `app/` (the composition root, where the features are wired) is imported by src/extension.ts only.
// Every way a module is named counts: `import` (type-only too), `export ... from`, `import x = require()`,
// `require()`, `import()` and `typeof import('...')` types. Relative paths are resolved against the
// importing file, so `../../engine/state` is caught as surely as a path that names the folder outright.
// The option `root` is the repository root (eslint.config.mjs passes its own folder).
import * as path from 'node:path';

const NO_VSCODE = /^src\/(api|config|model|s3|wizards)\//;

/** The lazily loaded bundles' entries (esbuild.mjs LAZY_ENTRIES): required by path, so importable by path. */
const BUNDLE_ENTRIES = new Set([
  'src/vscode/app/onUse/actions.ts',
  'src/vscode/jobFiles/onUse/jobFiles.ts',
  'src/vscode/objectBrowser/onUse/objectBrowser.ts',
  'src/vscode/testing/testSurface.ts',
]);

/** Why `to` (a path without extension, or with `.js`) may not be imported from `self`, or undefined. */
function outsideEntry(self, to) {
  const from = /^src\/vscode\/([^/]+)\//.exec(self);
  const into = /^src\/vscode\/([^/]+)\/(.*)$/.exec(to);
  if (!from || !into || from[1] === into[1] || into[1] === 'shared') return undefined;
  const rest = into[2].replace(/\.(js|ts)$/, '');
  if (rest === 'index' || rest === 'onUse/index' || rest === '' || rest === 'onUse') return undefined;
  if (BUNDLE_ENTRIES.has(`src/vscode/${into[1]}/${rest}.ts`)) return undefined;
  return into[1];
}

/** The repository-relative path (forward slashes) a specifier names, or undefined for a package. */
function target(specifier, fromFile, root) {
  if (!specifier.startsWith('.') && !path.isAbsolute(specifier)) return undefined;
  const resolved = path.resolve(path.dirname(fromFile), specifier);
  return path.relative(root, resolved).split(path.sep).join('/');
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'The layer rules: no vscode below the UI layer, no engine/test in src, no src in engine',
    },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      vscode: "{{layer}} must not import 'vscode': only src/vscode and src/extension.ts talk to VS Code.",
      srcImportsOutside:
        "src/ must not import from {{folder}}/ ('{{specifier}}'): it is not shipped with the extension.",
      engineImportsSrc:
        "engine/ must not import from src/ ('{{specifier}}'): the engine stands in for the service, not for us.",
      sharedImportsFeature:
        "src/vscode/shared/ must not import from src/vscode/{{folder}}/ ('{{specifier}}'): shared/ knows no " +
        'feature; hand what it needs in from the composition root (src/vscode/app/).',
      appImported:
        "only src/extension.ts imports the composition root ('{{specifier}}'): a feature gets what it needs " +
        'handed in by src/vscode/app/.',
      featureEntry:
        "'{{specifier}}' reaches into src/vscode/{{folder}}/: import it from that folder's entry file " +
        '({{folder}}/index.ts, or {{folder}}/onUse/index.ts for what loads on first use).',
    },
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = context.filename;
    const self = path.relative(root, file).split(path.sep).join('/');
    const inSrc = self.startsWith('src/');
    const inEngine = self.startsWith('engine/');
    const noVscode = NO_VSCODE.test(self);
    if (!inSrc && !inEngine) return {};

    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      if (noVscode && (specifier === 'vscode' || specifier.startsWith('vscode/'))) {
        context.report({ node, messageId: 'vscode', data: { layer: self.split('/').slice(0, 2).join('/') } });
        return;
      }
      const to = target(specifier, file, root);
      if (to === undefined) return;
      const folder = to.split('/')[0];
      if (inSrc && (folder === 'engine' || folder === 'test')) {
        context.report({ node, messageId: 'srcImportsOutside', data: { folder, specifier } });
      } else if (inEngine && folder === 'src') {
        context.report({ node, messageId: 'engineImportsSrc', data: { specifier } });
      } else if (inSrc && self.startsWith('src/vscode/shared/') && /^src\/vscode\/[^/]+(\/|$)/.test(to)) {
        const folder = to.split('/')[2];
        if (folder !== 'shared')
          context.report({ node, messageId: 'sharedImportsFeature', data: { specifier, folder } });
      } else if (inSrc && /^src\/vscode\/app(\/|$)/.test(to) && !self.startsWith('src/vscode/app/')) {
        if (self !== 'src/extension.ts')
          context.report({ node, messageId: 'appImported', data: { specifier } });
      } else if (inSrc) {
        const other = outsideEntry(self, to);
        if (other) context.report({ node, messageId: 'featureEntry', data: { specifier, folder: other } });
      }
    }
    const literal = (node) =>
      node?.type === 'Literal'
        ? node.value
        : node?.type === 'TemplateLiteral' && node.expressions.length === 0
          ? node.quasis[0].value.cooked
          : undefined;

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => check(node.source, literal(node.source)),
      TSExternalModuleReference: (node) => check(node.expression, literal(node.expression)),
      TSImportType: (node) => {
        // typescript-eslint 8: `argument` is a TSLiteralType around the string literal.
        const arg = node.argument;
        check(arg, arg?.type === 'TSLiteralType' ? literal(arg.literal) : literal(arg));
      },
      CallExpression: (node) => {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments.length >= 1
        ) {
          check(node.arguments[0], literal(node.arguments[0]));
        }
      },
    };
  },
};
