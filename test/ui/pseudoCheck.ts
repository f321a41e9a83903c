// What the pseudo-localised run checks on each screen: the text of the extension's parts of the workbench
// (the TensorPool side bar, the quick input, notifications, the status-bar entry) holds no English word that
// is not data. VS Code's own strings stay English in this run (see test/harness/pseudoLocale.ts), so only
// the regions the extension fills are read, and VS Code's own text inside them (a notification's
// "Source:") is left out. Data (names, ids, types from the engine, what the test typed) is allowed.
import type { PseudoBundles } from '../harness/pseudoLocale';
import type { Workbench } from './workbench';

const WORD = /[A-Za-z]{2,}/g;

/** VS Code's own words inside the regions the extension fills (they stay English in this run). */
const VSCODE_OWN = [/\(Press 'Enter' to confirm or 'Escape' to cancel\)/g, /\b\d+ Results?\b/g];

/** Words of a text the way the check splits them (ASCII letter runs of two or more). */
export function asciiWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class PseudoText {
  constructor(private readonly bundles: PseudoBundles) {}

  /** The pseudo translation of an English manifest or runtime string (throws when it is not localised). */
  m(english: string): string {
    const found = this.bundles.manifest.get(english) ?? this.bundles.runtime.get(english);
    if (found === undefined) throw new Error(`not in the l10n bundles (not localised?): "${english}"`);
    return found;
  }

  /** A pattern for a runtime message whose placeholders ({0}) are filled at run time. */
  re(english: string): RegExp {
    return new RegExp(
      this.m(english)
        .split(/\{\d+\}/)
        .map(escape)
        .join('.*'),
    );
  }
}

/** Texts of the regions the extension fills, as [region, text] pairs. */
async function regionTexts(workbench: Workbench): Promise<Array<[string, string]>> {
  // Runs in the page (this project's type checking has no DOM library: the page's globals are `any`).
  return workbench.page.evaluate(() => {
    const doc = (globalThis as any).document;
    const all = (root: any, selector: string): any[] => Array.from(root.querySelectorAll(selector));
    const out: Array<[string, string]> = [];
    const sidebar = doc.querySelector('[id="workbench.parts.sidebar"]');
    if (sidebar) out.push(['side bar', sidebar.innerText]);
    for (const w of all(doc, '.quick-input-widget').filter((e) => e.offsetParent !== null)) {
      out.push(['quick input', w.innerText]);
      for (const i of all(w, 'input'))
        out.push(['quick input placeholder', i.getAttribute('placeholder') ?? '']);
    }
    for (const n of all(doc, '.notifications-toasts .notification-list-item')) {
      const message = n.querySelector('.notification-list-item-message');
      const buttons = all(n, '.notification-list-item-buttons-container .monaco-button');
      out.push(['notification', [message?.innerText ?? '', ...buttons.map((b) => b.innerText)].join('\n')]);
    }
    for (const item of all(doc, '.statusbar-item[id*="tensorpool" i]'))
      out.push(['status bar', item.innerText]);
    return out;
  });
}

/** English words on the extension's parts of the screen that are not data: [region, word, line]. */
export async function untranslatedText(
  workbench: Workbench,
  data: ReadonlySet<string>,
): Promise<Array<{ region: string; word: string; line: string }>> {
  const found: Array<{ region: string; word: string; line: string }> = [];
  for (const [region, shown] of await regionTexts(workbench)) {
    const text = VSCODE_OWN.reduce((t, own) => t.replace(own, ''), shown);
    for (const line of text.split('\n'))
      for (const word of asciiWords(line))
        if (!data.has(word.toLowerCase())) found.push({ region, word, line: line.trim().slice(0, 160) });
  }
  return found;
}
