// playwright-core is installed on first use into .cache/tools (not a devDependency: it is only needed
// by the harness and must not be resolved before it is installed), so it is loaded by path. These are
// the few parts of its API the harness and the UI suite use, typed by hand.
import * as path from 'node:path';
import { TOOLS_DIR } from './install';

export interface ConsoleMessage {
  type(): string;
  text(): string;
}

export interface Locator {
  first(): Locator;
  nth(index: number): Locator;
  filter(options: { hasText?: string | RegExp }): Locator;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  waitFor(options?: {
    state?: 'attached' | 'detached' | 'visible' | 'hidden';
    timeout?: number;
  }): Promise<void>;
  click(options?: { timeout?: number; button?: 'left' | 'right' }): Promise<void>;
  fill(value: string, options?: { timeout?: number }): Promise<void>;
  innerText(options?: { timeout?: number }): Promise<string>;
  allInnerTexts(): Promise<string[]>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  count(): Promise<number>;
  isVisible(): Promise<boolean>;
  press(key: string, options?: { timeout?: number }): Promise<void>;
  hover(options?: { timeout?: number }): Promise<void>;
  inputValue(options?: { timeout?: number }): Promise<string>;
  /** Run `fn` in the page on the matched element (E: the DOM type the caller declares). */
  evaluate<R, E = unknown>(fn: (element: E) => R): Promise<R>;
}

/** The elements inside an iframe (a webview's page is an iframe inside an iframe). */
export interface FrameLocator {
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
}

export interface Keyboard {
  press(key: string): Promise<void>;
  type(text: string, options?: { delay?: number }): Promise<void>;
}

export interface Page {
  goto(
    url: string,
    options?: { waitUntil?: 'load' | 'domcontentloaded'; timeout?: number },
  ): Promise<unknown>;
  exposeFunction(name: string, fn: (...args: any[]) => unknown): Promise<void>;
  on(event: 'console', listener: (message: ConsoleMessage) => void): Page;
  on(event: 'pageerror', listener: (error: Error) => void): Page;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
  keyboard: Keyboard;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<Buffer>;
  waitForTimeout(ms: number): Promise<void>;
  url(): string;
  /** Run `fn` in the page and return its (serialisable) result. */
  evaluate<R>(fn: () => R): Promise<R>;
  /** Every frame of the page, nested ones (webviews, the Simple Browser's page) included. */
  frames(): Frame[];
  close(): Promise<void>;
}

export interface Frame {
  url(): string;
  locator(selector: string): Locator;
}

export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  addInitScript(script: string): Promise<void>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  executablePath: string;
  headless: boolean;
  args: string[];
  env?: NodeJS.ProcessEnv;
  viewport?: { width: number; height: number };
  timeout?: number;
}

interface PlaywrightCore {
  chromium: { launchPersistentContext(userDataDir: string, options: LaunchOptions): Promise<BrowserContext> };
}

export function loadPlaywright(): PlaywrightCore {
  return require(path.join(TOOLS_DIR, 'node_modules', 'playwright-core')) as PlaywrightCore;
}
