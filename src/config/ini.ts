/**
 * A section-preserving INI editor for the files other tools own (~/.aws/credentials,
 * ~/.aws/config, rclone.conf). It edits one section, ours, and gives every other byte back as it
 * was: other sections (even duplicated ones), comments with `#` or `;`, blank lines, odd spacing,
 * tabs, CRLF, a missing final newline, a BOM. Inside our section it rewrites only the key lines it
 * owns, keeping the user's spacing (`key=value` stays that way) and any keys the user added.
 *
 * Two dialects, because the readers differ:
 *  - configparser (the AWS CLI / botocore): a line indented deeper than a key line continues that
 *    key's value, and `s3 =` followed by indented `addressing_style = path` lines is a nested
 *    value. We address nested keys as `s3.addressing_style`. Option names are case-insensitive.
 *  - flat (rclone): no continuation lines.
 * Both accept `=` or `:` as the delimiter (the first one on the line wins) and full-line comments
 * only (`key = a # b` has the value `a # b`).
 */
import { ConfigError } from './errors';
import {
  appendBlock,
  hasControlChars,
  isBlank,
  parseDoc,
  removeLines,
  renderDoc,
  type Doc,
  type Line,
} from './text';

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

export interface KeyChange {
  readonly key: string;
  readonly kind: 'added' | 'changed' | 'unchanged';
  /** The value in the file before; undefined for added keys. */
  readonly before?: string;
  readonly after: string;
}

export interface SectionEdit {
  readonly text: string;
  /** 'created' when we appended the section, 'updated' when it existed. */
  readonly section: 'created' | 'updated';
  /** The header line as it was, when we normalised it (`[ tp ]` → `[tp]`). */
  readonly headerWas?: string;
  readonly changes: readonly KeyChange[];
  /** Keys we removed because they appeared twice (the readers refuse or ignore the second one). */
  readonly duplicatesRemoved: readonly string[];
  /** Keys in our section that we do not own and kept: the user's additions. */
  readonly keptKeys: readonly string[];
  /** Keys removed because they would spoil ours (`aws_session_token` next to long-term keys). */
  readonly dropped: readonly string[];
}

export interface UpsertOptions {
  /** Keys to delete from our section when present: they would change the meaning of ours. */
  readonly dropKeys?: readonly string[];
}

