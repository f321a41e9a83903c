// The pseudo-localised run (test/harness/runUi.ts runs these in a window whose display language is
// qps-ploc, see test/harness/pseudoLocale.ts): the extension's screens, signed out and signed in, each
// section with the engine's data, the sign-in box, a notification, a wizard step and its validation
// message. On each screen the extension's regions must show no English word that is not data
// (test/ui/pseudoCheck.ts); every screen is a screenshot (test-results/vscode-<version>/pseudo-*.png).
import * as assert from 'node:assert/strict';
import { KNOWN_INSTANCE_TYPES } from '../../src/model/validate';
import { asciiWords, untranslatedText, type PseudoText } from './pseudoCheck';
import type { UiContext, UiTest } from './types';

/**
 * Words of dates and relative times: the extension formats them with Intl in the display language, and
 * Intl has no data for qps-ploc, so they come out in English ("3 minutes ago", "Nov 24, 2026, 1:05 PM").
 */
const INTL_WORDS = (() => {
  const words = new Set<string>();
  const add = (text: string) => asciiWords(text).forEach((w) => words.add(w.toLowerCase()));
  for (let m = 0; m < 12; m++) {
    const d = new Date(Date.UTC(2026, m, 1 + m, 13));
    add(d.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' }));
    add(d.toLocaleString('en', { month: 'long', weekday: 'long' }));
  }
  const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const unit of ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const)
    for (const n of [-2, -1, 0, 1, 2]) add(relative.format(n, unit));
  return words;
})();

const DATA_PATHS = [
  '/me',
  '/cluster/list',
  '/job/list',
  '/storage/list',
  '/user/ssh-key/list',
  '/object-storage/credentials',
  '/object-storage/bucket/list',
];

function strings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/** Words of everything the engine holds (names, ids, types, regions, statuses as sent), lower case. */
async function dataWords(ctx: UiContext): Promise<Set<string>> {
  const words = new Set(INTL_WORDS);
  // The instance types the create wizard offers (data the service's docs name, not text of ours).
  for (const type of KNOWN_INSTANCE_TYPES) for (const w of asciiWords(type)) words.add(w.toLowerCase());
  for (const p of DATA_PATHS) {
    const body = await ctx.engine.get(p).catch(() => undefined);
    for (const s of strings(body, [])) for (const w of asciiWords(s)) words.add(w.toLowerCase());
  }
  return words;
}

async function checkScreen(ctx: UiContext, p: PseudoText, shot: string): Promise<void> {
  const found = await untranslatedText(ctx.workbench, await dataWords(ctx));
  ctx.log(`screenshot ${await ctx.workbench.screenshot(`pseudo-${shot}`)}`);
  assert.ok(p, 'pseudo-localised run');
  assert.deepEqual(
    found.map((f) => `${f.region}: "${f.word}" in "${f.line}"`),
    [],
    'English text on a pseudo-localised screen',
  );
}

function pseudo(ctx: UiContext): PseudoText {
  assert.ok(ctx.pseudo, 'these flows run in the pseudo-localised window only');
  return ctx.pseudo;
}

export const tests: UiTest[] = [
  {
    name: 'pseudo-localised: the signed-out view',
    async run(ctx) {
      const p = pseudo(ctx);
      await ctx.workbench.ready(p.m('TensorPool'));
      await ctx.workbench.openViewContainer(p.m('TensorPool'), p.m('Clusters'));
      await ctx.workbench.page
        .locator('[id="workbench.parts.sidebar"] .welcome-view-content')
        .first()
        .waitFor({ timeout: 15_000 });
      await checkScreen(ctx, p, '01-signed-out');
    },
  },
  {
    name: 'pseudo-localised: sign in, the box and the notification',
    async run(ctx) {
      const p = pseudo(ctx);
      await ctx.workbench.runCommand(`${p.m('TensorPool')}: ${p.m('Sign In')}`);
      await ctx.workbench.waitForQuickInput(
        p.m('Paste your TensorPool API token (from the account dashboard; the link button opens it).'),
      );
      await checkScreen(ctx, p, '02-sign-in-box');
      await ctx.workbench.page.keyboard.type(ctx.engine.token);
      await ctx.workbench.acceptInput();
      await ctx.workbench.notification(p.re('Signed in to TensorPool as {0}.'));
      await checkScreen(ctx, p, '03-signed-in');
    },
  },
  {
    name: 'pseudo-localised: every section with the engine data',
    async run(ctx) {
      const p = pseudo(ctx);
      const pairs: Array<[string, string]> = [
        ['Clusters', 'Jobs'],
        ['Volumes', 'SSH Keys'],
        ['Object Storage', 'Clusters'],
      ];
      for (const [i, [a, b]] of pairs.entries()) {
        await ctx.workbench.showSections(p.m(a), p.m(b));
        await ctx.workbench.sidebarRows().first().waitFor({ timeout: 15_000 });
        await ctx.workbench.page.waitForTimeout(1500);
        await checkScreen(ctx, p, `1${i}-sections-${a.toLowerCase().replace(/\W+/g, '-')}`);
      }
    },
  },
  {
    name: 'pseudo-localised: a wizard step and its validation message',
    async run(ctx) {
      const p = pseudo(ctx);
      await ctx.workbench.runCommand(`${p.m('TensorPool')}: ${p.m('Create Cluster…')}`);
      await ctx.workbench.waitForQuickInput(
        p.m('GPU instance type: pick one, or type another as <count>x<model> (e.g. 8xH100)'),
      );
      await checkScreen(ctx, p, '20-wizard-first-step');
      await ctx.workbench.pickQuickItem('2xH100');
      await ctx.workbench.waitForQuickInput(p.re('Number of nodes (each node is one {0})'));
      await ctx.workbench.replaceQuickInputText('0');
      await ctx.workbench.page
        .locator('.quick-input-widget .quick-input-message')
        .filter({ hasText: /\S/ })
        .first()
        .waitFor({ timeout: 10_000 });
      await checkScreen(ctx, p, '21-wizard-validation');
      await ctx.workbench.page.keyboard.press('Escape');
    },
  },
];
