/**
 * A command the service sends, read as a POSIX shell would split it into words, without a shell: quotes
 * and backslashes are honoured, and anything that only a shell gives a meaning to (`;`, `|`, `&`, `<`, `>`,
 * `(`, `)`, a backtick, `$`, a line break, a comment) makes the command one we refuse, since run without a
 * shell it could not mean what it says. Also how a command is shown to the user with runs of spaces, tabs
 * and line breaks made visible. Pure: no vscode.
 */

export type SplitResult =
  | { readonly ok: true; readonly words: readonly string[] }
  /** What a shell would have interpreted, as the user can read it (`;`, `$(`, a line break). */
  | { readonly ok: false; readonly operator: string };

const OPERATORS = new Set([';', '|', '&', '<', '>', '(', ')', '`', '$', '\n', '\r']);

/** The words of `command`, or the first thing in it that needs a shell. */
export function splitShellWords(command: string): SplitResult {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  const end = () => {
    if (inWord) words.push(cur);
    cur = '';
    inWord = false;
  };
  const refuse = (op: string): SplitResult => ({ ok: false, operator: op });
  while (i < command.length) {
    const ch = command[i];
    if (ch === ' ' || ch === '\t') {
      end();
      i++;
    } else if (ch === '#' && !inWord) {
      return refuse('#');
    } else if (OPERATORS.has(ch)) {
      return refuse(ch === '$' && command[i + 1] === '(' ? '$(' : ch);
    } else if (ch === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return refuse("'");
      cur += command.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (ch === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= command.length) return refuse('"');
        const c = command[i];
        if (c === '"') break;
        if (c === '$' || c === '`') return refuse(c === '$' && command[i + 1] === '(' ? '$(' : c);
        if (c === '\\' && i + 1 < command.length && '"\\$`\n'.includes(command[i + 1])) {
          if (command[i + 1] === '\n') return refuse('\n');
          cur += command[i + 1];
          i += 2;
          continue;
        }
        cur += c;
        i++;
      }
      i++;
    } else if (ch === '\\') {
      if (i + 1 >= command.length || command[i + 1] === '\n' || command[i + 1] === '\r') return refuse('\\');
      cur += command[i + 1];
      inWord = true;
      i += 2;
    } else {
      cur += ch;
      inWord = true;
      i++;
    }
  }
  end();
  return { ok: true, words };
}

/** Whitespace made visible in a text shown as it is (runs of spaces, tabs, line breaks). */
export function visibleWhitespace(text: string): string {
  return text
    .replace(/ {2,}/g, (m) => '\u2420'.repeat(m.length))
    .replace(/\t/g, '\u21e5')
    .replace(/\r?\n/g, '\u23ce');
}
