/**
 * The block-mode alternative: our hosts between two marker lines at the end of ~/.ssh/config.
 * Only what is between the markers changes; a block that is not exactly one well-ordered pair of
 * markers is refused with the reason. Pure functions on texts; sshConfig.ts writes the file.
 */
import * as l10n from '@vscode/l10n';
import { ConfigError } from './errors';
import { editHostsLines, isEmptyHostsLines, type HostsEdit, type RenderOptions } from './sshHosts';
import { appendBlock, newLines, parseDoc, removeLines, renderDoc, type Doc } from './text';

// eslint-disable-next-line tensorpool/l10n -- the marker line written into ~/.ssh/config (and matched there)
export const BLOCK_BEGIN = '# >>> tensorpool (managed by the TensorPool VS Code extension; do not edit) >>>';
export const BLOCK_END = '# <<< tensorpool <<<';

const IS_BEGIN = /^\s*#\s*>>>\s*tensorpool\b/i;
const IS_END = /^\s*#\s*<<<\s*tensorpool\b/i;

function lineList(lines: number[]): string {
  return lines.map((l) => String(l + 1)).reduce((a, b) => l10n.t('{0} and {1}', a, b));
}

/** The block's marker lines, undefined when there is none; ConfigError('malformed-block') when it is not
 * exactly one well-ordered pair. */
function locateBlock(doc: Doc): { begin: number; end: number } | undefined {
  const begins: number[] = [];
  const ends: number[] = [];
  doc.lines.forEach(({ text }, i) => {
    if (IS_BEGIN.test(text)) begins.push(i);
    else if (IS_END.test(text)) ends.push(i);
  });
  const refuse = (why: string): never => {
    throw new ConfigError(
      'malformed-block',
      l10n.t(
        '{0} TensorPool changes nothing until there is exactly one "{1}" line followed by one "{2}" line (or neither).',
        why,
        BLOCK_BEGIN,
        BLOCK_END,
      ),
    );
  };
  if (begins.length > 1)
    refuse(
      l10n.t(
        'the TensorPool begin marker appears {0} times (lines {1}); delete the duplicate block.',
        begins.length,
        lineList(begins),
      ),
    );
  if (ends.length > 1)
    refuse(
      l10n.t(
        'the TensorPool end marker appears {0} times (lines {1}); delete the extra one.',
        ends.length,
        lineList(ends),
      ),
    );
  if (begins.length === 1 && ends.length === 0)
    refuse(l10n.t('the TensorPool begin marker on line {0} has no end marker after it.', begins[0] + 1));
  if (begins.length === 0 && ends.length === 1)
    refuse(l10n.t('the TensorPool end marker on line {0} has no begin marker before it.', ends[0] + 1));
  if (begins.length === 0) return undefined;
  if (ends[0] < begins[0])
    refuse(
      l10n.t(
        'the TensorPool end marker (line {0}) comes before the begin marker (line {1}).',
        ends[0] + 1,
        begins[0] + 1,
      ),
    );
  return { begin: begins[0], end: ends[0] };
}

/** The lines inside our block, or undefined when there is none (throws when malformed). */
export function readBlock(text: string): string[] | undefined {
  const doc = parseDoc(text);
  const block = locateBlock(doc);
  return block && doc.lines.slice(block.begin + 1, block.end).map((l) => l.text);
}

/**
 * Apply a hosts edit inside our block: replace only what is between the markers, append the block
 * at the end when absent, and remove it (with the blank line we put before it) when no host is left.
 */
export function editBlockText(text: string, edit: HostsEdit, opts: RenderOptions = {}): string {
  const doc = parseDoc(text);
  const block = locateBlock(doc);
  const inside = block ? doc.lines.slice(block.begin + 1, block.end).map((l) => l.text) : [];
  const next = editHostsLines(inside, edit, opts);
  if (isEmptyHostsLines(next)) {
    if (!block) return text;
    removeLines(doc, block.begin, block.end + 1, true);
    return renderDoc(doc);
  }
  if (!block) {
    appendBlock(doc, [BLOCK_BEGIN, ...next, BLOCK_END]);
    return renderDoc(doc);
  }
  const old = doc.lines.slice(block.begin + 1, block.end);
  if (old.length === next.length && old.every((l, i) => l.text === next[i])) return text;
  doc.lines.splice(block.begin + 1, block.end - block.begin - 1, ...newLines(doc, next));
  return renderDoc(doc);
}
