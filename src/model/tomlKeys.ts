/**
 * Where each top-level key of a TOML document is written (the parser gives values, not positions):
 * `key = value` and `key.sub = value` lines before the first table header, and the first segment of
 * `[key]` / `[[key]]` headers. A small line scanner that skips what cannot hold a key: comments,
 * multi-line strings and arrays or inline tables spanning lines. Only used on text that parsed, so it
 * need not diagnose anything. Positions are 0-based (line, UTF-16 column). No `vscode` import.
 */

export interface TextPosition {
  readonly line: number;
  readonly character: number;
}

export interface TextRange {
  readonly start: TextPosition;
  readonly end: TextPosition;
}

export interface KeyLocation {
  /** The key as written (first segment of a dotted key or a header). */
  readonly keyRange: TextRange;
  /** From the value's first character to the end of that line (without a trailing comment); for a
   *  dotted key or a table header, the whole line. */
  readonly valueRange: TextRange;
}

const BARE = /^[A-Za-z0-9_-]+/;

/** The first key segment at `text[from]`: its name and where it ends, or undefined. */
function readKey(text: string, from: number): { name: string; end: number } | undefined {
  const rest = text.slice(from);
  const bare = BARE.exec(rest);
  if (bare) return { name: bare[0], end: from + bare[0].length };
  if (rest.startsWith("'")) {
    const close = rest.indexOf("'", 1);
    return close > 0 ? { name: rest.slice(1, close), end: from + close + 1 } : undefined;
  }
  if (rest.startsWith('"')) {
    const m = /^"(?:[^"\\]|\\.)*"/.exec(rest);
    if (!m) return undefined;
    let name: string;
    try {
      name = JSON.parse(m[0]) as string;
    } catch {
      name = m[0].slice(1, -1);
    }
    return { name, end: from + m[0].length };
  }
  return undefined;
}

/** Scanner state carried from one line to the next. */
interface State {
  /** Inside a multi-line string opened by this delimiter. */
  multiline?: '"""' | "'''";
  /** Open brackets/braces of a value that spans lines. */
  depth: number;
}

/** Advance the state over `line` from `from`; returns the index where a comment starts (or the line's length). */
function scan(line: string, from: number, state: State): number {
  let i = from;
  while (i < line.length) {
    if (state.multiline) {
      const close = line.indexOf(state.multiline, i);
      if (close < 0) return line.length;
      // A run of up to two extra quotes before the delimiter belongs to the string.
      let end = close + 3;
      while (line[end] === state.multiline[0] && end - close < 5) end++;
      state.multiline = undefined;
      i = end;
      continue;
    }
    const c = line[i];
    if (c === '#') return i;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      state.multiline = line.slice(i, i + 3) as '"""' | "'''";
      i += 3;
    } else if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"?/.exec(line.slice(i));
      i += m ? m[0].length : 1;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      i = close < 0 ? line.length : close + 1;
    } else {
      if (c === '[' || c === '{') state.depth++;
      else if ((c === ']' || c === '}') && state.depth > 0) state.depth--;
      i++;
    }
  }
  return line.length;
}

/** The top-level keys of `text` with where they are written (the first place each is named). */
export function locateTopLevelKeys(text: string): Map<string, KeyLocation> {
  const found = new Map<string, KeyLocation>();
  /** The key whose value is still open (spans lines): its range ends where the value closes. */
  let open: string | undefined;
  const lines = text.split(/\r?\n/);
  const state: State = { depth: 0 };
  let inTable = false;
  const add = (
    name: string,
    line: number,
    start: number,
    end: number,
    valueFrom: number,
    valueTo: number,
  ) => {
    if (found.has(name)) return;
    found.set(name, {
      keyRange: { start: { line, character: start }, end: { line, character: end } },
      valueRange: { start: { line, character: valueFrom }, end: { line, character: valueTo } },
    });
  };
  lines.forEach((line, n) => {
    if (state.multiline || state.depth > 0) {
      const commentAt = scan(line, 0, state);
      const name = open;
      const at = name === undefined ? undefined : found.get(name);
      if (name !== undefined && at && !state.multiline && state.depth === 0) {
        const end = { line: n, character: line.slice(0, commentAt).trimEnd().length };
        found.set(name, { ...at, valueRange: { start: at.valueRange.start, end } });
        open = undefined;
      }
      return;
    }
    open = undefined;
    const indent = line.length - line.trimStart().length;
    const header = /^\[\[?\s*/.exec(line.slice(indent));
    if (header) {
      inTable = true;
      const from = indent + header[0].length;
      const key = readKey(line, from);
      if (key) add(key.name, n, from, key.end, indent, line.trimEnd().length);
      return;
    }
    const key = inTable ? undefined : readKey(line, indent);
    if (!key) {
      scan(line, indent, state);
      return;
    }
    const after = /^\s*([.=])\s*/.exec(line.slice(key.end));
    if (!after) return;
    const valueFrom = key.end + after[0].length;
    const commentAt = scan(line, after[1] === '=' ? valueFrom : key.end, state);
    const valueTo = Math.max(valueFrom, line.slice(0, commentAt).trimEnd().length);
    const first = !found.has(key.name);
    if (after[1] === '.') add(key.name, n, indent, key.end, indent, valueTo);
    else add(key.name, n, indent, key.end, valueFrom, valueTo);
    if (first && (state.multiline || state.depth > 0)) open = key.name;
  });
  return found;
}
