/**
 * The real nvidia-smi captures (test/fixtures/nvidia-smi/, an H200 with driver 580.159.04) read into
 * sections: each `### <command>` line starts one, an optional `### exit N` ends it with its status.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/nvidia-smi');

export interface Section {
  command: string;
  output: string;
  exit: number | undefined;
}

export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}

function sections(name: string): Section[] {
  const out: Section[] = [];
  let current: { command: string; lines: string[]; exit?: number } | undefined;
  const close = () => {
    if (current) out.push({ command: current.command, output: current.lines.join('\n'), exit: current.exit });
    current = undefined;
  };
  for (const line of fixture(name).split('\n')) {
    const exit = /^### exit (\d+)$/.exec(line);
    if (exit && current) {
      current.exit = Number(exit[1]);
      close();
    } else if (line.startsWith('### ')) {
      close();
      current = { command: line.slice(4), lines: [] };
    } else current?.lines.push(line);
  }
  close();
  return out;
}

/** The one section whose command is exactly `command` (the test fails loudly when it is missing). */
export function section(name: string, command: string): Section {
  const found = sections(name).filter((s) => s.command === command);
  if (found.length !== 1) throw new Error(`${name}: ${found.length} sections for ${command}`);
  return found[0];
}

const QUERY =
  'index,uuid,name,utilization.gpu,utilization.memory,memory.used,memory.total,temperature.gpu,power.draw,power.limit';
export const GPU_QUERY = `nvidia-smi --query-gpu=${QUERY}`;
export const APPS_QUERY = 'nvidia-smi --query-compute-apps=gpu_uuid,pid,process_name,used_memory';
