/**
 * The manifest's text lives in package.nls.json: package.json names each user-visible string by a
 * "%key%" reference (a whole string: VS Code substitutes nothing inside a longer one), every reference
 * has its English message and every message is used, no user-visible field is left as raw text, and the
 * parts of a message a translation must keep (command and web links, code, codicons, {0}) are ones the
 * workbench can act on and are kept by each translation and by the pseudo-localisation.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { allCommandIds } from '../shared/commandIds';
import {
  englishMessages,
  localisedManifest,
  type Messages,
  NLS_REFERENCE,
  rawManifest,
  readJsonFile,
  repoRoot,
} from '../shared/manifest';

/** Every command id declared: shared/commands.ts and each feature's commandIds.ts. */
const ALL_COMMANDS = allCommandIds();

/**
 * The fields VS Code shows to the user, as paths of property names joined by spaces with `#` for an
 * array index. Not here: ids, when clauses, icons, language aliases (names, not prose), keybindings.
 */
const LOCALISABLE: RegExp[] = [
  /^(displayName|description)$/,
  /^capabilities (untrustedWorkspaces|virtualWorkspaces) description$/,
  /^contributes commands # (title|shortTitle|category)$/,
  /^contributes viewsContainers \S+ # title$/,
  /^contributes views \S+ # (name|contextualTitle)$/,
  /^contributes viewsWelcome # contents$/,
  /^contributes submenus # label$/,
  /^contributes configuration (# )?title$/,
  /^contributes configuration (# )?properties \S+( \S+)* (description|markdownDescription|deprecationMessage|markdownDeprecationMessage)$/,
  /^contributes configuration (# )?properties \S+( \S+)* (enumDescriptions|markdownEnumDescriptions) #$/,
  /^contributes walkthroughs # (title|description)$/,
  /^contributes walkthroughs # steps # (title|description|media altText)$/,
  /^contributes taskDefinitions # properties \S+( \S+)* (description|markdownDescription)$/,
  /^contributes authentication # label$/,
];
/** Setting values are data, not text, even where a property of theirs is called "description". */
const DATA = / (default|examples|enum|const) /;

interface Field {
  path: string;
  value: string;
}

function stringFields(node: unknown, at: string[] = [], out: Field[] = []): Field[] {
  if (typeof node === 'string') out.push({ path: at.join(' '), value: node });
  else if (Array.isArray(node)) node.forEach((n) => stringFields(n, [...at, '#'], out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) stringFields(v, [...at, k], out);
  return out;
}

const isLocalisable = (path: string): boolean =>
  !DATA.test(` ${path} `) && LOCALISABLE.some((r) => r.test(path));
/** VS Code's rule: a string that starts and ends with `%` is a reference (and is left as is if unknown). */
const looksLikeReference = (s: string): boolean => s.length > 1 && s.startsWith('%') && s.endsWith('%');

/** Localisable fields holding raw text, and references outside the localisable fields. */
function misplaced(manifest: unknown): string[] {
  return stringFields(manifest)
    .filter((f) => isLocalisable(f.path) !== looksLikeReference(f.value))
    .map((f) => `${f.path}: ${JSON.stringify(f.value)}`);
}

/** What a translation must keep as it is, by kind. */
const KEPT = {
  commandLinks: /\]\((command:[^)\s]+)\)/g,
  webLinks: /\]\((https?:[^)\s]+)\)/g,
  code: /`[^`\n]+`/g,
  codicons: /\$\([\w-]+(~[\w-]+)?\)/g,
  placeholders: /\{\d+\}/g,
};
type Kind = keyof typeof KEPT;
const kept = (text: string, kind: Kind): string[] => [...text.matchAll(KEPT[kind])].map((m) => m[1] ?? m[0]);

const raw = rawManifest();
const english = englishMessages();
const manifest = localisedManifest();
const references = stringFields(raw).filter((f) => looksLikeReference(f.value));
const views = Object.values(manifest.contributes.views as Record<string, Array<{ id: string }>>)
  .flat()
  .map((v) => v.id);

describe("package.nls.json (the manifest's text)", () => {
  it('every %key% reference in package.json names an English message in package.nls.json', () => {
    assert.ok(references.length > 100, `only ${references.length} references`);
    for (const { path, value } of references) {
      // vsce only takes letters, digits, `_` and dots in a key (VS Code takes any).
      const key = NLS_REFERENCE.exec(value)?.[1];
      assert.ok(key, `${path}: ${value} is not a key vsce substitutes`);
      assert.equal(typeof english[key], 'string', `${path}: package.nls.json has no message "${key}"`);
    }
  });

  it('every message in package.nls.json is used, and is text rather than another reference', () => {
    const used = new Set(references.map((r) => NLS_REFERENCE.exec(r.value)?.[1]));
    assert.deepEqual(
      Object.keys(english).filter((k) => !used.has(k)),
      [],
      'messages no field refers to',
    );
    for (const [key, message] of Object.entries(english)) {
      assert.ok(typeof message === 'string' && message.trim().length > 0, key);
      // VS Code substitutes once: a reference inside a message would be shown as is.
      assert.doesNotMatch(message, /%[A-Za-z_][\w.]*%/, key);
    }
  });

  it('no user-visible field of package.json holds raw text, and only those fields hold references', () => {
    assert.deepEqual(misplaced(raw), []);
    const paths = new Set(references.map((r) => r.path));
    for (const path of [
      'displayName',
      'capabilities untrustedWorkspaces description',
      'contributes commands # title',
      'contributes commands # category',
      'contributes views tensorpool # name',
      'contributes viewsWelcome # contents',
      'contributes configuration properties tensorpool.apiUrl markdownDescription',
      'contributes configuration properties tensorpool.sshConfigMode enumDescriptions #',
      'contributes walkthroughs # steps # description',
    ])
      assert.ok(paths.has(path), `${path} is localised`);
    // The check sees raw text: the manifest with its English put back fails it at each reference.
    assert.equal(misplaced(manifest).length, references.length);
  });

  it("each message's links, code and codicons are ones the workbench can act on", () => {
    const ownExtension = `${raw.publisher}.${raw.name}`;
    for (const [key, message] of Object.entries(english)) {
      for (const link of kept(message, 'commandLinks')) {
        const [, id, args] = /^command:([\w.]+)(\?.*)?$/.exec(link) ?? [];
        assert.ok(id, `${key}: ${link}`);
        // One of our commands, the focus command of one of our views, or our own Marketplace page.
        const ours =
          (ALL_COMMANDS as readonly string[]).includes(id) ||
          views.includes(id.replace(/\.focus$/, '')) ||
          (id === 'extension.open' && decodeURIComponent(args ?? '') === `?["${ownExtension}"]`);
        assert.ok(ours, `${key}: ${link} runs one of ours`);
      }
      for (const url of kept(message, 'webLinks')) assert.match(url, /^https:\/\//, key);
      assert.equal((message.match(/`/g) ?? []).length % 2, 0, `${key}: a code span is left open`);
      assert.equal((message.match(/\*\*/g) ?? []).length % 2, 0, `${key}: bold is left open`);
    }
  });

  it('each translation and the pseudo-localisation keep those parts of every message', () => {
    const translations: Array<[string, Messages, Kind[]]> = fs
      .readdirSync(repoRoot)
      .filter((f) => /^package\.nls\.[\w-]+\.json$/.test(f))
      .map((f) => [f, readJsonFile(f) as Messages, Object.keys(KEPT) as Kind[]]);
    // @vscode/l10n-dev's pseudo-localisation (what the pseudo-localised run shows) keeps command links,
    // codicons and {0}, so the welcome views' and walkthrough's buttons still work; it transforms the
    // text of web links and code spans too, which only the pseudo locale shows.
    const pseudo = getL10nPseudoLocalized(english) as Messages;
    translations.push(['pseudo-localisation', pseudo, ['commandLinks', 'codicons', 'placeholders']]);
    for (const [name, messages, kinds] of translations) {
      assert.deepEqual(
        Object.keys(messages).filter((k) => !(k in english)),
        [],
        `${name}: keys package.nls.json lacks`,
      );
      for (const [key, message] of Object.entries(messages))
        for (const kind of kinds)
          assert.deepEqual(kept(message, kind).sort(), kept(english[key], kind).sort(), `${name} ${key}`);
    }
    assert.notEqual(pseudo['command.signIn.title'], english['command.signIn.title']);
  });
});
