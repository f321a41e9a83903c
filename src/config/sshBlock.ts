/**
 * The block-mode alternative: our hosts between two marker lines at the end of ~/.ssh/config.
 * Only what is between the markers changes; a block that is not exactly one well-ordered pair of
 * markers is refused with the reason. Pure functions on texts; sshConfig.ts writes the file.
 */
import { ConfigError } from './errors';
import { editHostsLines, isEmptyHostsLines, type HostsEdit, type RenderOptions } from './sshHosts';
import { appendBlock, newLines, parseDoc, removeLines, renderDoc, type Doc } from './text';

export const BLOCK_BEGIN = '# >>> tensorpool (managed by the TensorPool VS Code extension; do not edit) >>>';
export const BLOCK_END = '# <<< tensorpool <<<';

const IS_BEGIN = /^\s*#\s*>>>\s*tensorpool\b/i;
const IS_END = /^\s*#\s*<<<\s*tensorpool\b/i;

function lineList(lines: number[]): string {
  return lines.map((l) => l + 1).join(' and ');
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
      `${why} TensorPool changes nothing until there is exactly one "${BLOCK_BEGIN}" line followed by one "${BLOCK_END}" line (or neither).`,
    );
  };
  if (begins.length > 1)
    refuse(
      `the TensorPool begin marker appears ${begins.length} times (lines ${lineList(begins)}); delete the duplicate block.`,
    );
  if (ends.length > 1)
    refuse(
      `the TensorPool end marker appears ${ends.length} times (lines ${lineList(ends)}); delete the extra one.`,
    );
  if (begins.length === 1 && ends.length === 0)
    refuse(`the TensorPool begin marker on line ${begins[0] + 1} has no end marker after it.`);
  if (begins.length === 0 && ends.length === 1)
    refuse(`the TensorPool end marker on line ${ends[0] + 1} has no begin marker before it.`);
  if (begins.length === 0) return undefined;
  if (ends[0] < begins[0])
    refuse(
      `the TensorPool end marker (line ${ends[0] + 1}) comes before the begin marker (line ${begins[0] + 1}).`,
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
