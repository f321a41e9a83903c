// The l10n bundle in the repository (l10n/bundle.l10n.json, what translators start from and what a
// translation's keys must match) is the one `npm run l10n` exports from src/ as it is now.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exportRuntimeBundle } from '../harness/pseudoLocale';
import { REPO } from '../harness/util';

describe('the l10n bundle', () => {
  // One export of src/ for both checks: l10n-dev parses every file, some 20 s on a 2-core machine.
  let current: Awaited<ReturnType<typeof exportRuntimeBundle>>;
  before(async function () {
    this.timeout(120_000);
    current = await exportRuntimeBundle();
  });

  it('l10n/bundle.l10n.json holds exactly the strings src/ passes to l10n.t (run `npm run l10n` after a change)', () => {
    const committed = JSON.parse(
      fs.readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.json'), 'utf8'),
    ) as object;
    assert.deepEqual(Object.keys(committed).sort(), Object.keys(current).sort());
    assert.deepEqual(committed, current);
  });

  it('every message names its placeholders from {0} up, without gaps', () => {
    const bad = Object.keys(current).filter((message) => {
      const used = [...message.matchAll(/\{(\d+)\}/g)].map((m) => Number(m[1]));
      return used.some((n) => !used.includes(n - 1) && n > 0);
    });
    assert.deepEqual(bad, []);
  });
});
