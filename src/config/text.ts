/**
 * Files as lines that remember their own line ending, so an edit can rewrite a few lines and give
 * every other byte back unchanged: CRLF, LF and mixed files, a missing final newline, a UTF-8 BOM.
 * Lines we add use the file's dominant ending. Shared by the INI and SSH config editors.
 */

export type Eol = '\n' | '\r\n';

export interface Line {
  /** The line without its terminator (a lone `\r` inside a line stays part of the text). */
  text: string;
  /** '' only for a last line that has no terminator. */
  eol: Eol | '';
}

export interface Doc {
  bom: boolean;
  lines: Line[];
  /** The ending for lines we write: the more common one in the file, LF on a tie or for an empty file. */
  eol: Eol;
}

const BOM = '\uFEFF';

export function parseDoc(text: string): Doc {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: Line[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < body.length) {
    const nl = body.indexOf('\n', start);
    if (nl < 0) {
      lines.push({ text: body.slice(start), eol: '' });
      break;
    }
    const isCrlf = nl > start && body[nl - 1] === '\r';
    if (isCrlf) crlf++;
    else lf++;
    lines.push({ text: body.slice(start, isCrlf ? nl - 1 : nl), eol: isCrlf ? '\r\n' : '\n' });
    start = nl + 1;
  }
  return { bom, lines, eol: crlf > lf ? '\r\n' : '\n' };
}

export function renderDoc(doc: Doc): string {
  let out = doc.bom ? BOM : '';
  for (const line of doc.lines) out += line.text + line.eol;
  return out;
}

export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** New lines in the document's style. */
export function newLines(doc: Doc, texts: readonly string[]): Line[] {
  return texts.map((text) => ({ text, eol: doc.eol }));
}

/**
 * Append a block of lines at the end, after one blank separator line when the file is not empty.
 * The separator is added even after a blank last line, and a file without a final newline gets
 * one between its last line and the block but keeps ending without one, so that `removeLines`
 * with `dropSeparator` gives the file back byte for byte.
 */
export function appendBlock(doc: Doc, texts: readonly string[]): void {
  if (texts.length === 0) return;
  const last = doc.lines[doc.lines.length - 1];
  const missingFinal = last?.eol === '';
  if (last) {
    if (missingFinal) last.eol = doc.eol;
    doc.lines.push({ text: '', eol: doc.eol });
  }
  doc.lines.push(...newLines(doc, texts));
  if (missingFinal) doc.lines[doc.lines.length - 1].eol = '';
}

/**
 * Remove lines [start, end). When the range reaches the end of the file: with `dropSeparator`,
 * also remove one blank line just before it (the separator `appendBlock` adds), and if the removed
 * last line had no terminator, the new last line loses its terminator too.
 */
export function removeLines(doc: Doc, start: number, end: number, dropSeparator = false): void {
  const atEnd = end === doc.lines.length;
  const lastEol = atEnd && end > start ? doc.lines[end - 1].eol : undefined;
  if (atEnd && dropSeparator && start > 0 && isBlank(doc.lines[start - 1].text)) start--;
  doc.lines.splice(start, end - start);
  if (lastEol === '' && doc.lines.length > 0) doc.lines[doc.lines.length - 1].eol = '';
}

/** Reject text that would break a line-based config file: line breaks and other control characters. */
export function hasControlChars(value: string): boolean {
  return /[\u0000-\u0008\u000a-\u001f\u007f]/.test(value);
}
