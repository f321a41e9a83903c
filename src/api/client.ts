/**
 * The TensorPool API client: one method per operation the extension uses. Requests are validated
 * locally (zod/mini) before anything is sent; answers are parsed leniently. No `vscode` import.
 */
import type * as z from 'zod/mini';
import * as l10n from '@vscode/l10n';
import type { Cluster, ClusterListing } from '../model/cluster';
import { validateBucketName as validateBucket } from '../model/validate';
import { BadResponseError } from './errors';
import { checkRequest, localError, requireId } from './requestChecks';
import { Transport, type CallOptions, type Method, type Query, type TransportOptions } from './http';
import { snippet } from './parse';
import { clusterFromText, toBucket, toCluster, toListing, type Bucket } from './normalize';
import * as S from './schemas';
import { healthVerdict, toSshKeyListing, type HealthVerdict, type SshKeyListing } from './sshKeys';
import { JobApi } from './jobs';
import { clusterQuote, storageQuote, type PriceAnswer } from './quotes';
import { VolumeApi } from './volumes';

export type ImageField = 'container' | 'experimental_container';
export type SshSystem = 'linux' | 'darwin' | 'windows';

export interface ClientOptions extends TransportOptions {
  /** Which name the container image is sent under (the service renamed it in 2026-03). Default `container`. */
  readonly imageField?: ImageField;
}

/** The create body as callers write it: the image under either name; the client sends the configured one. */
export type CreateClusterInput = S.ClusterCreateRequest;

export interface RequestStatusAnswer {
  readonly info: S.RequestInfo;
  /** Retry-After of the answer (non-terminal answers carry one). */
  readonly retryAfterMs: number | undefined;
}

export interface ClusterInfo {
  readonly cluster: Cluster | undefined;
  readonly message: string | undefined;
}

const seg = (v: string) => encodeURIComponent(v);

export class TensorPoolClient {
  readonly transport: Transport;
  readonly imageField: ImageField;
  /** Storage volumes (src/api/volumes.ts). */
  readonly volumes: VolumeApi;
  /** Jobs: REST, the push/listen WebSockets, output downloads (src/api/jobs.ts). */
  readonly jobs: JobApi;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    this.imageField = options.imageField ?? 'container';
    this.volumes = new VolumeApi(this.transport);
    this.jobs = new JobApi(this.transport);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  private async get<T>(
    path: string,
    schema: z.ZodMiniType<T>,
    opts?: CallOptions,
    query?: Query,
  ): Promise<T> {
    return (await this.transport.call({ method: 'GET', path, query, schema }, opts)).data;
  }

  private async send<T>(
    method: Method,
    path: string,
    schema: z.ZodMiniType<T> | null,
    body?: unknown,
    opts?: CallOptions,
  ): Promise<T> {
    return (await this.transport.call({ method, path, body, schema }, opts)).data;
  }

  // ---- account ---------------------------------------------------------------------------------

  /** GET /me: verifies the token; the body's shape is unpublished, so it is returned as a loose record. */
  me(opts?: CallOptions): Promise<S.Account> {
    return this.get('/me', S.Account(), opts);
  }

  userInfo(opts?: CallOptions): Promise<S.MessageResponse> {
    return this.get('/user/info', S.MessageResponse(), opts);
  }

  organizationInfo(opts?: CallOptions): Promise<S.OrganizationInfo> {
    return this.get('/user/organization/info', S.OrganizationInfo(), opts);
  }

  async addSshKey(input: S.SshKeyAddRequest, opts?: CallOptions): Promise<S.SshKeyAddResponse> {
    const body = checkRequest(S.SshKeyAddRequest(), input, 'POST', '/user/ssh-key/add');
    return this.send('POST', '/user/ssh-key/add', S.SshKeyAddResponse(), body, opts);
  }

  listSshKeys(options: { includeOrg?: boolean } = {}, opts?: CallOptions): Promise<S.SshKeyListResponse> {
    return this.get('/user/ssh-key/list', S.SshKeyListResponse(), opts, {
      include_org: options.includeOrg ? 'true' : undefined,
    });
  }

