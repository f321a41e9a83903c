// Cluster rows at the side bar's default width: the state word leads the description and is fully
// visible (not cut by the end of the row, nor hidden by the inline buttons of a focused, hovered row).
// Measured on the rendered text: the box of the description's first word against the row's clip box.
import * as assert from 'node:assert/strict';
import type { Locator } from '../harness/playwright';
import type { UiContext, UiTest } from './types';
import { signedIn } from './given';

interface RowMeasure {
  text: string;
  word: string;
  wordRight: number;
  /** Where the row's text stops being readable (its clip box, less an ellipsis when it overflows). */
  clipRight: number;
  actionsLeft: number | null;
}

// In-page code: only the DOM calls used here, typed by hand (the test project has no DOM library).
interface Rect {
  left: number;
  right: number;
  width: number;
}
interface TextNode {
  data: string;
}
interface Doc {
  createTreeWalker(root: El, whatToShow: number): { nextNode(): TextNode | null };
  createElement(tag: string): El;
  createRange(): {
    setStart(node: TextNode, offset: number): void;
    setEnd(node: TextNode, offset: number): void;
    getBoundingClientRect(): Rect;
  };
}
interface El {
  querySelector(selector: string): El | null;
  getBoundingClientRect(): Rect;
  textContent: string | null;
  ownerDocument: Doc;
  scrollWidth: number;
  clientWidth: number;
  appendChild(child: El): void;
  remove(): void;
}

/** Where the first word of a row's description ends, and where the row stops showing text. The
 * function runs in the page: it may use nothing from this module. */
async function measure(row: Locator): Promise<RowMeasure> {
  return row.evaluate((el: El) => {
    const desc = el.querySelector('.label-description');
    const clip = el.querySelector('.monaco-icon-label-container') ?? el;
    const first = el.ownerDocument.createTreeWalker(desc ?? el, 4 /* NodeFilter.SHOW_TEXT */).nextNode();
    const word = (first?.data ?? '').split(' · ')[0];
    let wordRight = Number.POSITIVE_INFINITY;
    if (first && word) {
      const range = el.ownerDocument.createRange();
      range.setStart(first, 0);
      range.setEnd(first, word.length);
      wordRight = range.getBoundingClientRect().right;
    }
    // When the row's text overflows, CSS draws "…" over its last visible characters: leave room for it.
    let ellipsis = 0;
    if (desc && clip.scrollWidth > clip.clientWidth) {
      const probe = el.ownerDocument.createElement('span');
      probe.textContent = '…';
      desc.appendChild(probe);
      ellipsis = probe.getBoundingClientRect().width;
      probe.remove();
    }
    const a = el.querySelector('.actions .actions-container')?.getBoundingClientRect();
    return {
      text: `${el.querySelector('.label-name')?.textContent ?? ''} | ${desc?.textContent ?? ''}`,
      word,
      wordRight,
      clipRight: clip.getBoundingClientRect().right - ellipsis,
      actionsLeft: a && a.width > 0 ? a.left : null,
    };
  });
}

function assertVisible(m: RowMeasure): void {
  assert.match(m.word, /^[a-z][a-z ]*…?$/, `the description starts with a state word: ${m.text}`);
  assert.ok(
    m.wordRight <= m.clipRight + 0.5,
    `"${m.word}" cut off (${m.wordRight} > ${m.clipRight}): ${m.text}`,
  );
  if (m.actionsLeft !== null)
    assert.ok(m.wordRight <= m.actionsLeft + 0.5, `"${m.word}" under the inline buttons: ${m.text}`);
}

function clusterRows(ctx: UiContext): Locator {
  // Top-level rows of the Clusters view with a description ("running · 8xH100 × 2").
  return ctx.workbench.page.locator(
    '[id="workbench.parts.sidebar"] .pane:has(.pane-header:has-text("Clusters")) ' +
      '.monaco-list-row[aria-level="1"]:has(.label-description)',
  );
}

export const tests: UiTest[] = [
  {
    name: 'cluster rows show their state word in full at the default side-bar width',
    async run(ctx) {
      await signedIn(ctx);
      const { workbench, log } = ctx;
      await workbench.showSections('Clusters');
      await workbench
        .sidebarRows()
        .filter({ hasText: /llm-train-8xh100\s*running/ })
        .first()
        .waitFor({ timeout: 20_000 });
      const width = await workbench.page
        .locator('[id="workbench.parts.sidebar"]')
        .evaluate((el: El) => el.getBoundingClientRect().width);
      log(`side bar width: ${Math.round(width)} px (default layout, not resized)`);
      const rows = clusterRows(ctx);
      const count = await rows.count();
      assert.ok(count >= 3, `cluster rows shown: ${count}`);
      for (let i = 0; i < count; i++) {
        const m = await measure(rows.nth(i));
        log(
          `row: ${m.text} -> "${m.word}" ends at ${Math.round(m.wordRight)}, row text ends at ${Math.round(m.clipRight)}`,
        );
        assertVisible(m);
      }
      log(`screenshot ${await workbench.screenshot('40-cluster-rows-default-width')}`);
    },
  },
  {
    name: 'the inline buttons of a focused, hovered row leave its state word visible',
    async run(ctx) {
      const { workbench, log } = ctx;
      const rows = clusterRows(ctx);
      const count = await rows.count();
      let checked = 0;
      for (let i = 0; i < count; i++) {
        const row = rows.nth(i);
        await row.click();
        await row.hover();
        await workbench.page.waitForTimeout(200);
        const m = await measure(row);
        log(
          `focused row: ${m.text} -> "${m.word}" ends at ${Math.round(m.wordRight)}, buttons start at ${m.actionsLeft === null ? 'none' : Math.round(m.actionsLeft)}`,
        );
        assertVisible(m);
        if (m.actionsLeft !== null) checked++;
        if (i === 0) log(`screenshot ${await workbench.screenshot('41-cluster-row-focused')}`);
      }
      assert.ok(checked > 0, 'at least one row showed inline buttons');
      await workbench.page.keyboard.press('Escape');
    },
  },
];
