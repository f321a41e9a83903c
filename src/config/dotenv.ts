/**
 * The API token of a command-line setup, read from a `.env` file the way the official client does:
 * the first `TENSORPOOL_KEY=...` line, quotes stripped. `TENSORPOOL_API_KEY` (used by some
 * third-party tools) is the fallback when no `TENSORPOOL_KEY` line has a value. Read only; never
 * written back. Nothing here throws: an unreadable, binary or huge file simply has no token.
 */
import { promises as fs } from 'node:fs';

export const TOKEN_VARIABLES = ['TENSORPOOL_KEY', 'TENSORPOOL_API_KEY'] as const;
export type TokenVariable = (typeof TOKEN_VARIABLES)[number];

export interface FoundToken {
  readonly name: TokenVariable;
  readonly value: string;
}

/** Larger files are not a `.env` anybody wrote by hand; skip them rather than read megabytes. */
const MAX_BYTES = 256 * 1024;

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/** The value of one `NAME=value` right-hand side: quotes stripped, an unquoted ` # comment` dropped. */
export function dotenvValue(raw: string): string {
  const text = raw.trim();
  const quote = text[0];
  if (quote === '"' || quote === "'" || quote === '`') {
    const end = text.indexOf(quote, 1);
    // An unclosed quote: take the rest of the line without it, as python-dotenv does not fail either.
    return (end === -1 ? text.slice(1) : text.slice(1, end)).trim();
  }
  const comment = text.search(/\s#/);
  return (comment === -1 ? text : text.slice(0, comment)).trim();
}

/** Every assignment of the file, in order (duplicates kept); comments and other lines ignored. */
export function parseDotenv(text: string): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const m = LINE.exec(trimmed);
    if (m) out.push({ name: m[1], value: dotenvValue(m[2]) });
  }
  return out;
}

/** The token a `.env` text holds: the first non-empty TENSORPOOL_KEY, else the first TENSORPOOL_API_KEY. */
export function tokenFromDotenv(text: string): FoundToken | undefined {
  const entries = parseDotenv(text);
  for (const name of TOKEN_VARIABLES) {
    const hit = entries.find((e) => e.name === name && e.value !== '' && !/\s/.test(e.value));
    if (hit) return { name, value: hit.value };
  }
  return undefined;
}

/** Read `file` and find the token; undefined for a missing, unreadable, binary or oversized file. */
export async function readDotenvToken(file: string): Promise<FoundToken | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > MAX_BYTES) return undefined;
    const text = await fs.readFile(file, 'utf8');
    if (text.includes('\u0000')) return undefined;
    return tokenFromDotenv(text);
  } catch {
    return undefined;
  }
}
