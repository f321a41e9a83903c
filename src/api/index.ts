/**
 * The API layer's public surface. Bundled on its own (dist/api.js) and loaded on first use, so the
 * activation bundle never pays for undici and zod.
 */
export { TensorPoolClient } from './client';
export type {
  ClientOptions,
  CreateClusterInput,
  ImageField,
  SshSystem,
  ClusterInfo,
  RequestStatusAnswer,
} from './client';
export * from './errors';
export { SecretRegistry, REDACTED } from './redact';
export { trackRequest } from './tracking';
export type { TrackOptions, TrackOutcome } from './tracking';
export type { LogLevel, LogSink } from './log';
export type { CallOptions } from './http';
export type { Bucket } from './normalize';
export type { HealthVerdict, SavedSshKey, SshKeyListing } from './sshKeys';
export type { VolumeApi, VolumeInfo } from './volumes';
export type { JobApi, JobInfo, JobSystem } from './jobs';
export { pullSystem } from './jobs';
export { listenJob, pushSystem } from './jobSocket';
/** For the job log reader's worker thread (listenWorker.ts), which loads this bundle rather than its own. */
export { outboundDispatcher, nodeClientOptions } from './proxy';
/** For the S3 client's https.Agent (src/vscode/objectBrowser/onUse/bucketBrowser.ts): the roots the API client
 *  trusts. */
export { tlsOptions } from './systemCerts';
export type {
  CommandResult,
  JobOs,
  ListenMessage,
  ListenOutcome,
  PushHandlers,
  PushMessage,
  PushOutcome,
  PushRequest,
  SocketOptions,
} from './jobSocket';
export type { FollowOptions, FollowOutcome } from './jobFollow';
export type { PriceAnswer, QuoteResponse } from './quotes';
export { downloadOutputs, safeOutputPath } from './downloads';
export type { DownloadOptions, DownloadResult, FileOutcome } from './downloads';
export type * from './schemas';
export type * from './volumeSchemas';
