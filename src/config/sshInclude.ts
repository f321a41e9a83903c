/**
 * The Include line that makes ssh read our hosts file: whether ~/.ssh/config has it where it
 * applies to every host (before any Host/Match line), adding it as the very first line, removing
 * it. Pure functions on texts; sshConfig.ts writes the file. See sshConfig.ts for why the top.
 */
import { posix } from 'node:path';
import { newLines, parseDoc, removeLines, renderDoc, type Doc } from './text';

export const OWN_CONFIG_REF = '~/.ssh/tensorpool/config';
export const INCLUDE_LINE = `Include ${OWN_CONFIG_REF}`;

/** Keyword and arguments of a directive (`Keyword args` or `Keyword=args`), or undefined for blanks and comments. */
function directive(text: string): { keyword: string; args: string } | undefined {
  const t = text.trim();
  if (t === '' || t.startsWith('#')) return undefined;
  const m = /^([A-Za-z]+)(?:\s*=\s*|\s+|$)(.*)$/.exec(t);
  return m ? { keyword: m[1].toLowerCase(), args: m[2] } : undefined;
}

/** Whitespace-separated arguments; double quotes group. */
function splitArgs(args: string): string[] {
  return [...args.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

function isOurIncludePath(arg: string, home: string | undefined): boolean {
  const norm = (p: string): string => posix.normalize(p.replace(/\\/g, '/')).toLowerCase();
  const p = norm(arg);
  const candidates = [
    OWN_CONFIG_REF,
    'tensorpool/config',
    ...(home ? [`${home}/.ssh/tensorpool/config`] : []),
  ].map(norm);
  return candidates.includes(p);
}

/** Lines of `Include` directives whose only argument is our file. `global` ones come before any Host/Match. */
function ourIncludes(doc: Doc, home: string | undefined): Array<{ line: number; global: boolean }> {
  const found: Array<{ line: number; global: boolean }> = [];
  let global = true;
  doc.lines.forEach(({ text }, line) => {
    const d = directive(text);
    if (!d) return;
    if (d.keyword === 'host' || d.keyword === 'match') global = false;
    if (d.keyword !== 'include') return;
    const args = splitArgs(d.args);
    if (args.length === 1 && isOurIncludePath(args[0], home)) found.push({ line, global });
  });
  return found;
}

/**
 * `global`: ~/.ssh/config includes our file for every host. `scoped`: it includes it only inside
 * a Host/Match section (not enough; `ensureInclude` adds the top line). `absent`: not at all.
 */
export type IncludeState = 'global' | 'scoped' | 'absent';

export function includeState(text: string, home?: string): IncludeState {
  const found = ourIncludes(parseDoc(text), home);
  return found.some((f) => f.global) ? 'global' : found.length ? 'scoped' : 'absent';
}

/** Our Include line as the very first line (after a BOM), unless an equivalent one is already in force. */
export function ensureInclude(text: string, home?: string): string {
  if (includeState(text, home) === 'global') return text;
  const doc = parseDoc(text);
  doc.lines.unshift(...newLines(doc, [INCLUDE_LINE]));
  return renderDoc(doc);
}

/** Remove the global Include lines of our file (ones inside a Host/Match section are the user's). */
export function removeInclude(text: string, home?: string): string {
  const doc = parseDoc(text);
  const ours = ourIncludes(doc, home).filter((f) => f.global);
  for (const { line } of ours.reverse()) removeLines(doc, line, line + 1);
  return ours.length ? renderDoc(doc) : text;
}
