// Page object for VS Code's web workbench, with selectors that hold on VS Code 1.100 and 1.139.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '../harness/playwright';

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
    return this.page.locator(`.activitybar .action-item .action-label[aria-label^="${containerTitle}"]`).first();
  }

  /** Click a view container's activity-bar icon and wait for the side bar to show it. */
  async openViewContainer(containerTitle: string, viewName: string): Promise<void> {
    await this.activityBarEntry(containerTitle).click();
    // With a single view the side bar's title reads "<container>: <view>" and the view header is hidden.
    const title = this.page.locator('[id="workbench.parts.sidebar"] .composite.title .title-label', { hasText: containerTitle });
    await title.first().waitFor({ timeout: 15_000 });
    await this.page.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: viewName }).first().waitFor({ state: 'attached', timeout: 15_000 });
  }

  /** F1, type `>label`, wait for the entry, run it. */
  async runCommand(label: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${label}`);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 10_000 });
    await this.page.keyboard.press('Enter');
  }

  /** Wait for an input box (quick input) showing `prompt`, then type `text` key by key. */
  async typeIntoInputBox(prompt: string | RegExp, text: string): Promise<void> {
    await this.page.locator('.quick-input-widget', { hasText: prompt }).waitFor({ state: 'visible', timeout: 10_000 });
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
    const toast = this.page.locator('.notifications-toasts .notification-list-item-message').filter({ hasText: text }).first();
    try {
      await toast.waitFor({ timeout });
      return await toast.innerText();
    } catch {
      await this.runCommand('Notifications: Show Notifications');
      const inCenter = this.page.locator('.notifications-center .notification-list-item-message').filter({ hasText: text }).first();
      await inCenter.waitFor({ timeout: 10_000 });
      return await inCenter.innerText();
    }
  }

  /** Wait until the side bar shows a row containing each of `texts`; return all row texts. */
  async waitForRows(texts: string[], timeout = 20_000): Promise<string[]> {
    for (const text of texts) await this.sidebarRows().filter({ hasText: text }).first().waitFor({ timeout });
    return (await this.sidebarRows().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Save a PNG of the whole window as <shotsDir>/<name>.png and return its path. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(this.shotsDir, { recursive: true });
    const file = path.join(this.shotsDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}
