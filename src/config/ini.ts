/**
 * A section-preserving INI editor for the files other tools own (~/.aws/credentials,
 * ~/.aws/config, rclone.conf). It edits one section, ours, and gives every other byte back as it
 * was: other sections (even duplicated ones), comments with `#` or `;`, blank lines, odd spacing,
 * tabs, CRLF, a missing final newline, a BOM. Inside our section it rewrites only the key lines it
 * owns, keeping the user's spacing (`key=value` stays that way) and any keys the user added.
 *
 * This module is the editor's public face (read, upsert, remove our section); the parts are
 * iniParse.ts (reading, the two dialects), iniEntries.ts (our entries checked and rendered) and
 * iniPlan.ts (the line edits inside our section).
 */
import { renderItem, validateEntries } from './iniEntries';
import {
  findOurs,
  parse,
  subKeys,
  valueOf,
  type IniDialect,
  type IniEntry,
  type SectionRef,
} from './iniParse';
import { addedChanges, Plan, updateNested, updateValue, type KeyChange, type Update } from './iniPlan';
import { appendBlock, removeLines, renderDoc } from './text';

export { CONFIGPARSER_DIALECT, FLAT_DIALECT } from './iniParse';
export type { IniDialect, IniEntry, SectionRef } from './iniParse';
export type { KeyChange } from './iniPlan';

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
