// The pseudo-localised run's setup (issue: "a pseudo-localised run shows no untranslated text"): every
// string of the extension is replaced by @vscode/l10n-dev's pseudo translation (accented letters, vowels
// doubled: "Clusters" -> "Ƈŀŭŭşŧḗḗřş"), the manifest's (package.nls.json) and the runtime's (the bundle
// `npm run l10n` exports, extracted here from src/ as it is now). code-server shows an extension's
// qps-ploc translations only when that display language is installed, so the run registers a language
// pack for it whose translation of VS Code itself is empty: the workbench stays English and only our
// strings change, which is what the check in test/ui/pseudoCheck.ts relies on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nJson, getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { REPO } from './util';

export const PSEUDO_LOCALE = 'qps-ploc';

type Messages = Record<string, string | { message: string; comment: string[] }>;

export interface PseudoBundles {
  /** English manifest text -> its pseudo translation (package.nls.json). */
  readonly manifest: ReadonlyMap<string, string>;
  /** English runtime message -> its pseudo translation (the l10n bundle). */
  readonly runtime: ReadonlyMap<string, string>;
  readonly files: { readonly manifest: Messages; readonly runtime: Messages };
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The l10n bundle of src/ as it is now (what `npm run l10n` writes to l10n/bundle.l10n.json). */
export async function exportRuntimeBundle(): Promise<Messages> {
  const files = tsFiles(path.join(REPO, 'src')).map((f) => ({
    extension: '.ts',
    contents: fs.readFileSync(f, 'utf8'),
  }));
  return await getL10nJson(files);
}

function englishToPseudo(english: Messages, pseudo: Messages): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(english)) {
    const from = typeof value === 'string' ? value : value.message;
    const to = pseudo[key];
    map.set(from, typeof to === 'string' ? to : (to?.message ?? from));
  }
  return map;
}

export async function pseudoBundles(): Promise<PseudoBundles> {
  const nls = JSON.parse(fs.readFileSync(path.join(REPO, 'package.nls.json'), 'utf8')) as Messages;
  const runtime = await exportRuntimeBundle();
  const files = {
    manifest: getL10nPseudoLocalized(nls),
    runtime: getL10nPseudoLocalized(runtime),
  };
  return {
    manifest: englishToPseudo(nls, files.manifest),
    runtime: englishToPseudo(runtime, files.runtime),
    files,
  };
}

/**
 * Put the pseudo translations into the installed extension (`<extensions>/tensorpool.tensorpool-vscode-*`)
 * and register the pseudo display language in the user data folder (languagepacks.json, which code-server
 * reads when it serves the workbench).
 */
export function installPseudoLocale(
  dirs: { userData: string; extensions: string },
  bundles: PseudoBundles,
): void {
  const ext = fs.readdirSync(dirs.extensions).find((d) => d.startsWith('tensorpool.tensorpool-vscode-'));
  if (!ext) throw new Error(`the extension is not installed in ${dirs.extensions}`);
  const root = path.join(dirs.extensions, ext);
  fs.mkdirSync(path.join(root, 'l10n'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`),
    JSON.stringify(bundles.files.runtime, null, 1),
  );
  fs.writeFileSync(
    path.join(root, `package.nls.${PSEUDO_LOCALE}.json`),
    JSON.stringify(bundles.files.manifest, null, 1),
  );
  const core = path.join(dirs.userData, 'pseudo-core.i18n.json');
  fs.writeFileSync(core, JSON.stringify({ version: '1.0.0', contents: {} }));
  fs.writeFileSync(
    path.join(dirs.userData, 'languagepacks.json'),
    JSON.stringify({
      [PSEUDO_LOCALE]: {
        hash: 'tensorpool-pseudo-1',
        extensions: [{ extensionIdentifier: { id: 'tensorpool-tests.pseudo-locale' }, version: '0.0.1' }],
        translations: { vscode: core },
        label: 'Pseudo',
      },
    }),
  );
}
