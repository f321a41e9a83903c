/**
 * The S3 client for the organisation's object storage: the AWS SDK's S3Client pointed at the credentials
 * record's endpoint and region (path-style addressing, checksums only where S3 requires them, as most
 * S3-compatible servers expect). No `vscode` import: this folder is bundled as dist/s3.js and loaded on
 * first use. Every request goes through the one HTTP handler built by s3RequestHandler(), so transport
 * settings (strict TLS, extra CA certificates, a proxy agent) are plugged in at a single place.
 */
import { S3Client } from '@aws-sdk/client-s3';
import * as http from 'node:http';
import * as https from 'node:https';

export interface S3Credentials {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface S3HttpSettings {
  /** false accepts certificates that cannot be verified (VS Code's http.proxyStrictSSL). Default true. */
  readonly strictSSL?: boolean;
  /** Extra CA certificates (PEM) trusted beside Node's own. */
  readonly ca?: readonly string[];
  /** Connections per host (default 16: parallel parts and files). */
  readonly maxSockets?: number;
  /** Give up connecting after this long (default 10 s). */
  readonly connectionTimeoutMs?: number;
  /** Give up on a request whose socket stays silent this long (default 60 s). */
  readonly requestTimeoutMs?: number;
}

/** The one place the HTTP transport for S3 is built (the SDK's Node handler options). */
export function s3RequestHandler(settings: S3HttpSettings = {}) {
  const maxSockets = settings.maxSockets ?? 16;
  return {
    httpAgent: new http.Agent({ keepAlive: true, maxSockets }),
    httpsAgent: new https.Agent({
      keepAlive: true,
      maxSockets,
      rejectUnauthorized: settings.strictSSL !== false,
      ...(settings.ca?.length ? { ca: [...settings.ca] } : {}),
    }),
    connectionTimeout: settings.connectionTimeoutMs ?? 10_000,
    requestTimeout: settings.requestTimeoutMs ?? 60_000,
  };
}

export function createS3Client(creds: S3Credentials, settings: S3HttpSettings = {}): S3Client {
  return new S3Client({
    endpoint: creds.endpoint,
    region: creds.region || 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: s3RequestHandler(settings),
    maxAttempts: 3,
  });
}

/** `s3://bucket/key` */
export function s3Uri(bucket: string, key = ''): string {
  return `s3://${bucket}/${key}`;
}

/** `remote:bucket/key` for rclone. */
export function rclonePath(remote: string, bucket: string, key = ''): string {
  return `${remote}:${bucket}${key ? `/${key}` : ''}`;
}
