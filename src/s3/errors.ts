/** What an S3 failure means for the user; the SDK's messages carry no secrets (never the signature). */
import * as l10n from '@vscode/l10n';

interface SdkError {
  readonly name?: string;
  readonly message?: string;
  readonly Code?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

const KEY_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden']);

export function s3Status(e: unknown): number | undefined {
  return (e as SdkError | undefined)?.$metadata?.httpStatusCode;
}

/** A 403 (or the codes S3 gives for keys it no longer accepts). */
export function isKeyRejected(e: unknown): boolean {
  const err = e as SdkError | undefined;
  return s3Status(e) === 403 || KEY_ERRORS.has(err?.name ?? '') || KEY_ERRORS.has(err?.Code ?? '');
}

export function isAbort(e: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (e as SdkError | undefined)?.name === 'AbortError';
}

/** The keys were re-read once and S3 still refuses them. */
export class KeysRejectedError extends Error {
  constructor(cause: unknown) {
    super(l10n.t('The object-storage keys no longer work ({0}).', s3ErrorMessage(cause)));
    this.name = 'KeysRejectedError';
  }
}

export function s3ErrorMessage(e: unknown): string {
  const err = e as SdkError | undefined;
  const status = s3Status(e);
  // The proxy's own refusal of the tunnel (https-proxy-agent hands its answer to the request).
  if (status === 407)
    return l10n.t(
      'The proxy requires authentication (407): check http.proxyAuthorization, or the credentials in http.proxy.',
    );
  const code = err?.Code ?? err?.name;
  const text = err?.message && err.message !== 'UnknownError' ? err.message : undefined;
  return (
    [code && code !== 'Error' ? code : undefined, text, status ? `HTTP ${status}` : undefined]
      .filter(Boolean)
      .join(': ') || String(e)
  );
}
