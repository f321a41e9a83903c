/**
 * Reads the tables inside a text answer (the `message` the official CLI prints verbatim): Markdown
 * pipe tables, ASCII `+---+` grids and Unicode box-drawing tables (light, heavy, double; the styles
 * Python's tabulate, prettytable and rich print), space-aligned columns and `key: value` blocks. A
 * two-column table of fields and their values (`Field | Value`, as an info command prints one record)
 * is read like `key: value` lines.
 * Pure and total: any input gives a (possibly empty) result; it never throws. No `vscode` import.
 */

export type TableStyle = 'pipe' | 'aligned' | 'keyValue';

/** One table as written: header cells and rows of cells (same length as the header). */
export interface TextTable {
  readonly style: TableStyle;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface TextTables {
  readonly tables: readonly TextTable[];
  /** Non-blank lines that belong to no table (titles, notes, prose). */
  readonly other: readonly string[];
}

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const VERTICAL = /[│┃║╎╏┆┇┊┋]/g;
/** Characters that make up border and separator lines (besides `|` and spaces). */
const BORDER_ONLY = /^[\s|+:\-=─━═┄┅┈┉╌╍┌┐└┘├┤┬┴┼┏┓┗┛┣┫┳┻╋┡┩╇╈┢┪╀╁╂╃╄╅╆╉╊╒╓╔╕╖╗╘╙╚╛╜╝╞╟╠╡╢╣╤╥╦╧╨╩╪╫╬╭╮╯╰]+$/;
const HORIZONTAL = /[-=─━═┄┅┈┉╌╍]/g;
const KEY_VALUE = /^\s*([\p{L}][\p{L}\p{N} _./()#'-]{0,40}?)\s*:\s+(\S.*)$/u;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Lines of a text answer: ANSI codes removed, CRLF/CR normalised, tabs expanded, right-trimmed. */
function textLines(text: string): string[] {
  return stripAnsi(text)
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''));
}

function isBorder(line: string): boolean {
  const t = line.trim();
  return t.length >= 3 && BORDER_ONLY.test(t) && (t.match(HORIZONTAL)?.length ?? 0) >= 3;
}

function isPipeRow(line: string): boolean {
  const t = line.replace(VERTICAL, '|').trim();
  return t.startsWith('|') || (t.includes('|') && !isKeyValue(line));
}

function isKeyValue(line: string): boolean {
  return KEY_VALUE.test(line) && !/^\s*\S+:\/\//.test(line);
}

function pipeCells(line: string): string[] {
  let t = line.replace(VERTICAL, '|').trim();
  if (t.startsWith('|')) t = t.slice(1);
  if (t.endsWith('|')) t = t.slice(0, -1);
  return t.split('|').map((c) => c.trim());
}

const splitAligned = (line: string): string[] =>
  line
    .trim()
    .split(/\s{2,}/)
    .filter((c) => c !== '');

/** Merge lines of one wrapped row cell by cell. */
function mergeLines(lines: string[][], width: number): string[] {
  const out = new Array<string>(width).fill('');
  for (const cells of lines) {
    for (let i = 0; i < width; i++) {
      const c = cells[i] ?? '';
      if (c) out[i] = out[i] ? `${out[i]} ${c}` : c;
    }
  }
  return out;
}

/** Rows whose first cell is empty continue the row above (cells wrapped without separators). */
function joinContinuations(rows: string[][], width: number): string[][] {
  const out: string[][] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last && r[0] === '' && r.some((c) => c !== '')) out[out.length - 1] = mergeLines([last, r], width);
    else out.push(r);
  }
  return out;
}

function fit(cells: string[], width: number): string[] {
  if (cells.length === width) return cells;
  if (cells.length > width) return [...cells.slice(0, width - 1), cells.slice(width - 1).join(' | ')];
  return [...cells, ...new Array<string>(width - cells.length).fill('')];
}

/** A pipe, grid or box table: groups of row lines between border lines. */
function readPipeBlock(block: string[]): TextTable | undefined {
  const groups: string[][][] = [];
  let current: string[][] = [];
  for (const line of block) {
    if (isBorder(line)) {
      if (current.length) groups.push(current);
      current = [];
    } else current.push(pipeCells(line));
  }
  if (current.length) groups.push(current);
  if (groups.length === 0) return undefined;
  const headerLines = groups[0];
  const width = Math.max(...headerLines.map((c) => c.length));
  if (width < 1) return undefined;
  const headers = mergeLines(headerLines, width);
  const body = groups.slice(1);
  let rows: string[][];
  if (body.length > 1)
    rows = body.map((g) =>
      mergeLines(
        g.map((c) => fit(c, width)),
        width,
      ),
    );
  else
    rows = joinContinuations(
      (body[0] ?? []).map((c) => fit(c, width)),
      width,
    );
  rows = rows.filter((r) => r.some((c) => c !== ''));
  return { style: 'pipe', headers, rows };
}