export interface SectionRemoval {
  readonly text: string;
  /** 'section' when the whole section went, 'keys' when user keys kept it alive, 'nothing' when absent. */
  readonly removed: 'section' | 'keys' | 'nothing';
  readonly keptKeys: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Parsing

interface KeyLine {
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

interface Section {
  readonly name: string;
  readonly header: number;
  /** Exclusive: the next header or the end of the file. */
  end: number;
  readonly keys: KeyLine[];
}

interface Parsed {
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

function parse(text: string, dialect: IniDialect): Parsed {
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

function findOurs(sections: readonly Section[], ref: SectionRef): Section | undefined {
  const ours = sections.filter((s) => ref.matches(s.name));
  if (ours.length > 1) {
    throw new ConfigError(
      'duplicate-section',
      `there are ${ours.length} [${ref.header}] sections (lines ${ours.map((s) => s.header + 1).join(', ')}); ` +
        'merge them into one or delete the extra ones, then try again.',
    );
  }
  return ours[0];
}

function valueOf(doc: Doc, k: KeyLine): string {
  return doc.lines[k.line].text.slice(k.valueStart).trim();
}

/** The `sub = value` lines inside a nested value, as key lines (indent and offsets in their own line). */
function subKeys(doc: Doc, parent: KeyLine): KeyLine[] {
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

// ---------------------------------------------------------------------------------------------
// Validation and rendering of our entries

const KEY = /^[A-Za-z0-9_-]+$/;

/** A name as messages may show it: no control characters, bounded. */
function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '?').slice(0, 60);
}

interface Grouped {
  /** In the caller's order; a nested group sits where its first sub-key was. */
  readonly items: Array<
    { key: string; value: string } | { key: string; subs: Array<{ key: string; value: string }> }
  >;
}

function validateEntries(entries: readonly IniEntry[], dialect: IniDialect): Grouped {
  if (entries.length === 0) throw new ConfigError('invalid-value', 'there are no values to write.');
  const items: Grouped['items'] = [];
  const seen = new Set<string>();
  for (const { key, value } of entries) {
    const parts = key.split('.');
    if (parts.length > 2 || !parts.every((p) => KEY.test(p))) {
      throw new ConfigError(
        'invalid-value',
        `"${printable(key)}" is not a usable key name (letters, digits, _ and - only, at most one "." for a nested key).`,
      );
    }
    if (parts.length === 2 && !dialect.continuation) {
      throw new ConfigError(
        'invalid-value',
        `the nested key "${key}" cannot be written to a file without nested values.`,
      );
    }
    const lower = key.toLowerCase();
    if (seen.has(lower)) throw new ConfigError('invalid-value', `the key "${key}" is given twice.`);
    seen.add(lower);
    // Never echo the value: it may be a secret.
    if (value === '' || value !== value.trim())
      throw new ConfigError(
        'invalid-value',
        `the value for "${key}" is empty or starts or ends with spaces.`,
      );
    if (hasControlChars(value))
      throw new ConfigError(
        'invalid-value',
        `the value for "${key}" contains a line break or another control character.`,
      );
    if (parts.length === 1) {
      if (items.some((it) => 'subs' in it && it.key.toLowerCase() === lower)) {
        throw new ConfigError('invalid-value', `"${key}" is given both as a value and as a nested section.`);
      }
      items.push({ key, value });
    } else {
      const parentLower = parts[0].toLowerCase();
      if (items.some((it) => 'value' in it && it.key.toLowerCase() === parentLower)) {
        throw new ConfigError(
          'invalid-value',
          `"${parts[0]}" is given both as a value and as a nested section.`,
        );
      }
      let group = items.find(
        (it): it is { key: string; subs: Array<{ key: string; value: string }> } =>
          'subs' in it && it.key.toLowerCase() === parentLower,
      );
      if (!group) items.push((group = { key: parts[0], subs: [] }));
      group.subs.push({ key: parts[1], value });
    }
  }
  return { items };
}

const NESTED_INDENT = '    ';

function renderItem(item: Grouped['items'][number]): string[] {
  if ('value' in item) return [`${item.key} = ${item.value}`];
  return [`${item.key} =`, ...item.subs.map((s) => `${NESTED_INDENT}${s.key} = ${s.value}`)];
}

// ---------------------------------------------------------------------------------------------
// Line-level plan, applied in one pass so indices stay valid

class Plan {
  private readonly replaced = new Map<number, string>();
  private readonly deleted = new Set<number>();
  private readonly inserted = new Map<number, string[]>();

  constructor(private readonly doc: Doc) {}

  replace(line: number, text: string): void {
    this.replaced.set(line, text);
  }

  delete(from: number, to: number): void {
    for (let i = from; i <= to; i++) this.deleted.add(i);
  }

  insertAfter(line: number, texts: readonly string[]): void {
    if (texts.length) this.inserted.set(line, [...(this.inserted.get(line) ?? []), ...texts]);
  }

