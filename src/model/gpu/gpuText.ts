/**
 * The words of the GPU rows in the Clusters tree: a GPU's row, the node's state when it has no figures
 * to show, and the Markdown table of a node's tooltip. Pure: no I/O, no vscode.
 */
import * as l10n from '@vscode/l10n';
import type { NodeGpuState } from './smiParse';
import type { GpuProcess, GpuReading } from './smiValues';
import { shortModelName } from './aggregate';
import { escapeMarkdown } from '../shownText';

const dash = '–';
const num = (v: number | undefined, unit: string) => (v === undefined ? dash : `${Math.round(v)}${unit}`);
const gb = (mib: number | undefined) =>
  mib === undefined ? dash : String(Math.round((mib / 1024) * 10) / 10);

/** `GPU 0 · H100`. */
export function gpuRowLabel(g: GpuReading): string {
  const model = shortModelName(g.name);
  return model ? l10n.t('GPU {0} · {1}', g.index, model) : l10n.t('GPU {0}', g.index);
}

/** `87% · 61.2/79.6 GB · 45 °C · 300/700 W` (`–` for a figure the tool did not give). */
export function gpuRowDescription(g: GpuReading): string {
  return [
    num(g.utilizationGpu, '%'),
    l10n.t('{0}/{1} GB', gb(g.memoryUsedMiB), gb(g.memoryTotalMiB)),
    num(g.temperatureC, ' °C'),
    `${num(g.powerDrawW, '')}/${num(g.powerLimitW, ' W')}`,
  ].join(' · ');
}

/** The node row's words when its state is not a set of GPU figures. */
export function nodeStateWords(state: NodeGpuState): string | undefined {
  switch (state.kind) {
    case 'ok':
      return undefined;
    case 'no-gpus':
      return l10n.t('no GPUs');
    case 'driver-failure':
    case 'error':
      return state.message;
  }
}

const cell = escapeMarkdown;

/** A Markdown table: one line per GPU, then the processes on each. */
export function gpuTable(gpus: readonly GpuReading[], processes: readonly GpuProcess[] = []): string {
  const head = [
    l10n.t('GPU'),
    l10n.t('Utilization'),
    l10n.t('Memory (GB)'),
    l10n.t('Temperature'),
    l10n.t('Power (W)'),
    l10n.t('Processes'),
  ];
  const rows = gpus.map((g) => {
    const procs = processes.filter((p) => p.gpuUuid === g.uuid).map((p) => `${p.pid} ${p.name}`);
    return [
      cell(gpuRowLabel(g)),
      num(g.utilizationGpu, '%'),
      `${gb(g.memoryUsedMiB)}/${gb(g.memoryTotalMiB)}`,
      num(g.temperatureC, ' °C'),
      `${num(g.powerDrawW, '')}/${num(g.powerLimitW, '')}`,
      cell(procs.join(', ')) || dash,
    ];
  });
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
