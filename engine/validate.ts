// Request validation with FastAPI / pydantic-v2 shaped 422 bodies:
//   {"detail": [{"type": "missing", "loc": ["body", "instance_type"], "msg": "Field required", "input": {...}}]}
// Like pydantic, every field is checked and all problems are reported together; unknown fields are
// ignored. Deliberate deviations from pydantic's lax mode, per the team's rules: numeric strings and
// booleans are NOT accepted as integers (num_nodes "2" / true -> 422), and strings are not coerced.

import { createHash } from 'node:crypto';
import type { Reply } from './http';

export type Loc = (string | number)[];

export interface ValidationIssue {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export const INSTANCE_TYPE_PATTERN = '^[1-9][0-9]*x[A-Za-z0-9]+$';
// No `u` flag and explicit ASCII classes: "1xH１００" (full-width digits) must not match.
const INSTANCE_TYPE_RE = new RegExp(INSTANCE_TYPE_PATTERN);
/** Upper bound on num_nodes. The service publishes none; a bound keeps a typo from allocating
 *  millions of fake instances in this process. */
export const MAX_NUM_NODES = 128;

export function validationReply(issues: ValidationIssue[]): Reply {
  return { status: 422, body: { detail: issues } };
}

export function issue(
  type: string,
  loc: Loc,
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationIssue {
  return ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input };
}

/** JSON body -> value, or FastAPI's json_invalid / missing-body errors. */
export function parseJsonBody(raw: string): Parsed<unknown> {
  if (raw.trim() === '') return { ok: false, issues: [issue('missing', ['body'], 'Field required', null)] };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const position = /position (\d+)/.exec(message);
    return {
      ok: false,
      issues: [
        issue(
          'json_invalid',
          ['body', position ? Number(position[1]) : 0],
          'JSON decode error',
          {},
          { error: message },
        ),
      ],
    };
  }
}

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body must be a JSON object (pydantic: model_attributes_type; null counts as missing). */
export function requireObject(body: unknown): Parsed<Obj> {
  if (body === null || body === undefined)
    return { ok: false, issues: [issue('missing', ['body'], 'Field required', null)] };
  if (!isObject(body)) {
    return {
      ok: false,
      issues: [
        issue(
          'model_attributes_type',
          ['body'],
          'Input should be a valid dictionary or object to extract fields from',
          body,
        ),
      ],
    };
  }
  return { ok: true, value: body };
}

// --- field checkers: each returns the value or pushes an issue and returns undefined ---------------

function optString(
  o: Obj,
  key: string,
  issues: ValidationIssue[],
  opts: { nonEmpty?: boolean } = {},
): string | null | undefined {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') {
    issues.push(issue('string_type', ['body', key], 'Input should be a valid string', v));
    return undefined;
  }
  if (opts.nonEmpty && v.trim().length === 0) {
    // The service strips whitespace before its min_length=1 check, so "   " is as empty as "".
    issues.push(
      issue('string_too_short', ['body', key], 'String should have at least 1 character', v, {
        min_length: 1,
      }),
    );
    return undefined;
  }
  return opts.nonEmpty ? v.trim() : v;
}

function optBool(
  o: Obj,
  key: string,
  issues: ValidationIssue[],
  nullable: boolean,
): boolean | null | undefined {
  const v = o[key];
  if (v === undefined) return null;
  if (v === null && nullable) return null;
  if (typeof v !== 'boolean') {
    issues.push(issue('bool_type', ['body', key], 'Input should be a valid boolean', v));
    return undefined;
  }
  return v;
}

// --- POST /cluster/create ------------------------------------------------------------------------

export interface CreateInput {
  instanceType: string;
  publicKeys: string[];
  numNodes: number;
  name: string | null;
  container: string | null;
  containerField: 'container' | 'experimental_container' | null;
  deletionProtection: boolean;
  saveKeys: boolean;
}

