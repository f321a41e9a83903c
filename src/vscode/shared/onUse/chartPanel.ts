/**
 * An editor-area webview panel that draws time series with uPlot (media/charts/charts.js, which the build
 * copies to dist/media/ with uPlot's own files): the shell shared by the job metrics panel and the GPU
 * monitor. Strict CSP (scripts only from the extension's dist/media and with this page's nonce, styles only
 * from there, no inline styles), local resources limited to dist/media, theme colours from VS Code's CSS
 * variables. Data goes in postMessage (ChartHostMessage), never in the HTML. The page is not kept while
 * hidden: it says `ready` each time it loads, and the owner sends a snapshot then.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChartDrawn, ChartHostMessage, ChartViewMessage } from '../../../model/charts/protocol';

/** The page: its CSP, the stylesheets and scripts from `media`, a root element; no data, no inline style. */
function chartHtml(cspSource: string, media: (file: string) => string, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `script-src ${cspSource} 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="${esc(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('uPlot.min.css')}">
<link rel="stylesheet" href="${media('charts.css')}">
<title>${esc(title)}</title>
</head>
<body>
<main id="root" aria-live="off"></main>
<script nonce="${nonce}" src="${media('uPlot.iife.min.js')}"></script>
<script nonce="${nonce}" src="${media('charts.js')}"></script>
</body>
</html>`;
}

export interface ChartPanelOwner {
  /** The page (re)loaded: send it a snapshot. */
  onReady(panel: ChartPanel): void;
  onExportCsv?(): void;
  /** The page's choice (ChartChoice) was set to `value`. */
  onChoose?(value: string): void;
  onClosed(): void;
}

export class ChartPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private drawnCharts: readonly ChartDrawn[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];

  /** `root`: the extension's dist/media folder, the only one the page may load from. */
  constructor(root: vscode.Uri, viewType: string, title: string, owner: ChartPanelOwner) {
    this.panel = vscode.window.createWebviewPanel(
      viewType,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [root], retainContextWhenHidden: false },
    );
    const webview = this.panel.webview;
    this.subscriptions.push(
      webview.onDidReceiveMessage((m: ChartViewMessage) => {
        if (m?.type === 'ready') owner.onReady(this);
        else if (m?.type === 'exportCsv') owner.onExportCsv?.();
        else if (m?.type === 'choose' && typeof m.value === 'string') owner.onChoose?.(m.value);
        else if (m?.type === 'drawn' && Array.isArray(m.charts)) this.drawnCharts = m.charts;
      }),
      this.panel.onDidDispose(() => {
        this.dispose();
        owner.onClosed();
      }),
    );
    webview.html = chartHtml(
      webview.cspSource,
      (file) => webview.asWebviewUri(vscode.Uri.joinPath(root, file)).toString(),
      title,
    );
  }

  get visible(): boolean {
    return this.panel.visible;
  }

  /** What the page last said it drew. */
  get drawn(): readonly ChartDrawn[] {
    return this.drawnCharts;
  }

  post(message: ChartHostMessage): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  reveal(): void {
    this.panel.reveal();
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }

  close(): void {
    this.panel.dispose();
  }
}
