/**
 * Our entries before they are written: key names and values checked (never echoing a value, it may
 * be a secret), `parent.sub` keys grouped into nested values, and each item rendered as lines.
 */
import * as l10n from '@vscode/l10n';
import { ConfigError } from './errors';
import type { IniDialect, IniEntry } from './iniParse';
import { hasControlChars } from './text';

const KEY = /^[A-Za-z0-9_-]+$/;

/** A name as messages may show it: no control characters, bounded. */
function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '?').slice(0, 60);
}

export interface Grouped {
  /** In the caller's order; a nested group sits where its first sub-key was. */
  readonly items: Array<
    { key: string; value: string } | { key: string; subs: Array<{ key: string; value: string }> }
  >;
}

export function validateEntries(entries: readonly IniEntry[], dialect: IniDialect): Grouped {
  if (entries.length === 0) throw new ConfigError('invalid-value', l10n.t('there are no values to write.'));
  const items: Grouped['items'] = [];
  const seen = new Set<string>();
  for (const { key, value } of entries) {
    const parts = key.split('.');
    if (parts.length > 2 || !parts.every((p) => KEY.test(p))) {
      throw new ConfigError(
        'invalid-value',
        l10n.t(
          '"{0}" is not a usable key name (letters, digits, _ and - only, at most one "." for a nested key).',
          printable(key),
        ),
      );
    }
    if (parts.length === 2 && !dialect.continuation) {
      throw new ConfigError(
        'invalid-value',
        l10n.t('the nested key "{0}" cannot be written to a file without nested values.', key),
      );
    }
    const lower = key.toLowerCase();
    if (seen.has(lower)) throw new ConfigError('invalid-value', l10n.t('the key "{0}" is given twice.', key));
    seen.add(lower);
    // Never echo the value: it may be a secret.
    if (value === '' || value !== value.trim())
      throw new ConfigError(
        'invalid-value',
        l10n.t('the value for "{0}" is empty or starts or ends with spaces.', key),
      );
    if (hasControlChars(value))
      throw new ConfigError(
        'invalid-value',
        l10n.t('the value for "{0}" contains a line break or another control character.', key),
      );
    if (parts.length === 1) {
      if (items.some((it) => 'subs' in it && it.key.toLowerCase() === lower)) {
        throw new ConfigError(
          'invalid-value',
          l10n.t('"{0}" is given both as a value and as a nested section.', key),
        );
      }
      items.push({ key, value });
    } else {
      const parentLower = parts[0].toLowerCase();
      if (items.some((it) => 'value' in it && it.key.toLowerCase() === parentLower)) {
        throw new ConfigError(
          'invalid-value',
          l10n.t('"{0}" is given both as a value and as a nested section.', parts[0]),
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

export const NESTED_INDENT = '    ';

export function renderItem(item: Grouped['items'][number]): string[] {
  if ('value' in item) return [`${item.key} = ${item.value}`];
  return [`${item.key} =`, ...item.subs.map((s) => `${NESTED_INDENT}${s.key} = ${s.value}`)];
}
