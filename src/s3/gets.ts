/**
 * The GETs of a download. Most of the client's CPU per small object was the AWS SDK's own work around the
 * request (twenty-odd middlewares: endpoint rules, user agent, checksums, schema (de)serialisation), not
 * the signing or the transfer. A download's GETs therefore skip the middleware stack: each is signed by the
 * client's own SigV4 signer (`client.config.signer()`, the one the SDK signs with: same credentials, region,
 * clock offset) and sent by the client's own HTTP handler (`client.config.requestHandler`: the keep-alive
 * agents, TLS settings, proxy agent and timeouts of s3RequestHandler()). Only a 200/206 is taken from it;
 * anything else (an error status, a connection that failed) is asked again through the SDK's full path,
 * which has the retries, the typed errors (a 403 re-reads the keys, src/s3/session.ts) and the clock-skew
 * correction. A GET changes nothing, so asking again is safe.
 */
import { GetObjectCommand, type GetObjectCommandInput, type S3Client } from '@aws-sdk/client-s3';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

export interface GetResult {
  readonly Body?: unknown;
  readonly ContentLength?: number;
}

export type Get = (client: S3Client, input: GetObjectCommandInput) => Promise<GetResult>;

type Signer = Awaited<ReturnType<S3Client['config']['signer']>>;
type SignedRequest = Parameters<Signer['sign']>[0];

interface Pipeline {
  readonly signer: Signer;
  readonly region: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number;
  /** The endpoint's own path without its trailing `/` (usually empty). */
  readonly root: string;
  readonly host: string;
}

/**
 * GETs that share one resolved middleware stack per client (what the SDK's own `cacheMiddleware` does, which
 * it skips when a request has options such as an abort signal): the SDK otherwise builds and sorts the whole
 * stack again for every request. All GETs of one download carry the same signal, so the stack is built once.
 */
export function sdkGets(signal?: AbortSignal): Get {
  const handlers = new WeakMap<S3Client, ReturnType<GetObjectCommand['resolveMiddleware']>>();
  return async (client, input) => {
    const command = new GetObjectCommand(input);
    let handler = handlers.get(client);
    if (!handler) {
      handler = command.resolveMiddleware(client.middlewareStack, client.config, { abortSignal: signal });
      handlers.set(client, handler);
    }
    return (await handler(command)).output;
  };
}

/** encodeURIComponent plus the characters S3's path encoding also escapes (the SDK's own rule). */
function encodeSegment(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** How a client's GETs are signed and addressed; undefined without an endpoint (createS3Client() always sets it). */
async function pipeline(client: S3Client): Promise<Pipeline | undefined> {
  if (!client.config.endpoint) return undefined;
  const endpoint = await client.config.endpoint();
  const port = endpoint.port;
  return {
    signer: await client.config.signer(),
    region: await client.config.region(),
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    port,
    root: endpoint.path.replace(/\/+$/, ''),
    host: port === undefined ? endpoint.hostname : `${endpoint.hostname}:${port}`,
  };
}

/**
 * GETs signed and sent without the middleware stack (path-style, as createS3Client() configures every
 * client); anything but a 200/206 is asked again through `viaSdk` (the SDK's full path).
 */
export function signedGets(signal?: AbortSignal, viaSdk: Get = sdkGets(signal)): Get {
  const pipelines = new WeakMap<S3Client, Promise<Pipeline | undefined>>();
  return async (client, input) => {
    let pending = pipelines.get(client);
    if (!pending) {
      pending = pipeline(client);
      pipelines.set(client, pending);
    }
    const p = await pending;
    if (!p) return viaSdk(client, input);
    const key = (input.Key ?? '').split('/').map(encodeSegment).join('/');
    const request: SignedRequest = {
      method: 'GET',
      protocol: p.protocol,
      hostname: p.hostname,
      port: p.port,
      path: `${p.root}/${encodeSegment(input.Bucket ?? '')}/${key}`,
      query: {},
      headers: input.Range ? { host: p.host, range: input.Range } : { host: p.host },
    };
    let response: { statusCode: number; headers: Record<string, string>; body?: unknown };
    try {
      const signed = await p.signer.sign(request, {
        signingDate: new Date(Date.now() + (client.config.systemClockOffset ?? 0)),
        signingRegion: p.region,
        signingService: 's3',
      });
      ({ response } = (await client.config.requestHandler.handle(signed, { abortSignal: signal })) as {
        response: typeof response;
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      return viaSdk(client, input);
    }
    if (response.statusCode !== 200 && response.statusCode !== 206) {
      (response.body as IncomingMessage | undefined)?.resume();
      return viaSdk(client, input);
    }
    const length = response.headers['content-length'];
    return {
      Body: response.body as Readable,
      ContentLength: length === undefined ? undefined : Number(length),
    };
  };
}
