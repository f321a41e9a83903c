/**
 * The text reader: every table style and odd input of the corpus gives the clusters the text names,
 * by header names; text that is not a table gives nothing; nothing throws.
 */
import * as assert from 'node:assert/strict';
import { clusterFromText, clustersFromText } from '../../src/api/normalize';
import { toSshKeyListing } from '../../src/api/sshKeys';
import { JOB_COLUMNS, VOLUME_COLUMNS, mapColumns, recordsFromText } from '../../src/api/textRecords';
import { readTextTables, stripAnsi } from '../../src/api/textTable';
import { ODD_INPUTS, TABLE_STYLES } from '../fixtures/textTables';

function pick(c: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (c as Record<string, unknown>)[k]]));
}

describe('text reader: clusters from every table style', () => {
  for (const sample of [...TABLE_STYLES, ...ODD_INPUTS]) {
    it(`reads ${sample.title}`, () => {
      const { clusters } = clustersFromText(sample.text);
      assert.deepEqual(
        clusters.map((c) => c.id),
        sample.clusters.map((c) => c.id),
      );
      sample.clusters.forEach((want, i) => {
        const keys = Object.keys(want);
        assert.deepEqual(pick(clusters[i], keys), want);
        assert.equal(clusters[i].source, 'text');
      });
    });
  }

  it('attaches instances from an instances table to their clusters', () => {
    const aligned = TABLE_STYLES.find((s) => s.title.startsWith('space-aligned'))!;
    const [a, b, c] = clustersFromText(aligned.text).clusters;
    assert.deepEqual(
      a.instances.map((i) => [i.id, i.ip, i.privateIp]),
      [
        ['i-aaa', '1.2.3.4', '10.0.0.1'],
        ['i-bbb', '1.2.3.5', '10.0.0.2'],
      ],
    );
    assert.deepEqual(
      b.instances.map((i) => [i.id, i.ip, i.status]),
      [['i-ccc', undefined, 'PENDING']],
    );
    assert.deepEqual(c.instances, []);
  });

  it('keeps rows without an id as text instead of guessing', () => {
    const text = ['| ID | Name |', '|---|---|', '| c-1 | a |', '| — | orphan |', '| | |'].join('\n');
    const read = clustersFromText(text);
    assert.deepEqual(
      read.clusters.map((c) => c.id),
      ['c-1'],
    );
    assert.deepEqual(read.unread, ['— · orphan']);
  });

  it('never throws, whatever it is given', () => {
    const inputs: unknown[] = [
      undefined,
      null,
      42,
      {},
      [],
      '|',
      '+',
      '│',
      ':',
      '\u001b[',
      'a  b\n  \n  c',
      '\r\r\n',
    ];
    inputs.push('|'.repeat(10_000), '┌' + '─'.repeat(5000), `${'x  '.repeat(2000)}\n${'y  '.repeat(3000)}`);
    for (const input of inputs) {
      assert.doesNotThrow(() => clustersFromText(input));
      assert.doesNotThrow(() => readTextTables(input));
    }
    assert.deepEqual(clustersFromText(undefined), { clusters: [], unread: [] });
  });

  it('reads a whole info answer for the cluster asked about, even without an id column', () => {
    const text = [
      'Cluster c-9 (solo)',
      '  Status:              RUNNING',
      '  Instance type:       2xH100',
      '  Nodes:               1',
      '  Deletion protection: enabled',
      '',
      'Instances:',
      'INSTANCE ID  STATUS   PUBLIC IP  PRIVATE IP',
      'i-1          RUNNING  5.6.7.8    10.0.0.9',
    ].join('\n');
    const c = clusterFromText(text, 'c-9');
    assert.equal(c?.id, 'c-9');
    assert.equal(c?.status, 'RUNNING');
    assert.equal(c?.deletionProtection, true);
    assert.deepEqual(
      c?.instances.map((i) => [i.id, i.ip]),
      [['i-1', '5.6.7.8']],
    );
    assert.equal(clusterFromText('Cluster not found.', 'c-9'), undefined);
  });

  for (const [title, box] of [
    ['rich, heavy head', { top: '┏┳┓━', head: '┡╇┩━', bottom: '└┴┘─', v: ['┃', '│'] }],
    ['rich, rounded', { top: '╭┬╮─', head: '├┼┤─', bottom: '╰┴╯─', v: ['│', '│'] }],
    ['ASCII grid', { top: '+++-', head: '+++=', bottom: '+++-', v: ['|', '|'] }],
  ] as const)
    it(`reads a "Field | Value" info table (${title}) with the nodes and their addresses in one wrapped cell`, () => {
      const rows = [
        ['Cluster ID', 'c-1a2b3c'],
        ['Name', 'train'],
        ['Status', 'RUNNING'],
        ['Instances', 'i-1a2b (203.0.113.5),'],
        ['', 'i-3c4d (203.0.113.6)'],
        ['Deletion Protection', 'no'],
      ];
      const w = [19, 24];
      const rule = (c: string) => c[0] + w.map((n) => c[3].repeat(n + 2)).join(c[1]) + c[2];
      const line = (r: readonly string[], v: string) =>
        `${v} ${r.map((x, i) => x.padEnd(w[i])).join(` ${v} `)} ${v}`;
      const text = [
        'Cluster details',
        rule(box.top),
        line(['Field', 'Value'], box.v[0]),
        rule(box.head),
        ...rows.map((r) => line(r, box.v[1])),
        rule(box.bottom),
      ].join('\n');
      const c = clusterFromText(text, 'c-1a2b3c');
      assert.deepEqual(c && [c.id, c.name, c.status, c.deletionProtection, c.numNodes], [
        'c-1a2b3c',
        'train',
        'RUNNING',
        false,
        2,
      ]);
      assert.deepEqual(
        c?.instances.map((i) => [i.id, i.ip]),
        [
          ['i-1a2b', '203.0.113.5'],
          ['i-3c4d', '203.0.113.6'],
        ],
      );
    });

  it('an "Instances" cell that only counts them, or lists bare ids, gives no addresses it does not have', () => {
    const count = clusterFromText('Field | Value\n--- | ---\nCluster ID | c-2\nInstances | 3', 'c-2');
    assert.equal(count?.numNodes, 3);
    assert.deepEqual(count?.instances, []);
    const ids = clusterFromText(
      '| Field | Value |\n|---|---|\n| Cluster ID | c-3 |\n| Instances | i-1, i-2 |',
      'c-3',
    );
    assert.deepEqual(
      ids?.instances.map((i) => [i.id, i.ip]),
      [
        ['i-1', undefined],
        ['i-2', undefined],
      ],
    );
  });
});