  /** The saved keys as records (undefined `keys` when the server sent only its text table). */
  async sshKeys(options: { includeOrg?: boolean } = {}, opts?: CallOptions): Promise<SshKeyListing> {
    return toSshKeyListing(await this.listSshKeys(options, opts));
  }

  /** POST /health with this client's version: a 4xx answer refuses the client (see healthVerdict). */
  async health(info: { package_version: string; uname: string }, opts?: CallOptions): Promise<HealthVerdict> {
    try {
      await this.send('POST', '/health', S.MessageResponse(), info, opts);
      return { ok: true };
    } catch (err) {
      return healthVerdict(err);
    }
  }

  async removeSshKey(keyId: string, opts?: CallOptions): Promise<S.MessageResponse> {
    requireId(keyId, 'key_id', 'DELETE', '/user/ssh-key/remove');
    return this.send('DELETE', `/user/ssh-key/remove/${seg(keyId)}`, S.MessageResponse(), undefined, opts);
  }

  // ---- clusters --------------------------------------------------------------------------------

  /** POST /cluster/create. Never retried: a duplicate GPU cluster costs real money. */
  async createCluster(input: CreateClusterInput, opts?: CallOptions): Promise<S.ClusterCreateResponse> {
    const checked = checkRequest(S.ClusterCreateRequest(), input, 'POST', '/cluster/create');
    const { container, experimental_container, ...rest } = checked;
    const image = container ?? experimental_container;
    const body: Record<string, unknown> = { ...rest };
    if (image != null) body[this.imageField] = image;
    return this.send('POST', '/cluster/create', S.ClusterCreateResponse(), body, opts);
  }

  /** PATCH /cluster/edit/{cluster}: 202 when accepted. An edit that changes nothing is refused locally. */
  async editCluster(
    cluster: string,
    input: S.ClusterEditRequest,
    opts?: CallOptions,
  ): Promise<S.EditResponse> {
    requireId(cluster, 'cluster', 'PATCH', '/cluster/edit');
    const body = checkRequest(S.ClusterEditRequest(), input, 'PATCH', `/cluster/edit/${cluster}`);
    return this.send('PATCH', `/cluster/edit/${seg(cluster)}`, S.EditResponse(), body, opts);
  }

  /** GET /cluster/list. `clusters` is undefined when the server sent only its text table. */
  async listClusters(
    options: { includeOrg?: boolean; instances?: boolean } = {},
    opts?: CallOptions,
  ): Promise<ClusterListing & { skipped: number }> {
    const answer = await this.transport.call(
      {
        method: 'GET',
        path: '/cluster/list',
        schema: S.ClusterListResponse(),
        query: {
          include_org: options.includeOrg ? 'true' : undefined,
          instances: options.instances === false ? undefined : 'true',
        },
      },
      opts,
    );
    const body = answer.data;
    // Neither a list nor its text: not "text only", not "no clusters", but an answer we cannot use.
    if (!Array.isArray(body.clusters) && !body.message?.trim()) {
      throw new BadResponseError(
        l10n.t("The server's answer to GET /cluster/list has neither clusters nor a message."),
        { method: 'GET', path: '/cluster/list', status: answer.status },
        snippet(JSON.stringify(body)),
      );
    }
    return toListing(body);
  }

  async clusterInfo(cluster: string, opts?: CallOptions): Promise<ClusterInfo> {
    requireId(cluster, 'cluster', 'GET', '/cluster/info');
    const body = await this.get(`/cluster/info/${seg(cluster)}`, S.ClusterInfoResponse(), opts);
    const record = body.cluster ?? body;
    const message = body.message ?? undefined;
    return { cluster: toCluster(record) ?? clusterFromText(message, cluster), message };
  }

  /** DELETE /cluster/{cluster}: starts the release (track request_id). Never retried. */
  async destroyCluster(cluster: string, opts?: CallOptions): Promise<S.DestroyResponse> {
    requireId(cluster, 'cluster', 'DELETE', '/cluster');
    return this.send('DELETE', `/cluster/${seg(cluster)}`, S.DestroyResponse(), undefined, opts);
  }

  async clusterOperations(cluster: string, opts?: CallOptions): Promise<S.LooseRecord> {
    requireId(cluster, 'cluster', 'GET', '/cluster/operations');
    return this.get(`/cluster/operations/${seg(cluster)}`, S.LooseRecord(), opts);
  }

