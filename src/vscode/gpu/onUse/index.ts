// The entry file of GPU telemetry for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { GpuMonitorState } from './gpuMonitor';
export { GpuMonitors } from './gpuMonitors';
export { IdleWatch } from './idleWatch';
export type { IdleWatchTiming } from './idleWatch';
export { nodeTargets, spawnSsh } from './nodeTargets';
