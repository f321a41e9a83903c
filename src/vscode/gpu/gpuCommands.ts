/** GPU telemetry's commands whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { GpuMonitors } from './onUse';

export const GPU_COMMANDS: readonly ActionCommand<{ gpuMonitors: GpuMonitors }>[] = [
  [Commands.showGpuMonitor, (a, arg?: unknown) => a.gpuMonitors.show(arg)],
];
