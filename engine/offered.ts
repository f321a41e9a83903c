// What this engine offers and whom it serves: the instance types a create may ask for, and the
// oldest client version POST /health accepts. Both are part of the run-time config (POST /_engine/config
// `instanceTypes`, `minClientVersion`; CLI `--instance-types`, `--min-client-version`).
//
// The default list is the one the service spec gives (docs and a third-party client); the extension's
// create wizard offers the same list (src/model/validate.ts KNOWN_INSTANCE_TYPES; a unit test keeps
// the two in agreement).

import { issue, validationReply, type ValidationIssue } from './validate';
import type { Reply } from './http';

const GPU_MODELS = ['H100', 'H200', 'B200', 'B300'];

export const DEFAULT_INSTANCE_TYPES: readonly string[] = [
  ...GPU_MODELS.flatMap((m) => [1, 2, 4, 8].map((n) => `${n}x${m}`)),
  '1xL40S',
  '32xCPU',
  '64xCPU',
];

/** 422 on `instance_type` when the engine does not offer the type (pydantic's literal_error shape). */
export function unofferedType(instanceType: string, offered: readonly string[]): Reply | null {
  if (offered.includes(instanceType)) return null;
  const expected = offered.map((t) => `'${t}'`).join(', ');
  const problem: ValidationIssue = issue(
    'literal_error',
    ['body', 'instance_type'],
    `Input should be one of the offered instance types: ${offered.join(', ')}`,
    instanceType,
    { expected },
  );
  return validationReply([problem]);
}

/** Parse "1.2.3" (a leading "v" and any suffix after "-" or "+" ignored); null when not a version. */
export function parseVersion(text: unknown): number[] | null {
  if (typeof text !== 'string') return null;
  const m = /^\s*v?(\d+(?:\.\d+)*)(?:[-+].*)?\s*$/.exec(text);
  return m ? m[1].split('.').map(Number) : null;
}

/** Whether version `a` is older than `b` (missing parts count as 0). */
export function olderThan(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}