export function validateCreate(body: unknown): Parsed<CreateInput> {
  const obj = requireObject(body);
  if (!obj.ok) return obj;
  const o = obj.value;
  const issues: ValidationIssue[] = [];

  let instanceType: string | undefined;
  const it = o.instance_type;
  if (it === undefined) issues.push(issue('missing', ['body', 'instance_type'], 'Field required', o));
  else if (typeof it !== 'string')
    issues.push(issue('string_type', ['body', 'instance_type'], 'Input should be a valid string', it));
  else if (!INSTANCE_TYPE_RE.test(it)) {
    issues.push(
      issue(
        'string_pattern_mismatch',
        ['body', 'instance_type'],
        `String should match pattern '${INSTANCE_TYPE_PATTERN}'`,
        it,
        {
          pattern: INSTANCE_TYPE_PATTERN,
        },
      ),
    );
  } else instanceType = it;

  let publicKeys: string[] = [];
  const pk = o.public_keys;
  if (pk !== undefined && pk !== null) {
    if (!Array.isArray(pk))
      issues.push(issue('list_type', ['body', 'public_keys'], 'Input should be a valid list', pk));
    else {
      pk.forEach((item: unknown, i) => {
        if (typeof item !== 'string')
          issues.push(
            issue('string_type', ['body', 'public_keys', i], 'Input should be a valid string', item),
          );
      });
      publicKeys = pk.filter((item: unknown): item is string => typeof item === 'string');
    }
  }

  let numNodes = 1;
  const nn = o.num_nodes;
  if (nn !== undefined && nn !== null) {
    if (typeof nn !== 'number' || !Number.isFinite(nn)) {
      issues.push(issue('int_type', ['body', 'num_nodes'], 'Input should be a valid integer', nn));
    } else if (!Number.isInteger(nn)) {
      issues.push(
        issue(
          'int_from_float',
          ['body', 'num_nodes'],
          'Input should be a valid integer, got a number with a fractional part',
          nn,
        ),
      );
    } else if (nn < 1) {
      issues.push(
        issue('greater_than_equal', ['body', 'num_nodes'], 'Input should be greater than or equal to 1', nn, {
          ge: 1,
        }),
      );
    } else if (nn > MAX_NUM_NODES) {
      issues.push(
        issue(
          'less_than_equal',
          ['body', 'num_nodes'],
          `Input should be less than or equal to ${MAX_NUM_NODES}`,
          nn,
          { le: MAX_NUM_NODES },
        ),
      );
    } else numNodes = nn;
  }

  const name = optString(o, 'tp_cluster_name', issues, { nonEmpty: true });
  const container = optString(o, 'container', issues);
  const experimental = optString(o, 'experimental_container', issues);
  const deletionProtection = optBool(o, 'deletion_protection', issues, true);
  const saveKeys = optBool(o, 'save_keys', issues, false);

  // Model-level rule (pydantic model_validator -> loc is the body itself).
  if (
    o.container !== undefined &&
    o.container !== null &&
    o.experimental_container !== undefined &&
    o.experimental_container !== null
  ) {
    issues.push(
      issue(
        'value_error',
        ['body'],
        'Value error, Provide at most one of container or experimental_container',
        o,
        {
          error: 'Provide at most one of container or experimental_container',
        },
      ),
    );
  }

  if (issues.length > 0 || instanceType === undefined) return { ok: false, issues };
  const image = container ?? experimental ?? null;
  return {
    ok: true,
    value: {
      instanceType,
      publicKeys,
      numNodes,
      name: name ?? null,
      container: image,
      containerField:
        container != null ? 'container' : experimental != null ? 'experimental_container' : null,
      deletionProtection: deletionProtection ?? false,
      saveKeys: saveKeys ?? true,
    },
  };
}

// --- PATCH /cluster/edit/{cluster} -------------------------------------------------------------------

export interface EditInput {
  name: string | null;
  deletionProtection: boolean | null;
}

export function validateEdit(body: unknown): Parsed<EditInput> {
  const obj = requireObject(body);
  if (!obj.ok) return obj;
  const o = obj.value;
  const issues: ValidationIssue[] = [];
  const name = optString(o, 'cluster_name', issues, { nonEmpty: true });
  const deletionProtection = optBool(o, 'deletion_protection', issues, true);
  if (issues.length > 0 || name === undefined || deletionProtection === undefined)
    return { ok: false, issues };
  if (name === null && deletionProtection === null) {
    return {
      ok: false,
      issues: [
        issue('value_error', ['body'], 'Value error, Provide cluster_name and/or deletion_protection', o, {
          error: 'Provide cluster_name and/or deletion_protection',
        }),
      ],
    };
  }
  return { ok: true, value: { name, deletionProtection } };
}

