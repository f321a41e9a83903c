// Page object for VS Code's web workbench, with selectors that hold on VS Code 1.100 and 1.139.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '../harness/playwright';

/** The little of a DOM element childRow reads (the tests compile without the DOM library). */
interface ListRow {
  getAttribute(name: string): string | null;
  closest(selector: string): { querySelectorAll(selector: string): ArrayLike<ListRow> } | null;
}

/** What enterInQuickInput reads of the input and the element that has the focus. */
interface FocusProbe {
  ownerDocument: { activeElement: { tagName: string; className: unknown } | null };
}

export class Workbench {
  constructor(
    readonly page: Page,
    /** Folder for this run's screenshots (test-results/vscode-<version>). */
    private readonly shotsDir: string,
  ) {}

  /** Rows of the trees and lists in the side bar. */
  readonly sidebarRows = (): Locator => this.page.locator('[id="workbench.parts.sidebar"] .monaco-list-row');

  /** Wait for the workbench and for the activity-bar entry of a view container (the extension is loaded). */
  async ready(containerTitle: string, timeout = 60_000): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout });
    await this.activityBarEntry(containerTitle).waitFor({ timeout });
  }

  activityBarEntry(containerTitle: string): Locator {
    // The entry's aria-label starts with the container title (a keybinding or badge may follow).
    return this.page
      .locator(`.activitybar .action-item .action-label[aria-label^="${containerTitle}"]`)
      .first();
  }

  /** Click a view container's activity-bar icon and wait for the side bar to show it. */
  async openViewContainer(containerTitle: string, viewName: string): Promise<void> {
    await this.activityBarEntry(containerTitle).click();
    // With a single view the side bar's title reads "<container>: <view>" and the view header is hidden.
    const title = this.page.locator('[id="workbench.parts.sidebar"] .composite.title .title-label', {
      hasText: containerTitle,
    });
    await title.first().waitFor({ timeout: 15_000 });
    await this.page
      .locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: viewName })
      .first()
      .waitFor({ state: 'attached', timeout: 15_000 });
  }

  /**
   * Expand the named side-bar sections and collapse the others. Four TensorPool sections share the side
   * bar, and a list renders only the rows that fit its pane, so a test gives the sections it reads room.
   */
  async showSections(...names: string[]): Promise<void> {
    const headers = this.page.locator('[id="workbench.parts.sidebar"] .pane-header');
    const count = await headers.count();
    for (let i = 0; i < count; i++) {
      const header = headers.nth(i);
      const title = (await header.locator('.title').first().innerText()).trim().toLowerCase();
      const wanted = names.some((n) => title === n.toLowerCase());
      const expanded = (await header.getAttribute('aria-expanded')) === 'true';
      if (wanted !== expanded) await header.locator('.title').first().click();
    }
    for (const name of names)
      await this.page
        .locator('[id="workbench.parts.sidebar"] .pane-header[aria-expanded="true"]', { hasText: name })
        .first()
        .waitFor({ timeout: 10_000 });
  }

  /** F1, type `>label`, wait for the entry, run it (with `exact`, the entry labelled exactly so, not one that
   *  starts with it). A terminal with the focus keeps F1 (code-server hands it the key), so when the palette
   *  does not open the focus moves to the side bar and F1 is pressed again. */
  async runCommand(label: string, o: { exact?: boolean } = {}): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    // The palette can close as soon as it opened when something else takes focus (a webview panel that
    // just opened, a notification): then focus the workbench and open it again, as a user would.
    for (let attempt = 1; ; attempt++) {
      try {
        if (attempt > 1) await this.page.locator('.part.sidebar .composite.title').first().click();
        await this.page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: attempt === 1 ? 3000 : 10_000 });
        await input.fill(`>${label}`, { timeout: 5000 });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        await this.page.keyboard.press('Escape');
      }
    }
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: 10_000 });
    if (!o.exact) return this.page.keyboard.press('Enter');
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await this.page
      .locator('.quick-input-list .monaco-list-row .label-name', {
        hasText: new RegExp(`^\\s*${escaped}\\s*$`),
      })
      .first()
      .click();
  }

  /** Wait for an input box (quick input) showing `prompt`, then type `text` key by key. */
  async typeIntoInputBox(prompt: string | RegExp, text: string): Promise<void> {
    await this.page
      .locator('.quick-input-widget', { hasText: prompt })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await this.page.keyboard.type(text);
  }

  /** Accept the open input box (Enter) and wait for it to close. */
  async acceptInput(timeout = 15_000): Promise<void> {
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout });
  }

  /**
   * The text of a notification matching `text`: from its toast, or from the Notification Center when
   * toasts are hidden (VS Code hides them when the smoke-test driver is on) or already gone.
   */
  async notification(text: string | RegExp, timeout = 15_000): Promise<string> {
    const toast = this.page
      .locator('.notifications-toasts .notification-list-item-message')
      .filter({ hasText: text })
      .first();
    try {
      await toast.waitFor({ timeout });
      return await toast.innerText();
    } catch {
      await this.runCommand('Notifications: Show Notifications');
      const inCenter = this.page
        .locator('.notifications-center .notification-list-item-message')
        .filter({ hasText: text })
        .first();
      await inCenter.waitFor({ timeout: 10_000 });
      return await inCenter.innerText();
    }
  }

  /** Wait until the side bar shows a row containing each of `texts`; return all row texts. */
  async waitForRows(texts: string[], timeout = 20_000): Promise<string[]> {
    for (const text of texts) await this.sidebarRows().filter({ hasText: text }).first().waitFor({ timeout });
    return (await this.sidebarRows().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** The open quick input (palette, quick pick or input box). */
  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Wait for a quick input whose title, prompt or placeholder shows `text` (a placeholder is an attribute,
   * not text). */
  async waitForQuickInput(text: string | RegExp, timeout = 15_000): Promise<void> {
    const matches = (value: string) => (typeof text === 'string' ? value.includes(text) : text.test(value));
    const widget = this.page.locator('.quick-input-widget').first();
    const input = this.page.locator('.quick-input-widget input').first();
    const deadline = Date.now() + timeout;
    for (;;) {
      if (await widget.isVisible().catch(() => false)) {
        const shown = await widget.innerText().catch(() => '');
        const placeholder =
          (await input.getAttribute('placeholder', { timeout: 1000 }).catch(() => '')) ?? '';
        if (matches(shown) || matches(placeholder)) return;
      }
      if (Date.now() > deadline) throw new Error(`no quick input showing ${text} within ${timeout / 1000} s`);
      await this.page.waitForTimeout(100);
    }
  }

  /** Replace what the quick input holds with `text` (typed key by key, as a user would). */
  async replaceQuickInputText(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.press('ControlOrMeta+a');
    await input.press('Backspace');
    if (text) await this.page.keyboard.type(text);
  }

  /**
   * Enter in the open quick input (a box's value, or a pick's focused row). The key goes to the box's input,
   * given the focus first as a user clicking back into the box would: on a busy machine the focus has been
   * seen elsewhere while a wizard step showed (on a tree row, or in a terminal an earlier flow used), and a
   * key pressed then was lost. The log says when it was elsewhere, and where.
   */
  async enterInQuickInput(): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    const elsewhere = await input.evaluate((e: FocusProbe) => {
      const a = e.ownerDocument.activeElement;
      return (a as unknown) === e
        ? ''
        : `${a?.tagName ?? 'nothing'}.${String(a?.className ?? '').slice(0, 60)}`;
    });
    if (elsewhere)
      console.log(`       [workbench] the quick input showed without the focus (it was on ${elsewhere})`);
    await input.press('Enter');
  }

  /** In a quick pick, type `filter` and accept the first row that contains `label`. */
  async pickQuickItem(label: string, filter = label): Promise<void> {
    await this.replaceQuickInputText(filter);
    // Enter accepts the focused row: wait until it is the one we mean, as a user would look first.
    const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
    await this.page
      .locator('.quick-input-list .monaco-list-row.focused .label-name', { hasText: exact })
      .first()
      .waitFor({ timeout: 10_000 });
    await this.enterInQuickInput();
  }

  /** The quick input's validation message, if one shows. */
  async quickInputMessage(): Promise<string> {
    const msg = this.page.locator('.quick-input-widget .quick-input-message');
    return (await msg.count()) ? (await msg.first().innerText()).trim() : '';
  }

  /** A modal dialog showing `text`. */
  async dialog(text: string | RegExp, timeout = 15_000): Promise<Locator> {
    const box = this.page.locator('.monaco-dialog-box', { hasText: text }).first();
    await box.waitFor({ timeout });
    return box;
  }

  async clickDialogButton(box: Locator, label: string): Promise<void> {
    await box.locator('.monaco-button', { hasText: label }).first().click();
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** A status-bar entry showing `text`. */
  async statusBarItem(text: string | RegExp, timeout = 15_000): Promise<string> {
    const item = this.page
      .locator('[id="workbench.parts.statusbar"] .statusbar-item', { hasText: text })
      .first();
    await item.waitFor({ timeout });
    return (await item.innerText()).trim();
  }

  /** Expand the side-bar row `row` until a row showing `child` is visible among its own children (another
   * expanded row's child with the same text does not count). The row may still be refreshing (not yet
   * collapsible, or expanding by itself), so it is clicked only while it reads collapsed, and each click
   * waits for the row to take it: a click on an expanded row would collapse it. */
  async expandRow(row: Locator, child: string | RegExp, timeout = 20_000): Promise<Locator> {
    const deadline = Date.now() + timeout;
    await row.waitFor({ timeout });
    let childRow = await this.childRow(row, child);
    while (!childRow || !(await childRow.isVisible())) {
      if (Date.now() > deadline) {
        const state = (await row.getAttribute('aria-expanded')) ?? 'not expandable';
        const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
        throw new Error(`no row showing ${String(child)} under "${text}" (${state}) after ${timeout} ms`);
      }
      if ((await row.getAttribute('aria-expanded')) === 'false') {
        await row.click();
        for (let i = 0; i < 10 && (await row.getAttribute('aria-expanded')) === 'false'; i++) {
          await this.page.waitForTimeout(200);
        }
      } else {
        await this.page.waitForTimeout(200);
      }
      childRow = await this.childRow(row, child);
    }
    return childRow;
  }

  /**
   * The row showing `child` one level below `row` in the same tree (the rows after it, up to the next row
   * at its level or above), or undefined while there is none. The tree's rows are flat in the page, told
   * apart by `aria-level` and ordered by `data-index`, so the child is found by its index: use it at once.
   */
  private async childRow(row: Locator, child: string | RegExp): Promise<Locator | undefined> {
    const indices = await row
      .evaluate((el: ListRow) => {
        const list = el.closest('.monaco-list-rows');
        const level = Number(el.getAttribute('aria-level'));
        const start = Number(el.getAttribute('data-index'));
        if (!list || !Number.isFinite(level) || !Number.isFinite(start)) return [];
        const rows = Array.from(list.querySelectorAll(':scope > .monaco-list-row'))
          .map((r) => ({
            index: Number(r.getAttribute('data-index')),
            level: Number(r.getAttribute('aria-level')),
          }))
          .filter((r) => r.index > start)
          .sort((a, b) => a.index - b.index);
        const out: number[] = [];
        for (const r of rows) {
          if (r.level <= level) break;
          if (r.level === level + 1) out.push(r.index);
        }
        return out;
      })
      .catch(() => [] as number[]);
    if (indices.length === 0) return undefined;
    const list = row.locator('xpath=..');
    const candidates = list.locator(
      indices.map((i) => `:scope > .monaco-list-row[data-index="${i}"]`).join(', '),
    );
    const found = candidates.filter({ hasText: child }).first();
    return (await found.count()) > 0 ? found : undefined;
  }

  /** Hover the side-bar row showing `rowText` and click its inline action `actionLabel`. */
  async clickRowAction(rowText: string | RegExp, actionLabel: string): Promise<void> {
    const row = this.sidebarRows().filter({ hasText: rowText }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.hover();
    await row.locator(`.action-label[aria-label^="${actionLabel}"]`).first().click();
  }

  /** Save a PNG of the whole window as <shotsDir>/<name>.png and return its path. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(this.shotsDir, { recursive: true });
    const file = path.join(this.shotsDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}
