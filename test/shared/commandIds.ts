/**
 * Every command id the extension declares: shared/commands.ts's list and each feature's own
 * (`src/vscode/<folder>/commandIds.ts`, found by name, so a new section is checked without being listed here).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_COMMANDS } from '../../src/vscode/shared/commands';

const root = path.resolve(__dirname, '../../..');

/** The folders of src/vscode that declare command ids of their own. */
export function commandIdFolders(): string[] {
  const dir = path.join(root, 'src', 'vscode');
  return fs.readdirSync(dir).filter((f) => fs.existsSync(path.join(dir, f, 'commandIds.ts')));
}

export function allCommandIds(): string[] {
  const own = commandIdFolders().flatMap((folder) => {
    const m = require(path.join(__dirname, '../../src/vscode', folder, 'commandIds')) as Record<
      string,
      object
    >;
    return Object.values(m).flatMap((ids) => Object.values(ids) as string[]);
  });
  return [...ALL_COMMANDS, ...own];
}
