// A full garbage collection in the extension host, for the bench's heap figures: global.gc when the host
// exposes it, else the V8 flag set at run time (Node allows it); undefined when neither works.
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

export function collector(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    v8.setFlagsFromString('--expose_gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}
