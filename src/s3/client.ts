/**
 * The S3 client for the organisation's object storage: the AWS SDK's S3Client pointed at the credentials
 * record's endpoint and region (path-style addressing, checksums only where S3 requires them, as most
 * S3-compatible servers expect). No `vscode` import: this folder is bundled as dist/s3.js and loaded on
 * first use. Every request goes through the one HTTP handler built by s3RequestHandler(), so transport
 * settings (strict TLS, extra CA certificates, a proxy agent) are plugged in at a single place.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { HttpsProxyAgent } from 'https-proxy-agent';
import * as http from 'node:http';
import * as https from 'node:https';
import { state as sdkNodeVersionWarning } from '@aws-sdk/core/client';

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
  /**
   * The forward proxy for the endpoint (http.proxy / HTTPS_PROXY after http.noProxy / NO_PROXY: the API
   * layer's nodeClientOptions() decides), reached with CONNECT for https and http endpoints alike;
   * `authorization` is sent to the proxy only, as Proxy-Authorization (a secret: never logged).
   */
  readonly proxy?: { readonly url: string; readonly authorization?: string };
}

/** The one place the HTTP transport for S3 is built (the SDK's Node handler options). */
export function s3RequestHandler(settings: S3HttpSettings = {}) {
  const maxSockets = settings.maxSockets ?? 16;
  const tls = {
    rejectUnauthorized: settings.strictSSL !== false,
    ...(settings.ca?.length ? { ca: [...settings.ca] } : {}),
  };
  const proxy = settings.proxy;
  // Through a proxy: one agent for both schemes; its TLS options apply to the endpoint (and to an https proxy).
  const viaProxy =
    proxy &&
    new HttpsProxyAgent(proxy.url, {
      keepAlive: true,
      maxSockets,
      ...tls,
      ...(proxy.authorization ? { headers: { 'Proxy-Authorization': proxy.authorization } } : {}),
    });
  return {
    httpAgent: viaProxy || new http.Agent({ keepAlive: true, maxSockets }),
    httpsAgent: viaProxy || new https.Agent({ keepAlive: true, maxSockets, ...tls }),
    connectionTimeout: settings.connectionTimeoutMs ?? 10_000,
    requestTimeout: settings.requestTimeoutMs ?? 60_000,
  };
}

/**
 * Requests that change something and are not safe to send twice: starting a multipart upload (a second
 * one leaves an orphan) and committing one (a lost answer may hide a commit that happened). The SDK retries
 * failed requests (maxAttempts), even after they were sent; for these a failure is rethrown as one the
 * SDK does not retry (no status, no transient code, no cause), keeping the original beside it. Parts and whole-object
 * PUTs carry the same bytes each time, so a retry of them changes nothing more.
 */
const NOT_RETRIED = new Set(['CreateMultipartUploadCommand', 'CompleteMultipartUploadCommand']);

class NotRetriedError extends Error {
  override readonly name = 'NotRetriedError';
  constructor(readonly original: unknown) {
    // Not `cause`: the SDK looks through a cause for a transient error and would retry after all.
    super(original instanceof Error ? original.message : String(original));
  }
}

/**
 * The SDK warns once per process, on Node older than 22, that its releases published after the first week of
 * January 2027 will require Node 22. VS Code 1.100, the oldest we support, runs Node 20: package.json pins
 * the SDK (client-s3, s3-request-presigner and core) to versions published before then, which support it, so
 * the warning is about updates we do not take. Marked as given in our bundled copy only (dist/s3.js), so it
 * neither reaches the shared extension host's log nor changes the environment other extensions see.
 */
sdkNodeVersionWarning.warningEmitted = true;

export function createS3Client(creds: S3Credentials, settings: S3HttpSettings = {}): S3Client {
  const client = new S3Client({
    endpoint: creds.endpoint,
    region: creds.region || 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: s3RequestHandler(settings),
    maxAttempts: 3,
  });
  // The SDK's logger middleware copies every input and output through their schemas to hand them to the
  // logger, even with no logger configured (none is: nothing of S3 is logged by the SDK); a tenth of the
  // client's CPU per small GET on this machine.
  client.middlewareStack.remove('loggerMiddleware');
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!NOT_RETRIED.has(context.commandName ?? '')) return next(args);
      try {
        return await next(args);
      } catch (e) {
        const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        // A refusal (4xx but 429) is final anyway and keeps its shape (a 403 re-reads the keys).
        if (status !== undefined && status < 500 && status !== 429) throw e;
        throw new NotRetriedError(e);
      }
    },
    // Inside the SDK's retry loop (finalizeRequest, high), around the sending and the reading of the answer.
    { step: 'finalizeRequest', name: 'tensorpoolNotRetried', priority: 'low' },
  );
  return client;
}

/** `s3://bucket/key` */
export function s3Uri(bucket: string, key = ''): string {
  return `s3://${bucket}/${key}`;
}

/** `remote:bucket/key` for rclone. */
export function rclonePath(remote: string, bucket: string, key = ''): string {
  return `${remote}:${bucket}${key ? `/${key}` : ''}`;
}
