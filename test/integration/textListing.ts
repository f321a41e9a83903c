// The one way every list view shows a text-only answer (Clusters, Volumes, Jobs, SSH Keys): its first row
// stands for the service's text ("<Noun> list (text from the server)", the text's first line as
// description), clicking it opens the read-only `tensorpool:` document of the whole text, and the records
// read from the text follow as rows of their own.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export async function assertTextListing<N>(
  tree: vscode.TreeDataProvider<N>,
  o: { label: string; command: string; text: RegExp },
): Promise<{ rows: N[]; items: vscode.TreeItem[] }> {
  const rows = (await tree.getChildren(undefined)) ?? [];
  const items = await Promise.all(rows.map(async (r) => tree.getTreeItem(r)));
  const first = items[0];
  assert.ok(first, 'a row stands for the text');
  assert.equal(first.label, o.label);
  assert.equal(first.contextValue, 'listingText');
  assert.equal(first.command?.command, o.command);
  const text = await textOf(first.command);
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const shown = String(first.description ?? '');
  assert.ok(shown !== '' && line.startsWith(shown.replace(/…$/, '')), `"${shown}" begins "${line}"`);
  assert.match(text, o.text);
  return { rows, items };
}

/** Run the row's command and read the document it opened (then close it). */
async function textOf(command: vscode.Command | undefined): Promise<string> {
  await vscode.commands.executeCommand(command!.command, ...(command!.arguments ?? []));
  const doc = vscode.window.activeTextEditor?.document;
  assert.equal(doc?.uri.scheme, 'tensorpool', 'a read-only tensorpool: document');
  const text = doc.getText();
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  return text;
}
