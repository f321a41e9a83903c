/**
 * Line edits inside our section, planned first and applied in one pass so line indices stay valid:
 * a value replaced keeping the user's spacing, a nested value's sub-keys replaced or added, second
 * occurrences removed. Every planned edit is also recorded as a KeyChange for the preview.
 */
import { NESTED_INDENT, renderItem, type Grouped } from './iniEntries';
import { subKeys, valueOf, type KeyLine } from './iniParse';
import type { Doc, Line } from './text';

export interface KeyChange {
  readonly key: string;
  readonly kind: 'added' | 'changed' | 'unchanged';
  /** The value in the file before; undefined for added keys. */
  readonly before?: string;
  readonly after: string;
}

export class Plan {
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

type Item = Grouped['items'][number];
type ValueItem = Extract<Item, { value: string }>;
type NestedItem = Extract<Item, { subs: unknown }>;

/** What an in-place update collects while it plans line edits. */
export interface Update {
  readonly doc: Doc;
  readonly plan: Plan;
  readonly changes: KeyChange[];
  readonly duplicatesRemoved: string[];
}

export function addedChanges(item: Item): KeyChange[] {
  return 'value' in item
    ? [{ key: item.key, kind: 'added', after: item.value }]
    : item.subs.map((s) => ({ key: `${item.key}.${s.key}`, kind: 'added' as const, after: s.value }));
}

/** A plain value: rewrite its line unless it already says this (a multi-line value is replaced whole). */
export function updateValue(u: Update, first: KeyLine, item: ValueItem): void {
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
export function updateNested(u: Update, first: KeyLine, item: NestedItem): void {
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
