/**
 * Storage volumes: the seven operations (spec "Storage volumes") and the lenient reading of the
 * server's volume records. Reached as `client.volumes`. Bodies are checked locally (zod/mini) before
 * anything is sent, with the service's exact field names: create {size, deletion_protection, name?},
 * edit {tp_storage_name?, deletion_protection?, size_gb?}, attach {storage_id, cluster_ids}, detach
 * {storage_id, cluster_id}. Mutating calls are never retried (the transport retries GETs only).
 */
import * as l10n from '@vscode/l10n';
import type { Volume, VolumeAttachment, VolumeListing } from '../model/volume';
import { checkRequest, requireId } from './requestChecks';
import { BadResponseError } from './errors';
import type { CallOptions, Transport } from './http';
import { snippet } from './parse';
import { first, isRecord, num, str } from './loose';
import { cell } from './normalizeText';
import * as S from './schemas';
import * as V from './volumeSchemas';
import { recordsFromText, VOLUME_COLUMNS } from './textRecords';

const seg = (v: string) => encodeURIComponent(v);

export interface VolumeInfo {
  readonly volume: Volume | undefined;
  readonly message: string | undefined;
}

export class VolumeApi {
  constructor(private readonly transport: Transport) {}

  /** POST /storage/create → 202 {message, request_id?, storage_id?}. Never retried. */
  async createVolume(input: V.VolumeCreateRequest, opts?: CallOptions): Promise<V.VolumeCreateResponse> {
    const body = checkRequest(V.VolumeCreateRequest(), input, 'POST', '/storage/create');
    const schema = V.VolumeCreateResponse();
    return (await this.transport.call({ method: 'POST', path: '/storage/create', body, schema }, opts)).data;
  }

  /** GET /storage/list. `volumes` is undefined when the server sent only its text table. */
  async listVolumes(
    options: { includeOrg?: boolean } = {},
    opts?: CallOptions,
  ): Promise<VolumeListing & { skipped: number }> {
    const query = { include_org: options.includeOrg ? 'true' : undefined };
    const answer = await this.transport.call(
      { method: 'GET', path: '/storage/list', query, schema: V.VolumeListResponse() },
      opts,
    );
    const body = answer.data;
    const list = body.volumes ?? body.storage;
    if (!Array.isArray(list) && !body.message?.trim()) {
      throw new BadResponseError(
        l10n.t("The server's answer to GET /storage/list has neither volumes nor a message."),
        { method: 'GET', path: '/storage/list', status: answer.status },
        snippet(JSON.stringify(body)),
      );
    }
    const message = str(body.message);
    if (!Array.isArray(list))
      return { volumes: undefined, message, textVolumes: volumesFromText(message), skipped: 0 };
    const volumes = list.map(toVolume).filter((v): v is Volume => v !== undefined);
    return { volumes, message, skipped: list.length - volumes.length };
  }

  async volumeInfo(storageId: string, opts?: CallOptions): Promise<VolumeInfo> {
    requireId(storageId, 'storage_id', 'GET', '/storage/info');
    const path = `/storage/info/${seg(storageId)}`;
    const body = (await this.transport.call({ method: 'GET', path, schema: S.LooseRecord() }, opts)).data;
    const record = isRecord(body.volume) ? body.volume : body;
    return { volume: toVolume(record), message: str(body.message) };
  }

  /** PATCH /storage/edit/{storage_id}: only the fields given are sent. Never retried. */
  async editVolume(
    storageId: string,
    input: V.VolumeEditRequest,
    opts?: CallOptions,
  ): Promise<S.EditResponse> {
    requireId(storageId, 'storage_id', 'PATCH', '/storage/edit');
    const body = checkRequest(V.VolumeEditRequest(), input, 'PATCH', '/storage/edit');
    const path = `/storage/edit/${seg(storageId)}`;
    return (await this.transport.call({ method: 'PATCH', path, body, schema: S.EditResponse() }, opts)).data;
  }

  /** POST /storage/attach → request_ids (one per cluster). Attaching restarts every node. */
  async attachVolume(input: V.VolumeAttachRequest, opts?: CallOptions): Promise<V.VolumeAttachResponse> {
    const body = checkRequest(V.VolumeAttachRequest(), input, 'POST', '/storage/attach');
    const schema = V.VolumeAttachResponse();
    return (await this.transport.call({ method: 'POST', path: '/storage/attach', body, schema }, opts)).data;
  }

  /** POST /storage/detach → one request_id. */
  async detachVolume(input: V.VolumeDetachRequest, opts?: CallOptions): Promise<S.DestroyResponse> {
    const body = checkRequest(V.VolumeDetachRequest(), input, 'POST', '/storage/detach');
    const schema = S.DestroyResponse();
    return (await this.transport.call({ method: 'POST', path: '/storage/detach', body, schema }, opts)).data;
  }

  /** DELETE /storage/{storage_id}: refused by the service while protected. Never retried. */
  async destroyVolume(storageId: string, opts?: CallOptions): Promise<S.DestroyResponse> {
    requireId(storageId, 'storage_id', 'DELETE', '/storage');
    const path = `/storage/${seg(storageId)}`;
    return (await this.transport.call({ method: 'DELETE', path, schema: S.DestroyResponse() }, opts)).data;
  }
}

// ---- lenient reading ------------------------------------------------------------------------------

function toAttachment(raw: unknown): VolumeAttachment | undefined {
  if (typeof raw === 'string') return raw.trim() ? { clusterId: raw } : undefined;
  if (!isRecord(raw)) return undefined;
  const clusterId = str(first(raw, 'cluster_id', 'id', 'clusterId'));
  if (!clusterId) return undefined;
  return {
    clusterId,
    clusterName: str(first(raw, 'cluster_name', 'name')),
    status: str(first(raw, 'status', 'state')),
  };
}

function toVolume(raw: unknown): Volume | undefined {
  if (!isRecord(raw)) return undefined;
  const id = str(first(raw, 'storage_id', 'id', 'volume_id'));
  if (!id) return undefined;
  const detailed = first(raw, 'attachments');
  const plain = first(raw, 'attached_clusters', 'cluster_ids', 'clusters');
  const list = Array.isArray(detailed) ? detailed : Array.isArray(plain) ? plain : [];
  const protection = first(raw, 'deletion_protection', 'deletionProtection');
  return {
    id,
    name: str(first(raw, 'name', 'tp_storage_name', 'storage_name')),
    sizeGb: num(first(raw, 'size_gb', 'size', 'sizeGb')),
    status: str(first(raw, 'status', 'state')),
    attachments: list.map(toAttachment).filter((a): a is VolumeAttachment => a !== undefined),
    hourlyRate: num(first(raw, 'hourly_rate', 'hourly_cost', 'price_per_hour')),
    deletionProtection: typeof protection === 'boolean' ? protection : undefined,
    createdAt: str(first(raw, 'created_at', 'createdAt')),
    owner: str(first(raw, 'owner_email', 'owner', 'user_email')),
  };
}

/** A text-only list: the volumes its table names (src/api/textRecords.ts), marked as read from text. */
function volumesFromText(message: string | undefined): Volume[] {
  return recordsFromText(message, VOLUME_COLUMNS, { key: 'id' }).records.flatMap(({ fields: f }) => {
    const id = cell(f.id);
    if (!id) return [];
    const size = cell(f.size)?.match(/^\d+/)?.[0];
    return [
      {
        id,
        name: cell(f.name),
        sizeGb: size ? Number(size) : undefined,
        status: cell(f.status),
        createdAt: cell(f.created),
        attachments: [],
        source: 'text' as const,
      },
    ];
  });
}
