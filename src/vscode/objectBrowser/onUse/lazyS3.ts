/**
 * The object-storage (S3) layer with the AWS SDK (dist/s3.js, ~1 MB) is not part of the activation bundle:
 * esbuild keeps this require external (esbuild.mjs, lazy-layers) and it loads the first time a bucket is
 * expanded or an object command runs.
 */
import type * as S3Module from '../../../s3';

export type S3Layer = typeof S3Module;

let loading: Promise<S3Layer> | undefined;

export function loadS3(): Promise<S3Layer> {
  loading ??= Promise.resolve().then(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see esbuild.mjs (lazy-layers)
    return require('../../../s3/index.js') as S3Layer;
  });
  return loading;
}
