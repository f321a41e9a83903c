// ESLint rule `tensorpool/l10n`: a user-facing string in src/ must go through l10n (vscode.l10n.t in the
// VS Code layer, l10n.t from @vscode/l10n elsewhere), so `npm run l10n` extracts it and a translation (or the
// pseudo-localised UI run) reaches it. It reports a string or template literal outside l10n.t(...) that is
//  - shown by VS Code: an argument of window.show*Message / setStatusBarMessage, the first argument of
//    new TreeItem / MarkdownString / Error-like classes, the message of new Diagnostic, or the value of a
//    property a UI shows (label, description, detail, tooltip, title, placeholder, prompt, message, ...);
//  - or anywhere, prose: three or more words of letters (a sentence someone will read).
// Log lines (log.info(...) and the like) and import paths are not UI. A string that looks like prose but
// is not UI (file content for another tool, a protocol value) takes a disable comment that says why.

const UI_PROPS = new Set([
  'label',
  'description',
  'detail',
  'tooltip',
  'title',
  'placeholder',
  'placeHolder',
  'prompt',
  'message',
  'validationMessage',
  'text',
  'ariaLabel',
  'contextValueLabel',
  'noun',
]);
const SHOW_CALLS = /^(show(Information|Warning|Error)Message|setStatusBarMessage)$/;
const UI_CLASSES = /^(TreeItem|MarkdownString|[A-Za-z]*Error|CodeLens|QuickPickItem)$/;
const LOG_CALLS = /^(trace|debug|info|warn|warning|error|log|appendLine|append)$/;
const PROSE = /[A-Za-z]{2,}[,:;.!?'’)]*\s+[A-Za-z(][A-Za-z'’]*[,:;.!?)]*\s+[A-Za-z(][A-Za-z]+/;
const LETTERS = /[A-Za-z]{2,}/;

function text(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? '').join(' ');
  return undefined;
}

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed) return callee.property.name;
  return undefined;
}

function isL10nCall(node) {
  const callee = node.type === 'TaggedTemplateExpression' ? node.tag : node.callee;
  return (
    callee?.type === 'MemberExpression' &&
    !callee.computed &&
    callee.property.name === 't' &&
    ((callee.object.type === 'Identifier' && callee.object.name === 'l10n') ||
      (callee.object.type === 'MemberExpression' && callee.object.property?.name === 'l10n'))
  );
}

/** The expression whose value the literal becomes (through ?:, ??, ||, parentheses, `as`). */
function valuePosition(node) {
  let child = node;
  let parent = node.parent;
  while (
    parent &&
    (parent.type === 'ConditionalExpression' ||
      parent.type === 'LogicalExpression' ||
      parent.type === 'TSAsExpression' ||
      parent.type === 'ChainExpression')
  ) {
    if (parent.type === 'ConditionalExpression' && parent.test === child) return { child, parent };
    child = parent;
    parent = parent.parent;
  }
  return { child, parent };
}

function uiSink(node) {
  const { child, parent } = valuePosition(node);
  if (!parent) return undefined;
  if (parent.type === 'CallExpression' && parent.arguments.includes(child)) {
    const name = calleeName(parent.callee);
    if (name && SHOW_CALLS.test(name)) return `${name}()`;
  }
  if (parent.type === 'NewExpression' && parent.arguments.includes(child)) {
    const name = calleeName(parent.callee);
    // An error class's first argument may be a code ('invalid-value'); its message has words.
    const words = name?.endsWith('Error') ? /\s/.test(text(node) ?? '') : true;
    if (name && UI_CLASSES.test(name) && parent.arguments[0] === child && words) return `new ${name}()`;
    if (name === 'Diagnostic' && parent.arguments[1] === child) return 'new Diagnostic()';
  }
  if (parent.type === 'Property' && parent.value === child && !parent.computed) {
    const key = parent.key.type === 'Identifier' ? parent.key.name : parent.key.value;
    if (UI_PROPS.has(key)) return `property ${key}`;
  }
  if (parent.type === 'AssignmentExpression' && parent.right === child) {
    const left = parent.left;
    if (left.type === 'MemberExpression' && !left.computed && UI_PROPS.has(left.property.name))
      return `.${left.property.name} =`;
  }
  return undefined;
}

function exempt(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'CallExpression' || p.type === 'TaggedTemplateExpression') {
      if (isL10nCall(p)) return true;
      if (p.type === 'CallExpression') {
        const name = calleeName(p.callee);
        const obj = p.callee.type === 'MemberExpression' ? p.callee.object : undefined;
        const objName = obj?.type === 'Identifier' ? obj.name : obj?.property?.name;
        if (name && LOG_CALLS.test(name) && objName && /log|channel|output|console|transport/i.test(objName))
          return true;
        if (name === 'require') return true;
      }
    }
    if (
      p.type === 'ImportDeclaration' ||
      p.type === 'ExportAllDeclaration' ||
      p.type === 'ExportNamedDeclaration' ||
      p.type === 'TSLiteralType' ||
      p.type === 'TSImportType' ||
      p.type === 'TSModuleDeclaration'
    )
      return p.type !== 'ExportNamedDeclaration' || p.source != null;
    if (p.type === 'Property' && p.key === node) return true;
  }
  return false;
}

export const l10nRule = {
  meta: {
    type: 'problem',
    docs: { description: 'user-facing strings go through l10n.t / vscode.l10n.t' },
    schema: [],
    messages: {
      ui: 'User-facing string ({{where}}) not localised: wrap it in {{fn}}(...).',
      prose: 'Prose not localised: wrap it in {{fn}}(...), or say in a disable comment why it is not UI.',
    },
  },
  create(context) {
    const fn =
      context.filename.includes('/src/vscode/') || context.filename.endsWith('extension.ts')
        ? 'vscode.l10n.t'
        : 'l10n.t';
    function check(node) {
      const value = text(node);
      if (value === undefined || !LETTERS.test(value)) return;
      if (node.parent?.type === 'TaggedTemplateExpression') {
        if (isL10nCall(node.parent)) return;
      }
      if (exempt(node)) return;
      const where = uiSink(node);
      if (where) context.report({ node, messageId: 'ui', data: { where, fn } });
      else if (PROSE.test(value)) context.report({ node, messageId: 'prose', data: { fn } });
    }
    return { Literal: check, TemplateLiteral: check };
  },
};
