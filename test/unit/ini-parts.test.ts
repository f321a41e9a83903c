/**
 * The INI editor's parts on their own: how a file is read into sections and key lines in each
 * dialect, and how planned line edits are applied in one pass (indices stay valid, line endings
 * and a missing final newline are kept).
 */
import * as assert from 'node:assert/strict';
import {
  CONFIGPARSER_DIALECT,
  FLAT_DIALECT,
  findOurs,
  parse,
  subKeys,
  valueOf,
} from '../../src/config/iniParse';
import { Plan } from '../../src/config/iniPlan';
import { parseDoc, renderDoc } from '../../src/config/text';

const FILE = [
  '# top',
  '[default]',
  'region = eu',
  '[profile tp]',
  's3 =',
  '    addressing_style = path',
  ' ; note',
  'output: json',
  '',
].join('\n');
const tp = { header: 'profile tp', matches: (n: string) => n === 'profile tp' };

describe('INI reading', () => {
  it('configparser: indented lines continue the key above and hold its nested values', () => {
    const { doc, sections } = parse(FILE, CONFIGPARSER_DIALECT);
    assert.deepEqual(
      sections.map((s) => [s.name, s.header, s.end, s.keys.map((k) => [k.name, k.line, k.last])]),
      [
        ['default', 1, 3, [['region', 2, 2]]],
        [
          'profile tp',
          3,
          8,
          [
            ['s3', 4, 5],
            ['output', 7, 7],
          ],
        ],
      ],
    );
    const [s3, output] = findOurs(sections, tp)!.keys;
    assert.equal(valueOf(doc, s3), '');
    assert.deepEqual(
      subKeys(doc, s3).map((k) => [k.name, valueOf(doc, k)]),
      [['addressing_style', 'path']],
    );
    assert.equal(valueOf(doc, output), 'json');
  });

  it('flat: an indented line is a key of its own', () => {
    const ours = findOurs(parse(FILE, FLAT_DIALECT).sections, tp)!;
    assert.deepEqual(
      ours.keys.map((k) => [k.key, k.line, k.last]),
      [
        ['s3', 4, 4],
        ['addressing_style', 5, 5],
        ['output', 7, 7],
      ],
    );
  });

  it('two sections of ours are refused with their line numbers', () => {
    assert.throws(
      () => findOurs(parse('[profile tp]\na=1\n[profile tp]\n', FLAT_DIALECT).sections, tp),
      /there are 2 \[profile tp\] sections \(lines 1, 3\)/,
    );
  });
});

describe('INI line plan', () => {
  it('replaces, deletes and inserts against the original line numbers in one pass', () => {
    const doc = parseDoc('a\nb\nc\nd\n');
    const plan = new Plan(doc);
    plan.delete(1, 2);
    plan.replace(3, 'D');
    plan.insertAfter(0, ['a1', 'a2']);
    plan.insertAfter(0, ['a3']);
    plan.insertAfter(2, ['after c']);
    plan.apply();
    assert.equal(renderDoc(doc), 'a\na1\na2\na3\nafter c\nD\n');
  });

  it("new lines take the file's line ending, and a missing final newline stays missing", () => {
    const doc = parseDoc('\uFEFF[x]\r\nk = v');
    const plan = new Plan(doc);
    plan.insertAfter(1, ['n = 1']);
    plan.apply();
    assert.equal(renderDoc(doc), '\uFEFF[x]\r\nk = v\r\nn = 1');
  });
});