/** Column start positions: from a dashed underline (`----  ----`) or from the header's cells. */
function columnStarts(header: string, underline: string | undefined): number[] {
  const starts: number[] = [];
  const source = underline ?? header;
  const re = underline ? /[-=─━]+/g : /\S+(?: \S+)*/g;
  for (let m = re.exec(source); m; m = re.exec(source)) starts.push(m.index);
  return starts;
}

/** Cut a line at column starts, moving each cut to the nearest space so overflowing cells stay whole. */
function sliceAt(line: string, starts: number[]): string[] {
  const cuts = starts.map((s, i) => {
    if (i === 0) return 0;
    let p = s;
    while (p > 0 && p < line.length && line[p - 1] !== ' ') p++;
    return p;
  });
  return cuts.map((c, i) => line.slice(c, i + 1 < cuts.length ? cuts[i + 1] : undefined).trim());
}

function readAlignedBlock(block: string[]): TextTable | undefined {
  const underline = block.length > 1 && isBorder(block[1]) ? block[1] : undefined;
  const header = block[0];
  let starts = columnStarts(header, underline);
  if (underline && starts.length < 2) starts = columnStarts(header, undefined);
  if (starts.length < 2) return undefined;
  const headers =
    splitAligned(header).length === starts.length ? splitAligned(header) : sliceAt(header, starts);
  if (headers.length !== starts.length) return undefined;
  const width = headers.length;
  const lines = block.slice(underline ? 2 : 1).filter((l) => !isBorder(l));
  const rows = lines.map((line) => {
    const cells = splitAligned(line);
    return cells.length === width ? cells : sliceAt(line, starts);
  });
  return { style: 'aligned', headers, rows: joinContinuations(rows, width) };
}

/** `key: value` lines; a repeated key starts the next record. */
function readKeyValueBlock(block: string[]): TextTable[] {
  const out: TextTable[] = [];
  let keys: string[] = [];
  let values: string[] = [];
  const flush = () => {
    if (keys.length) out.push({ style: 'keyValue', headers: keys, rows: [values] });
    keys = [];
    values = [];
  };
  for (const line of block) {
    const m = KEY_VALUE.exec(line);
    if (!m) continue;
    const key = m[1].trim();
    if (keys.some((k) => k.toLowerCase() === key.toLowerCase())) flush();
    keys.push(key);
    values.push(m[2].trim());
  }
  flush();
  return out;
}

/** Headers of a two-column table that lists one record's fields down its rows. */
const FIELD_HEADER = /^(field|key|property|attribute|setting|name|item)s?$/i;
const VALUE_HEADER = /^(value|values|details?)$/i;

/** A `Field | Value` table as the `key: value` records it stands for (a repeated field starts the next). */
function fieldValueTables(t: TextTable): TextTable[] {
  if (t.headers.length !== 2 || !FIELD_HEADER.test(t.headers[0]) || !VALUE_HEADER.test(t.headers[1]))
    return [t];
  const lines = t.rows.filter((r) => r[0] !== '').map((r) => `${r[0]}: ${r[1] || '-'}`);
  return readKeyValueBlock(lines.filter((l) => KEY_VALUE.test(l)));
}

/** Every table in a text answer, in order. */
export function readTextTables(text: unknown): TextTables {
  if (typeof text !== 'string' || text.trim() === '') return { tables: [], other: [] };
  const lines = textLines(text);
  const tables: TextTable[] = [];
  const other: string[] = [];
  let i = 0;
  const take = (accept: (line: string) => boolean): string[] => {
    const block: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && accept(lines[i])) block.push(lines[i++]);
    return block;
  };
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    const start = i;
    let read: TextTable[] = [];
    if (isBorder(line) || isPipeRow(line)) {
      const block = take((l) => isBorder(l) || isPipeRow(l));
      const hasBorder = block.some(isBorder);
      const t = hasBorder ? readPipeBlock(block) : undefined;
      if (t) read = [t];
    } else if (isKeyValue(line)) {
      read = readKeyValueBlock(take(isKeyValue));
    } else if (splitAligned(line).length >= 2) {
      const block = take((l) => !isKeyValue(l) || l === line);
      const t = block.length ? readAlignedBlock(block) : undefined;
      if (t) read = [t];
    }
    if (read.length) tables.push(...read.flatMap(fieldValueTables));
    else {
      if (i === start) i++;
      for (const l of lines.slice(start, i)) if (l.trim()) other.push(l.trim());
    }
  }
  return { tables, other };
}