  /** GET /request/info/{id}, with the Retry-After the tracker honours. */
  async requestInfo(requestId: string, opts?: CallOptions): Promise<RequestStatusAnswer> {
    requireId(requestId, 'request_id', 'GET', '/request/info');
    const answer = await this.transport.call(
      { method: 'GET', path: `/request/info/${seg(requestId)}`, schema: S.RequestInfo() },
      opts,
    );
    return { info: answer.data, retryAfterMs: answer.retryAfterMs };
  }

  /** GET /ssh/{instance_id}: the ssh command line the service suggests for an instance. */
  async sshCommand(
    instanceId: string,
    system: SshSystem = 'linux',
    opts?: CallOptions,
  ): Promise<S.SshCommandResponse> {
    requireId(instanceId, 'instance_id', 'GET', '/ssh');
    return this.get(`/ssh/${seg(instanceId)}`, S.SshCommandResponse(), opts, { system });
  }

  /** GET /cluster/quote: a price, or `no-price` when the route is missing or fails (src/api/quotes.ts). */
  clusterQuote(instanceType: string, numNodes: number, opts?: CallOptions): Promise<PriceAnswer> {
    return clusterQuote(this.transport, instanceType, numNodes, opts);
  }

  /** GET /storage/quote: as clusterQuote, for a volume of `sizeGb` GB. */
  storageQuote(sizeGb: number, opts?: CallOptions): Promise<PriceAnswer> {
    return storageQuote(this.transport, sizeGb, opts);
  }

  // ---- object storage ------------------------------------------------------------------------

  enableObjectStorage(opts?: CallOptions): Promise<S.ObjectStorageCredentials> {
    return this.send('POST', '/object-storage/enable', S.ObjectStorageCredentials(), undefined, opts).then(
      (c) => this.remember(c),
    );
  }

  objectStorageCredentials(opts?: CallOptions): Promise<S.ObjectStorageCredentials> {
    return this.get('/object-storage/credentials', S.ObjectStorageCredentials(), opts).then((c) =>
      this.remember(c),
    );
  }

  rotateObjectStorageKeys(opts?: CallOptions): Promise<S.ObjectStorageCredentials> {
    return this.send(
      'POST',
      '/object-storage/rotate-keys',
      S.ObjectStorageCredentials(),
      undefined,
      opts,
    ).then((c) => this.remember(c));
  }

  disableObjectStorage(opts?: CallOptions): Promise<S.MessageResponse> {
    return this.send('DELETE', '/object-storage/disable', S.MessageResponse(), undefined, opts);
  }

  configureAws(opts?: CallOptions): Promise<S.AwsConfigureResponse> {
    return this.get('/object-storage/configure/aws', S.AwsConfigureResponse(), opts);
  }

  configureRclone(opts?: CallOptions): Promise<S.RcloneConfigureResponse> {
    return this.get('/object-storage/configure/rclone', S.RcloneConfigureResponse(), opts);
  }
  async listBuckets(opts?: CallOptions): Promise<Bucket[]> {
    const body = await this.get('/object-storage/bucket/list', S.BucketListResponse(), opts);
    return (body.buckets ?? []).map(toBucket).filter((b): b is Bucket => b !== undefined);
  }

  async createBucket(name: string, opts?: CallOptions): Promise<void> {
    const problem = validateBucket(name);
    if (problem)
      throw localError('PUT', '/object-storage/bucket/create', [{ field: 'bucket', message: problem }]);
    await this.send('PUT', `/object-storage/bucket/create/${seg(name)}`, null, undefined, opts);
  }

  async deleteBucket(name: string, opts?: CallOptions): Promise<void> {
    requireId(name, 'bucket', 'DELETE', '/object-storage/bucket/delete');
    await this.send('DELETE', `/object-storage/bucket/delete/${seg(name)}`, null, undefined, opts);
  }

  /** Secret keys that pass through the client are masked in every later log line and error. */
  private remember(c: S.ObjectStorageCredentials): S.ObjectStorageCredentials {
    this.transport.secrets.add(c.secret_access_key);
    return c;
  }
}
