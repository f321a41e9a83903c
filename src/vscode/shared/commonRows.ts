/**
 * The rows every list view shows around its data: an error row that retries on click, a loading
 * row, an empty-list row and a row that opens the server's text answer.
 */
import * as vscode from 'vscode';

/** A warning row: the message as description and tooltip; clicking runs `command` (a command id: retry it, with
 *  the title Retry; or a command such as sign in). */
export function errorRow(
  label: string,
  message: string,
  command: vscode.Command | string,
  contextValue?: string,
): vscode.TreeItem {
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.description = message;
  item.tooltip = vscode.l10n.t('{0}\n\nClick to retry.', message);
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  item.command = typeof command === 'string' ? { command, title: vscode.l10n.t('Retry') } : command;
  if (contextValue !== undefined) item.contextValue = contextValue;
  return item;
}

/** A spinning row while the first answer is awaited. */
export function loadingRow(label: string): vscode.TreeItem {
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon('loading~spin');
  return item;
}

/** An info row for an empty list; clicking runs `command` when given. */
export function emptyRow(label: string, command?: vscode.Command, description?: string): vscode.TreeItem {
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  if (description !== undefined) item.description = description;
  item.iconPath = new vscode.ThemeIcon('info');
  if (command) item.command = command;
  return item;
}

/** The row standing for the server's text answer of a list (a table only), the same in every list: its
 *  first line as the description; clicking opens the whole text. */
export function listingTextRow(label: string, preview: string, command: vscode.Command): vscode.TreeItem {
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.description = preview;
  item.tooltip = vscode.l10n.t('The service answered with a text table only. Click to open it.');
  item.iconPath = new vscode.ThemeIcon('output');
  item.command = command;
  item.contextValue = 'listingText';
  return item;
}

/** The first non-blank line of a text answer, cut to 80 characters. */
export function firstLine(text: string | undefined): string {
  const line = (text ?? '').split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
