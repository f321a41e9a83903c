/** The Object Storage section's commands whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { StorageNode } from './objectStorageTree';
import type { BucketActions, ObjectStorageActions, StorageConfigController } from './onUse';

export const OBJECT_STORAGE_COMMANDS: readonly ActionCommand<{
  buckets: BucketActions;
  storageConfig: StorageConfigController;
  storage: ObjectStorageActions;
}>[] = [
  [Commands.createBucket, (a) => a.buckets.createBucket()],
  [Commands.deleteBucket, (a, node?: StorageNode | string) => a.buckets.deleteBucketRow(node)],
  [Commands.configureAws, (a) => a.storageConfig.configureAws()],
  [Commands.configureRclone, (a) => a.storageConfig.configureRclone()],
  [Commands.copyStorageEnvironment, (a) => a.storageConfig.copyEnvironment()],
  [Commands.enableObjectStorage, (a) => a.storage.enable()],
  [Commands.disableObjectStorage, (a) => a.storage.disable()],
  [Commands.rotateObjectStorageKeys, (a) => a.storage.rotate(() => a.storageConfig.afterRotation())],
  [Commands.showObjectStorageCredentials, (a) => a.storage.showDetails()],
  [Commands.copyStorageEndpoint, (a) => a.storage.copy('endpoint')],
  [Commands.copyStorageRegion, (a) => a.storage.copy('region')],
  [Commands.copyStorageAccessKeyId, (a) => a.storage.copy('access_key_id')],
  [Commands.copyStorageSecretKey, (a) => a.storage.copySecret()],
  [Commands.copyStorageValue, (a, node?: StorageNode) => a.storage.copyValue(node)],
];