  /** New lines take the file's ending; a missing final newline stays missing. */
  apply(): void {
    const { doc } = this;
    const missingFinal = doc.lines.length > 0 && doc.lines[doc.lines.length - 1].eol === '';
    const out: Line[] = [];
    doc.lines.forEach((line, i) => {
      if (!this.deleted.has(i)) out.push({ text: this.replaced.get(i) ?? line.text, eol: line.eol });
      for (const text of this.inserted.get(i) ?? []) out.push({ text, eol: doc.eol });
    });
    for (const line of out) if (line.eol === '') line.eol = doc.eol;
    if (missingFinal && out.length) out[out.length - 1].eol = '';
    doc.lines = out;
  }
}

/** Replace the value of `k` keeping the user's spacing; a `key =` with no value gets one space. */
function withValue(doc: Doc, k: KeyLine, value: string): string {
  const text = doc.lines[k.line].text;
  if (k.valueStart < text.length) return text.slice(0, k.valueStart) + value;
  const prefix = text.slice(0, k.delimiter + 1);
  return `${prefix}${/\s/.test(text[k.delimiter - 1] ?? '') ? ' ' : ''}${value}`;
}

// ---------------------------------------------------------------------------------------------
// Public operations

/** Our section's entries (nested values flattened to `parent.sub`), or undefined when absent. */
export function readSection(text: string, ref: SectionRef, dialect: IniDialect): IniEntry[] | undefined {
  const { doc, sections } = parse(text, dialect);
  const ours = findOurs(sections, ref);
  if (!ours) return undefined;
  const entries: IniEntry[] = [];
  for (const k of ours.keys) {
    const value = valueOf(doc, k);
    if (value === '' && k.last > k.line) {
      for (const s of subKeys(doc, k)) entries.push({ key: `${k.name}.${s.name}`, value: valueOf(doc, s) });
    } else {
      entries.push({ key: k.name, value });
    }
  }
  return entries;
}

/**
 * Write our entries into our section: create it at the end of the file, or update it in place
 * (values replaced on their own lines, missing keys added after the section's last key, second
 * occurrences of our keys removed, the header normalised, everything else kept).
 */
type Item = Grouped['items'][number];
type ValueItem = Extract<Item, { value: string }>;
type NestedItem = Extract<Item, { subs: unknown }>;

/** What an in-place update collects while it plans line edits. */
interface Update {
  readonly doc: Doc;
  readonly plan: Plan;
  readonly changes: KeyChange[];
  readonly duplicatesRemoved: string[];
}

function addedChanges(item: Item): KeyChange[] {
  return 'value' in item
    ? [{ key: item.key, kind: 'added', after: item.value }]
    : item.subs.map((s) => ({ key: `${item.key}.${s.key}`, kind: 'added' as const, after: s.value }));
}

/** A plain value: rewrite its line unless it already says this (a multi-line value is replaced whole). */
function updateValue(u: Update, first: KeyLine, item: ValueItem): void {
  const before = valueOf(u.doc, first);
  if (before === item.value && first.last === first.line) {
    u.changes.push({ key: item.key, kind: 'unchanged', before, after: item.value });
    return;
  }
  u.plan.replace(first.line, withValue(u.doc, first, item.value));
  if (first.last > first.line) u.plan.delete(first.line + 1, first.last);
  u.changes.push({ key: item.key, kind: 'changed', before, after: item.value });
}

/** A nested value (`s3 =` + indented lines): our sub-keys replaced or added, the user's kept. */
function updateNested(u: Update, first: KeyLine, item: NestedItem): void {
  const { doc, plan } = u;
  const before = valueOf(doc, first);
  if (before !== '') {
    // `s3 = something` on one line is not a nested section; ours replaces it.
    plan.replace(first.line, doc.lines[first.line].text.slice(0, first.delimiter + 1));
    if (first.last > first.line) plan.delete(first.line + 1, first.last);
    plan.insertAfter(first.last, renderItem(item).slice(1));
    for (const s of item.subs)
      u.changes.push({ key: `${item.key}.${s.key}`, kind: 'changed', before, after: s.value });
    return;
  }
  const subs = subKeys(doc, first);
  const indent = subs[0]
    ? doc.lines[subs[0].line].text.slice(0, subs[0].indent)
    : ' '.repeat(first.indent) + NESTED_INDENT;
  const added: string[] = [];
  for (const s of item.subs) {
    const key = `${item.key}.${s.key}`;
    const [hit, ...dups] = subs.filter((k) => k.key === s.key.toLowerCase());
    for (const dup of dups) {
      plan.delete(dup.line, dup.line);
      u.duplicatesRemoved.push(key);
    }
    if (!hit) {
      added.push(`${indent}${s.key} = ${s.value}`);
      u.changes.push({ key, kind: 'added', after: s.value });
      continue;
    }
    const old = valueOf(doc, hit);
    if (old !== s.value) plan.replace(hit.line, withValue(doc, hit, s.value));
    u.changes.push({ key, kind: old === s.value ? 'unchanged' : 'changed', before: old, after: s.value });
  }
  plan.insertAfter(first.last, added);
}

/**
 * Write our entries into our section: create it at the end of the file, or update it in place
 * (values replaced on their own lines, missing keys added after the section's last key, second
 * occurrences of our keys removed, the header normalised, everything else kept).
 */
export function upsertSection(
  text: string,
  ref: SectionRef,
  entries: readonly IniEntry[],
  dialect: IniDialect,
  opts: UpsertOptions = {},
): SectionEdit {
  const { items } = validateEntries(entries, dialect);
  const { doc, sections } = parse(text, dialect);
  const ours = findOurs(sections, ref);
  if (!ours) {
    appendBlock(doc, [`[${ref.header}]`, ...items.flatMap(renderItem)]);
    return {
      text: renderDoc(doc),
      section: 'created',
      changes: items.flatMap(addedChanges),
      duplicatesRemoved: [],
      keptKeys: [],
      dropped: [],
    };
  }

  const u: Update = { doc, plan: new Plan(doc), changes: [], duplicatesRemoved: [] };
  const headerLine = doc.lines[ours.header].text;
  const headerWas = headerLine === `[${ref.header}]` ? undefined : headerLine.trim();
  if (headerWas !== undefined) u.plan.replace(ours.header, `[${ref.header}]`);

  const missing: string[] = [];
  for (const item of items) {
    const [first, ...dups] = ours.keys.filter((k) => k.key === item.key.toLowerCase());
    for (const dup of dups) {
      u.plan.delete(dup.line, dup.last);
      u.duplicatesRemoved.push(item.key);
    }
    if (!first) {
      missing.push(...renderItem(item));
      u.changes.push(...addedChanges(item));
    } else if ('value' in item) {
      updateValue(u, first, item);
    } else {
      updateNested(u, first, item);
    }
  }
  const lastKeyLine = ours.keys.reduce((last, k) => Math.max(last, k.last), ours.header);
  u.plan.insertAfter(lastKeyLine, missing);

  const owned = new Set(items.map((it) => it.key.toLowerCase()));
  const drop = new Set((opts.dropKeys ?? []).map((k) => k.toLowerCase()));
  const others = ours.keys.filter((k) => !owned.has(k.key));
  for (const k of others.filter((k) => drop.has(k.key))) u.plan.delete(k.line, k.last);
  u.plan.apply();
  return {
    text: renderDoc(doc),
    section: 'updated',
    headerWas,
    changes: u.changes,
    duplicatesRemoved: u.duplicatesRemoved,
    keptKeys: unique(others.filter((k) => !drop.has(k.key)).map((k) => k.name)),
    dropped: unique(others.filter((k) => drop.has(k.key)).map((k) => k.name)),
  };
}

function unique(keys: string[]): string[] {
  return [...new Set(keys)];
}

/**
 * Remove the keys we own from our section, and the section itself when nothing else is left in it
 * (from its header to its last key line; comments after that are kept, as they usually introduce
 * the next section). A section at the end of the file also takes the blank separator line before
 * it, so removing a section we appended gives the file back.
 */
export function removeSection(
  text: string,
  ref: SectionRef,
  ownedKeys: readonly string[],
  dialect: IniDialect,
): SectionRemoval {
  const { doc, sections } = parse(text, dialect);
  const ours = findOurs(sections, ref);
  if (!ours) return { text, removed: 'nothing', keptKeys: [] };
  const owned = new Set(ownedKeys.filter((k) => !k.includes('.')).map((k) => k.toLowerCase()));
  const ownedSubs = new Map<string, Set<string>>();
  for (const k of ownedKeys.filter((k) => k.includes('.'))) {
    const [parent, sub] = k.toLowerCase().split('.');
    ownedSubs.set(parent, (ownedSubs.get(parent) ?? new Set()).add(sub));
  }

  const plan = new Plan(doc);
  const kept: string[] = [];
  for (const k of ours.keys) {
    if (owned.has(k.key)) {
      plan.delete(k.line, k.last);
      continue;
    }
    const subsOwned = ownedSubs.get(k.key);
    if (!subsOwned || valueOf(doc, k) !== '') {
      kept.push(k.name);
      continue;
    }
    const subs = subKeys(doc, k);
    const mine = subs.filter((s) => subsOwned.has(s.key));
    if (mine.length === subs.length) {
      plan.delete(k.line, k.last);
    } else {
      for (const s of mine) plan.delete(s.line, s.line);
      kept.push(k.name);
    }
  }
  if (kept.length > 0) {
    plan.apply();
    return { text: renderDoc(doc), removed: 'keys', keptKeys: unique(kept) };
  }
  const lastKeyLine = ours.keys.reduce((last, k) => Math.max(last, k.last), ours.header);
  removeLines(doc, ours.header, lastKeyLine + 1, true);
  return { text: renderDoc(doc), removed: 'section', keptKeys: [] };
}
