/**
 * The object-storage (S3) layer, bundled as dist/s3.js and loaded the first time a bucket is expanded
 * (src/vscode/objectBrowser/onUse/lazyS3.ts). No `vscode` import.
 */
export {
  createS3Client,
  s3RequestHandler,
  s3Uri,
  rclonePath,
  type S3Credentials,
  type S3HttpSettings,
} from './client';
export { KeysRejectedError, isKeyRejected, isAbort, s3ErrorMessage, s3Status } from './errors';
export { S3Session, type CredentialSource } from './session';
export { listPage, listAll, baseName, PAGE_SIZE, type ListPage, type S3Object } from './list';
export {
  uploadFile,
  uploadFiles,
  folderItems,
  fileItem,
  PART_SIZE,
  type UploadItem,
  type UploadResult,
  type Existing,
} from './upload';
export { downloadMany, downloadTo, localNames, planDownload, type DownloadOutcome } from './download';
export {
  objectsUnder,
  deleteKeys,
  readObject,
  headObject,
  presignGet,
  PRESIGN_EXPIRY,
  MAX_READ_BYTES,
} from './objects';
