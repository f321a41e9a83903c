/**
 * Reading an INI file the way its readers do: sections by header, key lines (`=` or `:`, the first
 * one on the line wins), full-line comments only (`key = a # b` has the value `a # b`), and in the
 * configparser dialect continuation lines and nested values. Positions are kept (line numbers,
 * where a value starts) so an edit can rewrite single lines and leave every other byte alone.
 *
 * Two dialects, because the readers differ:
 *  - configparser (the AWS CLI / botocore): a line indented deeper than a key line continues that
 *    key's value, and `s3 =` followed by indented `addressing_style = path` lines is a nested
 *    value. We address nested keys as `s3.addressing_style`. Option names are case-insensitive.
 *  - flat (rclone): no continuation lines.
 */
import * as l10n from '@vscode/l10n';
import { ConfigError } from './errors';
import { isBlank, parseDoc, type Doc } from './text';

export interface IniDialect {
  /** Whether deeper-indented lines continue the previous key's value (configparser). */
  readonly continuation: boolean;
}

export const CONFIGPARSER_DIALECT: IniDialect = { continuation: true };
export const FLAT_DIALECT: IniDialect = { continuation: false };

export interface SectionRef {
  /** The header we write, without brackets: `tp`, `profile tp`. */
  readonly header: string;
  /** Whether a header (trimmed, without brackets) names our section. */
  matches(name: string): boolean;
}

/** One key/value. `parent.sub` addresses a nested value (configparser dialect only). */
export interface IniEntry {
  readonly key: string;
  readonly value: string;
}

export interface KeyLine {
  /** Lower-cased, trimmed: what the readers compare. */
  readonly key: string;
  /** As written, for messages. */
  readonly name: string;
  readonly line: number;
  /** Last line of the value: `line` itself unless continuation lines follow. */
  last: number;
  readonly indent: number;
  /** Offset in the line text where the value starts (after the delimiter and its spacing). */
  readonly valueStart: number;
  readonly delimiter: number;
}

export interface Section {
  readonly name: string;
  readonly header: number;
  /** Exclusive: the next header or the end of the file. */
  end: number;
  readonly keys: KeyLine[];
}

export interface Parsed {
  readonly doc: Doc;
  readonly sections: Section[];
}

const HEADER = /^\s*\[(.+)\]/;

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

function isComment(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('#') || t.startsWith(';');
}

function keyLine(text: string, line: number): KeyLine | undefined {
  const delimiter = text.search(/[=:]/);
  if (delimiter <= 0) return undefined;
  const key = text.slice(0, delimiter).trim();
  if (!key) return undefined;
  let valueStart = delimiter + 1;
  while (valueStart < text.length && (text[valueStart] === ' ' || text[valueStart] === '\t')) valueStart++;
  return {
    key: key.toLowerCase(),
    name: key,
    line,
    last: line,
    indent: indentOf(text),
    valueStart,
    delimiter,
  };
}

export function parse(text: string, dialect: IniDialect): Parsed {
  const doc = parseDoc(text);
  const sections: Section[] = [];
  let current: Section | undefined;
  let lastKey: KeyLine | undefined;
  doc.lines.forEach(({ text: t }, i) => {
    if (isBlank(t) || isComment(t)) return;
    if (dialect.continuation && lastKey && indentOf(t) > lastKey.indent) {
      lastKey.last = i;
      return;
    }
    const header = HEADER.exec(t);
    if (header) {
      if (current) current.end = i;
      current = { name: header[1].trim(), header: i, end: doc.lines.length, keys: [] };
      sections.push(current);
      lastKey = undefined;
      return;
    }
    lastKey = keyLine(t, i);
    if (lastKey && current) current.keys.push(lastKey);
  });
  return { doc, sections };
}

export function findOurs(sections: readonly Section[], ref: SectionRef): Section | undefined {
  const ours = sections.filter((s) => ref.matches(s.name));
  if (ours.length > 1) {
    throw new ConfigError(
      'duplicate-section',
      l10n.t(
        'there are {0} [{1}] sections (lines {2}); merge them into one or delete the extra ones, then try again.',
        ours.length,
        ref.header,
        ours.map((s) => s.header + 1).join(', '),
      ),
    );
  }
  return ours[0];
}

export function valueOf(doc: Doc, k: KeyLine): string {
  return doc.lines[k.line].text.slice(k.valueStart).trim();
}

/** The `sub = value` lines inside a nested value, as key lines (indent and offsets in their own line). */
export function subKeys(doc: Doc, parent: KeyLine): KeyLine[] {
  const subs: KeyLine[] = [];
  for (let i = parent.line + 1; i <= parent.last; i++) {
    const t = doc.lines[i].text;
    if (isBlank(t) || isComment(t)) continue;
    // botocore splits nested lines on '=' only.
    const eq = t.indexOf('=');
    const key = eq > 0 ? t.slice(0, eq).trim() : '';
    if (!key) continue;
    let valueStart = eq + 1;
    while (valueStart < t.length && (t[valueStart] === ' ' || t[valueStart] === '\t')) valueStart++;
    subs.push({
      key: key.toLowerCase(),
      name: key,
      line: i,
      last: i,
      indent: indentOf(t),
      valueStart,
      delimiter: eq,
    });
  }
  return subs;
}
