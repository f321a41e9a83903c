/** Small pieces of tooltip text shared by the views: Markdown escaping, timestamps and common lines. */
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../model/shownText';
import { exactTime, relativeTime } from '../../model/time';

/** Escape text for a MarkdownString (names and values come from the server or a node). */
export const md = escapeMarkdown;

/** Text from the server inside a code span (`…`): a backtick or line break would end it, so none stays. */
export const code = (text: string): string => text.replace(/[`\r\n]/g, "'");

/** A timestamp for a tooltip: "3 minutes ago (Nov 23, 2026, 6:02:35 PM UTC)", local time zone. */
export function tooltipTime(text: string, now = Date.now()): string {
  const relative = relativeTime(text, now, vscode.env.language);
  const exact = exactTime(text, vscode.env.language);
  return relative && exact ? `${relative} (${exact})` : text;
}

/** A Markdown tooltip of the given lines (the undefined ones left out). */
export function markdownLines(lines: Array<string | undefined>): vscode.MarkdownString {
  return new vscode.MarkdownString(lines.filter((l): l is string => l !== undefined).join('\n'));
}

/** A value the server did not give. */
export const unknown = (): string => vscode.l10n.t('unknown');

/** The tooltip line of a record's status (escaped for Markdown). */
export const statusLine = (status: string | undefined): string =>
  vscode.l10n.t('- Status: {0}', md(status ?? unknown()));

/** The tooltip line of a cluster's or volume's deletion protection. */
export const protectionLine = (on: boolean | undefined): string =>
  vscode.l10n.t(
    '- Deletion protection: {0}',
    on === undefined ? unknown() : on ? vscode.l10n.t('on') : vscode.l10n.t('off'),
  );

/** The note on a record read from the server's text answer. */
export const fromTextNote = (): string =>
  vscode.l10n.t("Read from the server's text answer: details the text did not give are unknown.");
