// globalState as the extension keeps it (src/vscode/shared/storedState.ts). VS Code sends each stored write of
// an extension's globalState back to its extension host, which replaces its whole in-memory state with what
// it receives (ExtHostStorage.$acceptValue). An update made while an earlier write was still on its way was
// undone by that echo, in memory and then on disk: seen as a cluster's key file forgotten, so the SSH
// terminal logged in without `-i`. Here the echo of the earlier write is delivered by the same entry point
// the main thread calls, at the moment it hurts, so the interleaving happens every run.
import * as assert from 'node:assert/strict';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { api } from './control';
import { EXTENSION_ID } from './helpers';

/**
 * The pieces of VS Code's own memento this test drives: the storage it listens to (whose `$acceptValue` is
 * what the main thread calls), the extension's id in it, and the state it holds. Newer builds keep the
 * names (`_storage`, `_id`, `_value`); older ones shorten them, so they are found by what they are.
 */
function mementoInternals(memento: object): {
  accept(raw: string): void;
  held(): Record<string, unknown>;
} {
  const fields = memento as Record<string, unknown>;
  const storage = Object.values(fields).find(
    (v): v is { $acceptValue(shared: boolean, key: string, raw: string): void } =>
      typeof (v as { $acceptValue?: unknown } | undefined)?.$acceptValue === 'function',
  );
  const id = Object.values(fields).find(
    (v): v is string => typeof v === 'string' && v.toLowerCase() === EXTENSION_ID,
  );
  const heldKey = Object.keys(fields).find((k) => {
    const v = fields[k];
    return typeof v === 'object' && v !== null && 'tensorpool.remoteFolders' in v;
  });
  assert.ok(storage && id && heldKey, 'VS Code’s memento still takes echoes through $acceptValue');
  return {
    accept: (raw) => storage.$acceptValue(true, id, raw),
    held: () => fields[heldKey] as Record<string, unknown>,
  };
}

suite('Stored state: a write is never undone by the echo of an earlier one', () => {
  let ext: TensorPoolExtensionApi;
  let before: { folders: unknown; dontAsk: unknown };

  suiteSetup(async () => {
    ext = await api();
    const s = ext.testing.storedState;
    before = { folders: s.get('tensorpool.remoteFolders'), dontAsk: s.get('tensorpool.idleGuardDontAsk') };
  });
  suiteTeardown(async () => {
    const s = ext.testing.storedState;
    await s.update('tensorpool.remoteFolders', before.folders as Record<string, string> | undefined);
    await s.update('tensorpool.idleGuardDontAsk', before.dontAsk as string[] | undefined);
  });

  test('a key written while another key’s write is on its way keeps its value, read at once and once stored', async () => {
    const s = ext.testing.storedState;
    await s.update('tensorpool.remoteFolders', {});
    const m = mementoInternals((s as unknown as { memento: object }).memento);

    for (let i = 0; i < 5; i++) {
      const first = s.update('tensorpool.remoteFolders', { round: String(i) });
      // What the main thread will echo for the first write: the state with it, without what follows.
      const echo = JSON.stringify({ ...m.held(), 'tensorpool.remoteFolders': { round: String(i) } });
      const second = s.update('tensorpool.idleGuardDontAsk', [`c-${i}`]);
      m.accept(echo);
      assert.deepEqual(s.get('tensorpool.idleGuardDontAsk'), [`c-${i}`], 'read at once');
      await Promise.all([first, second]);
      assert.deepEqual(s.get('tensorpool.idleGuardDontAsk'), [`c-${i}`], 'once both are stored');
      assert.deepEqual(s.get('tensorpool.remoteFolders'), { round: String(i) });
      // A later write of a third key stores the whole state again: the second key is still in it.
      await s.update('tensorpool.walkthroughOffered', true);
      assert.deepEqual(m.held()['tensorpool.idleGuardDontAsk'], [`c-${i}`], 'what VS Code holds and stores');
    }
  });
});
