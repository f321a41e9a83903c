// Debian's Chromium, headless, driven by playwright-core; and opening code-server's workbench in it,
// optionally as an Extension Development Host that runs an extension test module.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeServer } from './codeServer';
import { CHROMIUM } from './install';
import { loadPlaywright, type BrowserContext, type Page } from './playwright';
import { onCleanup } from './processes';

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchChromium(runDir: string): Promise<Browser> {
  const profile = path.join(runDir, 'chromium');
  fs.mkdirSync(profile, { recursive: true });
  const context = await loadPlaywright().chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    viewport: { width: 1400, height: 900 },
    env: { ...process.env, TMPDIR: profile },
    // Running as root needs --no-sandbox; the rest keeps Chromium from reaching out to the network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await context.close().catch(() => undefined);
  };
  onCleanup(close);
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page, close };
}

export interface WorkbenchOptions {
  /** Load the extension in this folder as a development extension (Extension Development Host). */
  extensionDevelopmentPath?: string;
  /** Run this test module's run() in the extension host; the workbench then calls codeAutomationExit. */
  extensionTestsPath?: string;
}

/** The URL that opens the workbench on the server's workspace folder, with the development payload. */
export function workbenchUrl(server: CodeServer, opts: WorkbenchOptions = {}): string {
  // code-server's CLI rejects --extensionDevelopmentPath/--extensionTestsPath ("Unknown option"); the
  // web workbench reads them from the page URL's `payload` instead, as vscode-remote:// URIs.
  const authority = `127.0.0.1:${server.port}`;
  const payload: string[][] = [];
  if (opts.extensionDevelopmentPath)
    payload.push([
      'extensionDevelopmentPath',
      `vscode-remote://${authority}${path.resolve(opts.extensionDevelopmentPath)}`,
    ]);
  if (opts.extensionTestsPath)
    payload.push([
      'extensionTestsPath',
      `vscode-remote://${authority}${path.resolve(opts.extensionTestsPath)}`,
    ]);
  let url = `${server.url}/?folder=${encodeURIComponent(server.workspace)}`;
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/** Page script (runs before the page's own scripts; plain JavaScript, this project compiles without DOM types). */
const ENABLE_SMOKE_TEST_DRIVER = `
  const observer = new MutationObserver(() => {
    const meta = document.getElementById('vscode-workbench-web-configuration');
    if (!meta) return;
    observer.disconnect();
    const config = JSON.parse(meta.getAttribute('data-settings') || '{}');
    config.developmentOptions = { ...(config.developmentOptions || {}), enableSmokeTestDriver: true };
    meta.setAttribute('data-settings', JSON.stringify(config));
  });
  observer.observe(document, { childList: true, subtree: true });
`;

export async function openWorkbench(
  browser: Browser,
  server: CodeServer,
  opts: WorkbenchOptions = {},
): Promise<Page> {
  if (opts.extensionDevelopmentPath || opts.extensionTestsPath) {
    // Newer VS Code (1.139; 1.100 does not need it) honours that payload in a built workbench only with
    // developmentOptions.enableSmokeTestDriver, which code-server's CLI rejects. So switch it on in the
    // page's configuration <meta> before workbench.js reads it. (Rewriting the HTML with page.route()
    // instead makes Chromium block the ws://127.0.0.1 socket: ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS.)
    // Side effect: notification toasts are hidden; notifications are then in the Notification Center.
    await browser.context.addInitScript(ENABLE_SMOKE_TEST_DRIVER);
  }
  await browser.page.goto(workbenchUrl(server, opts), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  return browser.page;
}

/** Console text without the %c styling VS Code adds to extension host log lines. */
export function plainConsoleText(text: string): string {
  return text
    .replace(/%c/g, '')
    .replace(/color: ?[#a-z0-9]+;?/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}
