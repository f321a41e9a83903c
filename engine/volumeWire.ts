// Storage volumes on the wire (spec "Storage volumes"): request validation, JSON shapes and texts.
// The routes are in volumeRoutes.ts. Note the field names: create sends {size, deletion_protection, name?}, edit sends
// {tp_storage_name?, deletion_protection?, size_gb?}; attach takes cluster_ids (a list) and answers
// request_ids, detach takes one cluster_id and answers one request_id. Refusals that are not field
// problems carry both `message` and `detail`.

import { json, type Reply } from './http';
import { iso } from './ids';
import { table } from './text';
import { issue, requireObject, type Parsed, type ValidationIssue } from './validate';
import { MAX_VOLUME_GB, mountPath, type AttachmentStatus, type VolumeView } from './volumes';

type Obj = Record<string, unknown>;

/** A refusal with the text under both names clients read. */
export function refusal(status: number, message: string): Reply {
  return json(status, { message, detail: message });
}

function size(o: Obj, key: string, issues: ValidationIssue[], required: boolean): number | null {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) issues.push(issue('missing', ['body', key], 'Field required', o));
    return null;
  }
  if (typeof v !== 'number' || !Number.isFinite(v))
    issues.push(issue('int_type', ['body', key], 'Input should be a valid integer', v));
  else if (!Number.isInteger(v))
    issues.push(
      issue(
        'int_from_float',
        ['body', key],
        'Input should be a valid integer, got a number with a fractional part',
        v,
      ),
    );
  else if (v < 1)
    issues.push(
      issue('greater_than_equal', ['body', key], 'Input should be greater than or equal to 1', v, { ge: 1 }),
    );
  else if (v > MAX_VOLUME_GB)
    issues.push(
      issue('less_than_equal', ['body', key], `Input should be less than or equal to ${MAX_VOLUME_GB}`, v, {
        le: MAX_VOLUME_GB,
      }),
    );
  else return v;
  return null;
}

function text(o: Obj, key: string, issues: ValidationIssue[]): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string')
    issues.push(issue('string_type', ['body', key], 'Input should be a valid string', v));
  else if (v.trim() === '')
    issues.push(
      issue('string_too_short', ['body', key], 'String should have at least 1 character', v, {
        min_length: 1,
      }),
    );
  else return v.trim();
  return null;
}

function bool(o: Obj, key: string, issues: ValidationIssue[]): boolean | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean')
    issues.push(issue('bool_type', ['body', key], 'Input should be a valid boolean', v));
  else return v;
  return null;
}

function id(o: Obj, key: string, issues: ValidationIssue[]): string | null {
  const v = o[key];
  if (v === undefined || v === null) issues.push(issue('missing', ['body', key], 'Field required', o));
  else if (typeof v !== 'string' || v.trim() === '')
    issues.push(issue('string_type', ['body', key], 'Input should be a valid string', v));
  else return v;
  return null;
}

const checked = <T>(issues: ValidationIssue[], value: T): Parsed<T> =>
  issues.length ? { ok: false, issues } : { ok: true, value };

export function validateVolumeCreate(
  b: unknown,
): Parsed<{ sizeGb: number; deletionProtection: boolean; name: string | null }> {
  const o = requireObject(b);
  if (!o.ok) return o;
  const issues: ValidationIssue[] = [];
  const sizeGb = size(o.value, 'size', issues, true);
  const deletionProtection = bool(o.value, 'deletion_protection', issues) ?? false;
  const name = text(o.value, 'name', issues);
  return checked(issues, { sizeGb: sizeGb ?? 0, deletionProtection, name });
}

export function validateVolumeEdit(
  b: unknown,
): Parsed<{ name: string | null; deletionProtection: boolean | null; sizeGb: number | null }> {
  const o = requireObject(b);
  if (!o.ok) return o;
  const issues: ValidationIssue[] = [];
  const value = {
    name: text(o.value, 'tp_storage_name', issues),
    deletionProtection: bool(o.value, 'deletion_protection', issues),
    sizeGb: size(o.value, 'size_gb', issues, false),
  };
  if (!issues.length && value.name === null && value.deletionProtection === null && value.sizeGb === null) {
    const msg = 'Provide tp_storage_name, deletion_protection and/or size_gb';
    issues.push(issue('value_error', ['body'], `Value error, ${msg}`, o.value, { error: msg }));
  }
  return checked(issues, value);
}

