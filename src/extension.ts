/**
 * The extension's entry (package.json "main", bundled as dist/extension.js): the composition root is
 * src/vscode/app/activate.ts, and this is the only file that imports it.
 */
export { activate, deactivate } from './vscode/app/activate';
export type { TensorPoolExtensionApi } from './vscode/app/activate';
export type { ActivationTimings } from './vscode/testing';
