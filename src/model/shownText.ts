/**
 * Whether a text from the service can be shown to the user as it is, before they are asked to run it:
 * no character that hides or reorders what is shown (controls other than tab and line breaks, a carriage
 * return on its own, zero-width characters, bidirectional overrides, line and paragraph separators).
 * Pure: no vscode.
 */

const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** A character as the user can read it in a message: `;` or U+202E. */
export function charName(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return cp > 0x20 && cp < 0x7f ? ch : `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first character that would hide or reorder the shown text (named as charName does), if any. */
export function hiddenCharacter(text: string): string | undefined {
  const found = HIDDEN.exec(text.replace(/\r\n/g, '\n'));
  return found ? charName(found[0]) : undefined;
}

/**
 * A text from the service made safe for a notification: VS Code turns `[words](command:…)`, `(https://…)`
 * and `(file:…)` in a message into links that run a command or open something when clicked. A space between
 * `]` and `(` keeps every word and leaves no link.
 */
export function inertLinks(text: string): string {
  return text.includes('](') ? text.replace(/\]\(/g, '] (') : text;
}

/**
 * Text from the service or a node made literal inside Markdown (a tooltip): every character Markdown
 * gives a meaning is escaped (links, images, emphasis, code, HTML, tables, headings, lists), the `:` of
 * `://` too so a bare `https://…` is not turned into a link (a `www.` has its `.` escaped), and line
 * breaks become spaces.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&')
    .replace(/:(?=\/\/)/g, '\\:');
}
