/**
 * One S3 client for the current credentials. A request refused with 403 (keys rotated in another window or
 * by a teammate) re-reads the credentials once (GET /object-storage/credentials, through the caller's
 * `credentials(true)`) and runs again with a new client; still refused: KeysRejectedError. A refused request
 * did nothing, so running it again is safe.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, type S3Credentials, type S3HttpSettings } from './client';
import { KeysRejectedError, isKeyRejected } from './errors';

export type CredentialSource = (fresh: boolean) => Promise<S3Credentials>;

export class S3Session {
  private client: Promise<{ creds: S3Credentials; client: S3Client }> | undefined;
  /** How often the credentials were read again after a 403 (tests and the log). */
  rereads = 0;

  constructor(
    private readonly source: CredentialSource,
    /** The transport, or how to choose it for the credentials' endpoint (a proxy depends on the host). */
    private readonly settings: S3HttpSettings | ((creds: S3Credentials) => Promise<S3HttpSettings>) = {},
  ) {}

  /** Run `op` with the client; on a 403 re-read the keys once and run it again. */
  async run<T>(op: (client: S3Client) => Promise<T>): Promise<T> {
    const first = await this.current(false);
    try {
      return await op(first.client);
    } catch (e) {
      if (!isKeyRejected(e)) throw e;
      const again = await this.renew(first.creds);
      try {
        return await op(again.client);
      } catch (e2) {
        if (isKeyRejected(e2)) throw new KeysRejectedError(e2);
        throw e2;
      }
    }
  }

  /** The credentials in use (for presigning, rclone paths). */
  async credentials(): Promise<S3Credentials> {
    return (await this.current(false)).creds;
  }

  async current(fresh: boolean): Promise<{ creds: S3Credentials; client: S3Client }> {
    if (fresh || !this.client) {
      const loading = this.source(fresh).then(async (creds) => ({
        creds,
        client: createS3Client(
          creds,
          typeof this.settings === 'function' ? await this.settings(creds) : this.settings,
        ),
      }));
      this.client = loading;
      loading.catch(() => {
        if (this.client === loading) this.client = undefined;
      });
    }
    return this.client;
  }

  /** Several requests refused at once re-read the keys once, not once each. */
  private async renew(used: S3Credentials): Promise<{ creds: S3Credentials; client: S3Client }> {
    const now = await this.current(false);
    if (now.creds.accessKeyId !== used.accessKeyId || now.creds.secretAccessKey !== used.secretAccessKey)
      return now;
    this.rereads++;
    return this.current(true);
  }

  dispose(): void {
    void this.client?.then(
      (c) => c.client.destroy(),
      () => undefined,
    );
    this.client = undefined;
  }
}