export function validateAttach(b: unknown): Parsed<{ storageId: string; clusterIds: string[] }> {
  const o = requireObject(b);
  if (!o.ok) return o;
  const issues: ValidationIssue[] = [];
  const storageId = id(o.value, 'storage_id', issues);
  const raw = o.value.cluster_ids;
  let clusterIds: string[] = [];
  if (raw === undefined || raw === null)
    issues.push(issue('missing', ['body', 'cluster_ids'], 'Field required', o.value));
  else if (!Array.isArray(raw))
    issues.push(issue('list_type', ['body', 'cluster_ids'], 'Input should be a valid list', raw));
  else if (raw.length === 0)
    issues.push(
      issue(
        'too_short',
        ['body', 'cluster_ids'],
        'List should have at least 1 item after validation, not 0',
        raw,
        { min_length: 1 },
      ),
    );
  else {
    raw.forEach((c: unknown, i) => {
      if (typeof c !== 'string' || c.trim() === '')
        issues.push(issue('string_type', ['body', 'cluster_ids', i], 'Input should be a valid string', c));
    });
    clusterIds = raw.filter((c: unknown): c is string => typeof c === 'string');
  }
  return checked(issues, { storageId: storageId ?? '', clusterIds });
}

export function validateDetach(b: unknown): Parsed<{ storageId: string; clusterId: string }> {
  const o = requireObject(b);
  if (!o.ok) return o;
  const issues: ValidationIssue[] = [];
  const storageId = id(o.value, 'storage_id', issues);
  const clusterId = id(o.value, 'cluster_id', issues);
  return checked(issues, { storageId: storageId ?? '', clusterId: clusterId ?? '' });
}

// --- wire shapes and texts -----------------------------------------------------------------------

export function volumeJson(v: VolumeView): Record<string, unknown> {
  const x = v.volume;
  return {
    id: x.id,
    storage_id: x.id,
    name: x.name,
    size_gb: x.sizeGb,
    status: v.status,
    attached_clusters: v.attachments.map((a) => a.clusterId),
    attachments: v.attachments.map((a) => ({
      cluster_id: a.clusterId,
      cluster_name: a.clusterName,
      status: a.status,
    })),
    hourly_rate: v.hourlyRate,
    deletion_protection: x.deletionProtection,
    mount_path: mountPath(x.id),
    created_at: iso(x.createdMs),
    owner: x.ownerUid,
    owner_email: v.owner?.email ?? null,
  };
}

export function volumeListText(views: VolumeView[], includeOrg: boolean): string {
  if (views.length === 0)
    return `No storage volumes in your ${includeOrg ? 'organization' : 'account'}. Create one with: tp storage create -s 100`;
  const header = ['STORAGE ID', 'NAME', 'SIZE (GB)', 'STATUS', 'ATTACHED TO', 'PROTECTED', '$/HOUR'];
  if (includeOrg) header.push('OWNER');
  const rows = views.map((v) => {
    const row = [
      v.volume.id,
      v.volume.name,
      String(v.volume.sizeGb),
      v.status,
      v.attachments.map((a) => a.clusterId).join(',') || '-',
      v.volume.deletionProtection ? 'yes' : 'no',
      v.hourlyRate.toFixed(4),
    ];
    if (includeOrg) row.push(v.owner?.email ?? v.volume.ownerUid);
    return row;
  });
  return `${views.length} storage volume${views.length === 1 ? '' : 's'}:\n${table(header, rows)}`;
}

export function volumeInfoText(v: VolumeView): string {
  return [
    `Storage volume ${v.volume.id} (${v.volume.name})`,
    `  Status:              ${v.status}`,
    `  Size:                ${v.volume.sizeGb} GB`,
    `  Hourly rate:         $${v.hourlyRate.toFixed(4)}`,
    `  Deletion protection: ${v.volume.deletionProtection ? 'enabled' : 'disabled'}`,
    `  Mount path:          ${mountPath(v.volume.id)}`,
    `  Attached to:         ${v.attachments.map((a) => `${a.clusterId} (${a.status})`).join(', ') || 'none'}`,
  ].join('\n');
}

/** `attached_volumes` of a cluster in cluster list/info answers. */
export function attachedVolumesJson(
  list: { view: VolumeView; status: AttachmentStatus }[],
): Record<string, unknown>[] {
  return list.map(({ view, status }) => ({
    storage_id: view.volume.id,
    name: view.volume.name,
    size_gb: view.volume.sizeGb,
    mount_path: mountPath(view.volume.id),
    status,
  }));
}

/** The cluster texts' volume lines (appended to cluster info; a section after the list table). */
export function attachedVolumesText(
  rows: { clusterId: string; list: { view: VolumeView; status: AttachmentStatus }[] }[],
): string {
  const cells = rows.flatMap((r) =>
    r.list.map(({ view, status }) => [view.volume.id, r.clusterId, mountPath(view.volume.id), status]),
  );
  return cells.length
    ? `\n\nVolumes:\n${table(['STORAGE ID', 'CLUSTER ID', 'MOUNT PATH', 'STATUS'], cells)}`
    : '';
}
