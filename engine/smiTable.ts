// The plain `nvidia-smi` table, in the layout of the real tool (test/fixtures/nvidia-smi/idle-table.txt
// and busy-table.txt: driver 580): a header box, one three-line block per GPU, then the processes box.

import { CUDA_VERSION, DRIVER_VERSION } from './gpuSpecs';
import type { NodeNow } from './smiLoad';

const WIDE = `+${'-'.repeat(89)}+`;
const SPLIT = `+${'-'.repeat(41)}+${'-'.repeat(24)}+${'-'.repeat(22)}+`;
const DOUBLE = `|${'='.repeat(41)}+${'='.repeat(24)}+${'='.repeat(22)}|`;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (n: number) => String(n).padStart(2, '0');
const fit = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 3)}...` : text.padEnd(width);

/** `Fri Nov 27 10:14:22 2026` (C's asctime, local time), then the tool's trailing spaces. */
function stamp(d: Date): string {
  const day = String(d.getDate()).padStart(2, ' ');
  const time = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  return `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${day} ${time} ${d.getFullYear()}       `;
}

export function table(node: NodeNow, now: Date): string {
  const out: string[] = [stamp(now), WIDE];
  const head = `NVIDIA-SMI ${DRIVER_VERSION}`.padEnd(34) + `Driver Version: ${DRIVER_VERSION}`.padEnd(31);
  out.push(`| ${`${head}CUDA Version: ${CUDA_VERSION}`.padEnd(88)}|`);
  out.push(
    SPLIT,
    '| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |',
    '| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |',
    '|                                         |                        |               MIG M. |',
    DOUBLE,
  );
  for (const g of node.gpus) {
    const power = g.powerDrawW === undefined ? 'N/A' : `${Math.round(g.powerDrawW)}W`;
    const util = g.utilGpu === undefined ? 'N/A' : `${g.utilGpu}%`;
    out.push(
      `|${String(g.index).padStart(4)}  ${fit(g.name, 29)}  On  |   ${g.busId} Off |${'0'.padStart(21)} |`,
      `| N/A  ${String(g.temperatureC).padStart(3)}C    P0 ${power.padStart(15)} / ${`${g.powerLimitW}W`.padStart(5)} |` +
        `${`${g.memoryUsedMiB}MiB`.padStart(11)} / ${`${g.memoryTotalMiB}MiB`.padStart(9)} |` +
        `${util.padStart(8)}      Default |`,
      `|${' '.repeat(41)}|${' '.repeat(24)}|${'Disabled'.padStart(21)} |`,
      SPLIT,
    );
  }
  out.push(
    '',
    WIDE,
    `| ${'Processes:'.padEnd(88)}|`,
    '|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |',
    '|        ID   ID                                                               Usage      |',
    `|${'='.repeat(89)}|`,
  );
  if (node.procs.length === 0) out.push(`|  ${'No running processes found'.padEnd(87)}|`);
  for (const p of node.procs) {
    out.push(
      `|${String(p.gpu).padStart(5)}   N/A  N/A ${String(p.pid).padStart(15)}      C   ` +
        `${fit(p.name, 37)}${`${p.usedMemoryMiB}MiB`.padStart(9)} |`,
    );
  }
  out.push(WIDE);
  return `${out.join('\n')}\n`;
}