// --- POST /user/ssh-key/add ----------------------------------------------------------------------------

export interface SshKeyInput {
  publicKey: string;
  keyType: string;
  fingerprint: string;
  comment: string | null;
  name: string | null;
}

const SSH_KEY_TYPES = new Set([
  'ssh-ed25519',
  'ssh-rsa',
  'ssh-dss',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
]);

/**
 * Parse an OpenSSH public key line ("<type> <base64 blob> [comment]"). The blob must be valid base64
 * and must itself start with the declared type (length-prefixed), which is how ssh-keygen tells a
 * key from random text. Returns null when it is not a key.
 */
export function parseSshPublicKey(
  text: string,
): { keyType: string; fingerprint: string; comment: string | null } | null {
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2) return null;
  const [keyType, blob] = parts;
  if (!SSH_KEY_TYPES.has(keyType) || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return null;
  const bytes = Buffer.from(blob, 'base64');
  if (bytes.length < 4 + keyType.length) return null;
  const len = bytes.readUInt32BE(0);
  if (len !== keyType.length || bytes.subarray(4, 4 + len).toString('latin1') !== keyType) return null;
  // Same format as `ssh-keygen -l`: SHA256:<unpadded base64 of the blob's digest>.
  const fingerprint = 'SHA256:' + createHash('sha256').update(bytes).digest('base64').replace(/=+$/, '');
  return { keyType, fingerprint, comment: parts.length > 2 ? parts.slice(2).join(' ') : null };
}

export function validateSshKeyAdd(body: unknown): Parsed<SshKeyInput> {
  const obj = requireObject(body);
  if (!obj.ok) return obj;
  const o = obj.value;
  const issues: ValidationIssue[] = [];
  let parsed: ReturnType<typeof parseSshPublicKey> = null;
  const pk = o.public_key;
  if (pk === undefined) issues.push(issue('missing', ['body', 'public_key'], 'Field required', o));
  else if (typeof pk !== 'string')
    issues.push(issue('string_type', ['body', 'public_key'], 'Input should be a valid string', pk));
  else {
    parsed = parseSshPublicKey(pk);
    if (!parsed) {
      issues.push(
        issue(
          'value_error',
          ['body', 'public_key'],
          'Value error, public_key is not a valid SSH public key',
          pk,
          {
            error: 'public_key is not a valid SSH public key',
          },
        ),
      );
    }
  }
  const name = optString(o, 'name', issues, { nonEmpty: true });
  if (issues.length > 0 || !parsed || typeof pk !== 'string' || name === undefined)
    return { ok: false, issues };
  return {
    ok: true,
    value: {
      publicKey: pk.trim(),
      keyType: parsed.keyType,
      fingerprint: parsed.fingerprint,
      comment: parsed.comment,
      name,
    },
  };
}

// --- bucket names (S3 general-purpose bucket rules) ------------------------------------------------

/** Why a bucket name breaks the S3 naming rules, or null when it is fine. */
function bucketNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) return 'Bucket names must be between 3 and 63 characters long';
  if (!/^[a-z0-9.-]+$/.test(name))
    return 'Bucket names can consist only of lowercase letters, numbers, dots and hyphens';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name))
    return 'Bucket names must begin and end with a letter or number';
  if (name.includes('..')) return 'Bucket names must not contain two adjacent periods';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return 'Bucket names must not be formatted as an IP address';
  for (const prefix of ['xn--', 'sthree-', 'amzn-s3-demo-']) {
    if (name.startsWith(prefix)) return `Bucket names must not start with the prefix ${prefix}`;
  }
  for (const suffix of ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3']) {
    if (name.endsWith(suffix)) return `Bucket names must not end with the suffix ${suffix}`;
  }
  return null;
}

export function validateBucketName(name: string): ValidationIssue[] {
  const problem = bucketNameProblem(name);
  return problem
    ? [issue('value_error', ['path', 'bucket'], `Value error, ${problem}`, name, { error: problem })]
    : [];
}
