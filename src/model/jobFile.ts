/**
 * A TensorPool job file (`*.tp.toml`): what the editor checks while the user types. The service is the
 * one that validates a job (the client sends the raw text); this only catches what is certainly wrong:
 * TOML syntax errors (parsed with smol-toml, at their position), top-level keys other than `commands`,
 * `outputs` and `ignore` (with the closest known key for a typo), values of the wrong type, and a job
 * with nothing to run. Positions are 0-based. No `vscode` import.
 */
import * as l10n from '@vscode/l10n';
import type * as SmolToml from 'smol-toml' with { 'resolution-mode': 'import' };
import { locateTopLevelKeys, type TextRange } from './tomlKeys';

// smol-toml ships CommonJS too (its `require` export), but its type declarations are ES-module ones.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain require of its CommonJS build
const { parse } = require('smol-toml') as typeof SmolToml;

/** The top-level keys of a job file (spec: "Jobs"), each an array of strings. */
export const JOB_FILE_KEYS = ['commands', 'outputs', 'ignore'] as const;
export type JobFileKey = (typeof JOB_FILE_KEYS)[number];

function keyPurpose(key: JobFileKey): string {
  if (key === 'commands') return l10n.t('shell commands run in order on the cluster');
  if (key === 'outputs') return l10n.t('files, folders or globs to keep');
  return l10n.t('files, folders or globs not to upload');
}

export type JobFileProblemCode = 'syntax' | 'unknown-key' | 'wrong-type' | 'no-commands';

export interface JobFileProblem {
  readonly range: TextRange;
  readonly severity: 'error' | 'warning';
  readonly code: JobFileProblemCode;
  readonly message: string;
  /** For an unknown key: the known key it probably means. */
  readonly suggestion?: JobFileKey;
}

/** Edit distance (insertions, deletions, substitutions), for typo suggestions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}

/** The known key `name` is probably a typo of (case, a letter or two, a prefix), or undefined. */
export function closestJobFileKey(name: string): JobFileKey | undefined {
  const lower = name.toLowerCase().replace(/[-\s]/g, '_');
  let best: { key: JobFileKey; d: number } | undefined;
  for (const key of JOB_FILE_KEYS) {
    const d = distance(lower, key);
    const close =
      d <= Math.min(2, Math.floor(key.length / 3)) || (lower.length >= 3 && key.startsWith(lower));
    if (close && (!best || d < best.d)) best = { key, d };
  }
  return best?.key;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return l10n.t('an array');
  if (value instanceof Date) return l10n.t('a date');
  if (value === null) return l10n.t('nothing');
  switch (typeof value) {
    case 'string':
      return l10n.t('a string');
    case 'number':
    case 'bigint':
      return l10n.t('a number');
    case 'boolean':
      return l10n.t('a boolean');
    default:
      return l10n.t('a table');
  }
}

const LINE_START: TextRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The problem smol-toml reports (line and column 1-based), placed on the character it points at. */
function syntaxProblem(text: string, err: unknown): JobFileProblem {
  const e = err as { message?: unknown; line?: unknown; column?: unknown };
  const raw = typeof e.message === 'string' ? e.message : String(err);
  const first = raw.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
  const lines = text.split(/\r?\n/);
  const line = Math.min(Math.max((typeof e.line === 'number' ? e.line : 1) - 1, 0), lines.length - 1);
  const character = Math.max((typeof e.column === 'number' ? e.column : 1) - 1, 0);
  const end = Math.max(character, Math.min(character + 1, lines[line].length));
  return {
    range: { start: { line, character }, end: { line, character: end } },
    severity: 'error',
    code: 'syntax',
    message: l10n.t('TOML syntax error: {0}', first || l10n.t('the file could not be read')),
  };
}

function typeProblems(key: JobFileKey, value: unknown, range: TextRange): JobFileProblem[] {
  const example = key === 'commands' ? '["python train.py"]' : '["checkpoints/"]';
  if (!Array.isArray(value)) {
    return [
      {
        range,
        severity: 'error',
        code: 'wrong-type',
        message: l10n.t(
          '`{0}` must be an array of strings ({1}), not {2}: for example {0} = {3}',
          key,
          keyPurpose(key),
          describe(value),
          example,
        ),
      },
    ];
  }
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) {
    return [
      {
        range,
        severity: 'error',
        code: 'wrong-type',
        message: l10n.t(
          'Every entry of `{0}` must be a string; entry {1} is {2}.',
          key,
          bad + 1,
          describe(value[bad]),
        ),
      },
    ];
  }
  if (key === 'commands' && value.length === 0) {
    return [
      {
        range,
        severity: 'warning',
        code: 'no-commands',
        message: l10n.t('`commands` is empty: the job has nothing to run on the cluster.'),
      },
    ];
  }
  return [];
}

/** Every problem of a job file's text, in document order (syntax first: then nothing else is known). */
export function checkJobFile(text: string): JobFileProblem[] {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text);
  } catch (err) {
    return [syntaxProblem(text, err)];
  }
  const where = locateTopLevelKeys(text);
  const problems: JobFileProblem[] = [];
  for (const [name, value] of Object.entries(doc)) {
    const at = where.get(name);
    if ((JOB_FILE_KEYS as readonly string[]).includes(name)) {
      problems.push(...typeProblems(name as JobFileKey, value, at?.valueRange ?? LINE_START));
      continue;
    }
    const suggestion = closestJobFileKey(name);
    problems.push({
      range: at?.keyRange ?? LINE_START,
      severity: 'warning',
      code: 'unknown-key',
      message: suggestion
        ? l10n.t('Unknown key `{0}`: did you mean `{1}`?', name, suggestion)
        : l10n.t(
            'Unknown key `{0}`: a job file has {1}.',
            name,
            JOB_FILE_KEYS.map((k) => `\`${k}\``).join(', '),
          ),
      ...(suggestion ? { suggestion } : {}),
    });
  }
  if (!('commands' in doc)) {
    problems.push({
      range: LINE_START,
      severity: 'warning',
      code: 'no-commands',
      message: l10n.t(
        'No `commands`: the job has nothing to run on the cluster (commands = ["python train.py"]).',
      ),
    });
  }
  return problems.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

/**
 * Why a job file cannot be run as it is (its first error, with the line, and how many more), or
 * undefined when it has no error. Warnings (an unknown key, no commands) do not stop a run.
 */
export function jobFileRefusal(fileName: string, text: string): string | undefined {
  const errors = checkJobFile(text).filter((p) => p.severity === 'error');
  if (errors.length === 0) return undefined;
  const [first] = errors;
  const line = first.range.start.line + 1;
  const message = first.message.replace(/\.$/, '');
  if (errors.length === 1)
    return l10n.t(
      '{0} line {1}: {2}. Nothing was sent: fix the job file, then run it again.',
      fileName,
      line,
      message,
    );
  if (errors.length === 2)
    return l10n.t(
      '{0} line {1}: {2} (and 1 more error). Nothing was sent: fix the job file, then run it again.',
      fileName,
      line,
      message,
    );
  return l10n.t(
    '{0} line {1}: {2} (and {3} more errors). Nothing was sent: fix the job file, then run it again.',
    fileName,
    line,
    message,
    errors.length - 1,
  );
}

/** A job file's `ignore` patterns (what its upload leaves out), or none when it has none or cannot be read. */
export function jobFileIgnores(text: string): string[] {
  try {
    const ignore = (parse(text) as Record<string, unknown>).ignore;
    return Array.isArray(ignore)
      ? ignore.filter((p): p is string => typeof p === 'string' && p.trim() !== '')
      : [];
  } catch {
    return [];
  }
}
