/**
 * The extension's state tables against package.json and each other: the context keys the when-clauses
 * use, the settings' defaults, the globalState keys; and the gate that keeps the test API out of a
 * production install.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONTEXT_KEY_DEFAULTS, ContextKeys } from '../../src/vscode/shared/contextKeys';
import { MIN_REFRESH_INTERVAL_S, SETTING_DEFAULTS } from '../../src/vscode/shared/settingDefaults';
import { SECRET_KEYS, STORED_KEYS, StoredState, WORKSPACE_KEYS } from '../../src/vscode/shared/storedState';
import { unlessProduction } from '../../src/vscode/testing/testApi';

interface Manifest {
  contributes: {
    configuration: { properties: Record<string, { default?: unknown; minimum?: number }> };
  } & Record<string, unknown>;
}

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

/** Every when/enablement clause anywhere under contributes, and the walkthrough's onContext: events. */
function clauses(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) clauses(n, out);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'when' || k === 'enablement') && typeof v === 'string') out.push(v);
      else if (k === 'completionEvents' && Array.isArray(v)) {
        // Walkthrough steps: `onContext:<clause>` completes a step when the clause holds.
        for (const e of v as string[]) if (e.startsWith('onContext:')) out.push(e.slice('onContext:'.length));
      } else clauses(v, out);
    }
  return out;
}

/** The context keys a clause reads (the left side of each comparison, or a bare/negated key). */
function keysIn(clause: string): string[] {
  return clause
    .split(/&&|\|\|/)
    .map((term) => term.trim().replace(/^[!(\s]+/, ''))
    .map((term) => term.split(/\s*(?:==|!=|=~|>=|<=|>|<|\bin\b|\bnot in\b)\s*/)[0].replace(/[)\s]+$/, ''));
}

describe('state tables', () => {
  it('the context-key table holds exactly the tensorpool.* keys package.json when/enablement clauses use', () => {
    const used = new Set(
      clauses(manifest.contributes)
        .flatMap(keysIn)
        .filter((k) => k.startsWith('tensorpool.')),
    );
    assert.ok(used.size > 0, 'found no tensorpool.* context key in package.json');
    // A list section's scope key is derived from its name (shared/listSection.ts): it names a view.
    const views = new Set(
      (manifest.contributes.views as { tensorpool: { id: string }[] }).tensorpool.map((v) => v.id),
    );
    const scopes = [...used].filter((k) => /^tensorpool\.\w+IncludeOrg$/.test(k));
    assert.ok(scopes.length >= 3, "the sections' scope keys are found");
    for (const k of scopes) {
      const view = k.replace(/IncludeOrg$/, '');
      assert.ok(views.has(view), `${k} is the scope key of a section whose view is ${view}`);
    }
    assert.deepEqual(
      [...used].filter((k) => !scopes.includes(k)).sort(),
      Object.keys(CONTEXT_KEY_DEFAULTS).sort(),
    );
  });

  it('every section view with Mine / Organisation menus uses its own derived scope key', () => {
    const menus = manifest.contributes.menus as Record<string, { when?: string }[]>;
    const titled = (menus['view/title'] ?? []).map((m) => m.when ?? '');
    for (const view of ['tensorpool.jobs', 'tensorpool.volumes', 'tensorpool.sshKeys']) {
      const own = titled.filter((w) => w.includes(`view == ${view}`) && /IncludeOrg/.test(w));
      assert.ok(own.length > 0, `${view} has scope menus`);
      for (const w of own) assert.ok(w.includes(`${view}IncludeOrg`), `${view}: ${w}`);
    }
  });

  it('a value in a clause is not taken for a key', () => {
    assert.deepEqual(keysIn('view == tensorpool.clusters && !tensorpool.includeOrg'), [
      'view',
      'tensorpool.includeOrg',
    ]);
    assert.deepEqual(keysIn('tensorpool.account == signedOut || !tensorpool.account'), [
      'tensorpool.account',
      'tensorpool.account',
    ]);
  });

  it('the settings table names every contributed tensorpool.* setting, with the same default', () => {
    const contributed = manifest.contributes.configuration.properties;
    const fromManifest = Object.fromEntries(
      Object.entries(contributed).map(([k, v]) => [k.replace(/^tensorpool\./, ''), v.default]),
    );
    assert.deepEqual(fromManifest, { ...SETTING_DEFAULTS });
    assert.equal(contributed['tensorpool.refreshInterval'].minimum, MIN_REFRESH_INTERVAL_S);
  });

  it('every stored key is listed once, starts with tensorpool., and is not a secret key', () => {
    assert.equal(new Set(STORED_KEYS).size, STORED_KEYS.length);
    for (const k of [...STORED_KEYS, ...WORKSPACE_KEYS]) assert.match(k, /^tensorpool\./);
    assert.ok(
      !WORKSPACE_KEYS.some((k) => (STORED_KEYS as readonly string[]).includes(k)),
      'one home per key',
    );
    for (const s of Object.values(SECRET_KEYS)) assert.ok(!(STORED_KEYS as readonly string[]).includes(s), s);
  });

  it('StoredState reads the fallback until a value is stored, then the value', async () => {
    const map = new Map<string, unknown>();
    const state = new StoredState({
      keys: () => [...map.keys()],
      get: <T>(k: string, d?: T) => (map.has(k) ? (map.get(k) as T) : d),
      update: async (k: string, v: unknown) => {
        if (v === undefined) map.delete(k);
        else map.set(k, v);
      },
    });
    assert.equal(state.get('tensorpool.includeOrg', false), false);
    assert.equal(state.get('tensorpool.sshIncludeDecision'), undefined);
    await state.update('tensorpool.includeOrg', true);
    await state.update('tensorpool.identityFiles', { c1: '/k' });
    assert.equal(state.get('tensorpool.includeOrg', false), true);
    assert.deepEqual(state.snapshot(), {
      'tensorpool.includeOrg': true,
      'tensorpool.identityFiles': { c1: '/k' },
    });
  });

  it('ContextKeys sends a value once per change and answers the default before the first set', async () => {
    const sent: Array<[string, unknown]> = [];
    const keys = new ContextKeys(async (k, v) => {
      sent.push([k, v]);
    });
    assert.equal(keys.get('tensorpool.account'), CONTEXT_KEY_DEFAULTS['tensorpool.account']);
    keys.set('tensorpool.account', 'checking');
    keys.set('tensorpool.account', 'checking');
    keys.set('tensorpool.account', 'signedIn');
    keys.set('tensorpool.includeOrg', false);
    assert.deepEqual(sent, [
      ['tensorpool.account', 'checking'],
      ['tensorpool.account', 'signedIn'],
      ['tensorpool.includeOrg', false],
    ]);
    assert.equal(keys.get('tensorpool.account'), 'signedIn');
  });

  it('a production-mode activation exposes no test API; development and test modes do', () => {
    // vscode.ExtensionMode: Production = 1, Development = 2, Test = 3.
    let built = 0;
    const build = () => ({ testing: ++built });
    assert.equal(unlessProduction(1, 1, build), undefined);
    assert.equal(built, 0, 'the surface is not even built in production');
    assert.deepEqual(unlessProduction(2, 1, build), { testing: 1 });
    assert.deepEqual(unlessProduction(3, 1, build), { testing: 2 });
  });
});
