// POST /_engine/priority {nice}: the engine process's CPU priority (its main thread, where it does its work).
// The engine stands in for TensorPool's servers, which run elsewhere: a benchmark that has it produce work as
// fast as it can (a job printing 100,000 lines) may lower its priority so that its CPU does not compete with the
// extension host on the machine under test as a remote service's would not (test/bench/host/jobLog.ts).
import * as os from 'node:os';
import { json, type Reply } from './http';

export function setPriority(body: Record<string, unknown>): Reply {
  const nice = body.nice;
  if (typeof nice !== 'number' || !Number.isInteger(nice) || nice < -20 || nice > 19)
    return json(400, { error: 'nice must be an integer from -20 to 19' });
  try {
    os.setPriority(nice);
  } catch (e) {
    // Raising the priority again needs privileges (root or CAP_SYS_NICE).
    return json(409, { error: `setpriority(${nice}): ${(e as Error).message}`, nice: os.getPriority() });
  }
  return json(200, { ok: true, nice: os.getPriority() });
}