describe('text reader: tables and records', () => {
  it('strips ANSI colour and style codes', () => {
    assert.equal(
      stripAnsi('\u001b[1;32mRUNNING\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007'),
      'RUNNING link',
    );
  });

  it('matches columns case-insensitively with synonyms, each field once', () => {
    assert.deepEqual(mapColumns(['JOB ID', 'State', 'job_name', 'Status', 'Größe'], JOB_COLUMNS), [
      'id',
      'status',
      'name',
      undefined,
      undefined,
    ]);
  });

  it('gives records for any vocabulary: jobs and volumes', () => {
    const jobs = recordsFromText(
      ['| Job ID | Name | Status |', '|---|---|---|', '| j-1 | sweep | RUNNING |'].join('\n'),
      JOB_COLUMNS,
      { key: 'id' },
    );
    assert.deepEqual(jobs.records[0].fields, { id: 'j-1', name: 'sweep', status: 'RUNNING' });
    const volumes = recordsFromText('STORAGE ID  NAME  SIZE\ns-1         data  100 GB', VOLUME_COLUMNS, {
      key: 'id',
    });
    assert.deepEqual(volumes.records[0].fields, { id: 's-1', name: 'data', size: '100 GB' });
  });

  it('reads SSH keys from structured keys, else from the text', () => {
    const structured = toSshKeyListing({ keys: [{ key_id: 'k-1', name: 'laptop' }], message: 'x' });
    assert.deepEqual(
      structured.keys?.map((k) => [k.id, k.name, k.fromText]),
      [['k-1', 'laptop', undefined]],
    );
    const text = toSshKeyListing({
      message:
        'KEY ID  NAME    TYPE         FINGERPRINT   ADDED\nk-2     laptop  ssh-ed25519  SHA256:abc    2026-01-01',
    });
    assert.deepEqual(
      text.keys?.map((k) => [k.id, k.name, k.type, k.fingerprint, k.fromText]),
      [['k-2', 'laptop', 'ssh-ed25519', 'SHA256:abc', true]],
    );
    const prose = toSshKeyListing({ message: 'No SSH keys saved.' });
    assert.equal(
      prose.keys,
      undefined,
      'text that is not a table leaves the keys unknown (the text is shown)',
    );
    assert.equal(prose.message, 'No SSH keys saved.');
  });
});
