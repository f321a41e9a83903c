// The entry file of GPU telemetry: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { gpuItem, gpuTooltipLines, nodeGpuLook } from './gpuRows';
export type { GpuSampler, NodeTarget } from './gpuSampler';
export { makeGpuSampler, setupGpu } from './gpuSetup';
export type { GpuFeature, GpuSessions } from './gpuSetup';
export { GPU_COMMANDS } from './gpuCommands';
