/**
 * The `.env` token reader against odd files: quotes, `export`, CRLF, comments, a key twice, the
 * third-party variable name, and files that are not text at all.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseDotenv, readDotenvToken, tokenFromDotenv } from '../../src/config/dotenv';

const T = 'tp_abcdef0123456789';

describe('.env token reader', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['plain', `TENSORPOOL_KEY=${T}\n`, T],
    ['double quotes', `TENSORPOOL_KEY="${T}"`, T],
    ['single quotes', `TENSORPOOL_KEY='${T}'`, T],
    ['spaces around =', `TENSORPOOL_KEY = ${T}  `, T],
    ['export prefix', `export TENSORPOOL_KEY=${T}`, T],
    ['CRLF line ends', `# creds\r\nOTHER=1\r\nTENSORPOOL_KEY=${T}\r\nMORE=2\r\n`, T],
    ['old Mac CR line ends', `OTHER=1\rTENSORPOOL_KEY=${T}\r`, T],
    ['BOM at the start', `\uFEFFTENSORPOOL_KEY=${T}`, T],
    ['inline comment after an unquoted value', `TENSORPOOL_KEY=${T} # my token`, T],
    ['# inside quotes is kept', `TENSORPOOL_KEY="${T}#x"`, `${T}#x`],
    ['commented-out line is ignored', `# TENSORPOOL_KEY=old\nTENSORPOOL_KEY=${T}`, T],
    ['indented comment is ignored', `   # TENSORPOOL_KEY=old\n`, undefined],
    ['the first of two wins', `TENSORPOOL_KEY=${T}\nTENSORPOOL_KEY=tp_second`, T],
    ['an empty first value falls through to the next', `TENSORPOOL_KEY=\nTENSORPOOL_KEY=${T}`, T],
    ['TENSORPOOL_API_KEY is recognised', `TENSORPOOL_API_KEY="${T}"`, T],
    [
      'TENSORPOOL_KEY wins over an earlier TENSORPOOL_API_KEY',
      `TENSORPOOL_API_KEY=a1\nTENSORPOOL_KEY=${T}`,
      T,
    ],
    ['a longer name is not the key', `MY_TENSORPOOL_KEY=${T}\nTENSORPOOL_KEY_OLD=${T}`, undefined],
    ['lower case is another variable', `tensorpool_key=${T}`, undefined],
    ['a value with spaces is not a token', `TENSORPOOL_KEY="two words"`, undefined],
    ['unclosed quote', `TENSORPOOL_KEY="${T}`, T],
    ['no equals sign', `TENSORPOOL_KEY ${T}`, undefined],
    ['empty file', '', undefined],
  ];
  for (const [title, text, expected] of cases) {
    it(`${title}`, () => {
      assert.equal(tokenFromDotenv(text)?.value, expected);
    });
  }

  it('says which variable the token came from', () => {
    assert.deepEqual(tokenFromDotenv(`TENSORPOOL_API_KEY=${T}`), { name: 'TENSORPOOL_API_KEY', value: T });
    assert.deepEqual(tokenFromDotenv(`TENSORPOOL_KEY=${T}`), { name: 'TENSORPOOL_KEY', value: T });
  });

  it('parseDotenv keeps every assignment in order and skips junk lines', () => {
    assert.deepEqual(parseDotenv('A=1\n\njunk line\n#B=2\nexport C="3"\nA=4'), [
      { name: 'A', value: '1' },
      { name: 'C', value: '3' },
      { name: 'A', value: '4' },
    ]);
  });

  describe('reading a file (never throws)', () => {
    let dir: string;
    before(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tp-dotenv-'));
    });
    after(() => fs.rm(dir, { recursive: true, force: true }));

    it('reads the token from a file and leaves the file untouched', async () => {
      const file = path.join(dir, '.env');
      const text = `FOO=bar\r\nexport TENSORPOOL_KEY='${T}'\r\n`;
      await fs.writeFile(file, text);
      const before = await fs.stat(file);
      assert.deepEqual(await readDotenvToken(file), { name: 'TENSORPOOL_KEY', value: T });
      assert.equal(await fs.readFile(file, 'utf8'), text);
      assert.equal((await fs.stat(file)).mtimeMs, before.mtimeMs);
    });

    it('a missing file, a directory, a binary file and a huge file have no token', async () => {
      assert.equal(await readDotenvToken(path.join(dir, 'nope')), undefined);
      assert.equal(await readDotenvToken(dir), undefined);
      const bin = path.join(dir, 'bin.env');
      await fs.writeFile(bin, Buffer.from(`TENSORPOOL_KEY=${T}\n\u0000\u0001`));
      assert.equal(await readDotenvToken(bin), undefined);
      const huge = path.join(dir, 'huge.env');
      await fs.writeFile(huge, `TENSORPOOL_KEY=${T}\n` + '#'.repeat(300 * 1024));
      assert.equal(await readDotenvToken(huge), undefined);
    });
  });
});
