// The entry file of the Object Storage section for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { BucketActions } from './buckets';
export { ObjectStorageActions } from './objectStorageActions';
export { StorageConfigController } from './storageConfig';
