/**
 * How clusters, nodes and long values are named to the user (the same words in the tree, every
 * picker and notifications), and times as relative and exact local text.
 */
import * as assert from 'node:assert/strict';
import type { Cluster } from '../../src/model/cluster';
import {
  clusterDescription,
  clusterPickLabel,
  editSentence,
  endpointHost,
  instanceLabel,
  shortenMiddle,
  stateWord,
} from '../../src/model/labels';
import { exactTime, relativeTime, timeForRow } from '../../src/model/time';

const running: Cluster = {
  id: 'c-7f3a9e21',
  name: 'train',
  instanceType: '8xH100',
  numNodes: 2,
  status: 'RUNNING',
  instances: [],
};

describe('cluster labels', () => {
  it('the state word comes first, short and lower case, then type and node count', () => {
    assert.equal(clusterDescription(running), 'running · 8xH100 × 2');
    assert.equal(
      clusterDescription({ ...running, status: 'PROVISIONING', numNodes: 1 }),
      'provisioning · 8xH100',
    );
    assert.equal(clusterDescription({ id: 'c-1', instances: [] }), 'unknown');
  });

  it('an operation this window follows replaces the state word', () => {
    assert.equal(clusterDescription(running, 'create'), 'creating · 8xH100 × 2');
    assert.equal(clusterDescription(running, 'destroy'), 'destroying · 8xH100 × 2');
    assert.equal(clusterDescription(running, 'edit'), 'updating · 8xH100 × 2');
  });

  it('the node count comes from the instances when the server gives no num_nodes', () => {
    const c: Cluster = {
      id: 'c-2',
      instanceType: '1xH100',
      status: 'running',
      instances: [{ id: 'i-1' }, { id: 'i-2' }, { id: 'i-3' }],
    };
    assert.equal(clusterDescription(c), 'running · 1xH100 × 3');
  });

  it('state words: separators become spaces, long words are cut with an ellipsis', () => {
    assert.equal(stateWord('NOT_READY'), 'not ready');
    assert.equal(stateWord(' Pending-Claim '), 'pending claim');
    assert.equal(stateWord(undefined), 'unknown');
    assert.equal(stateWord(''), 'unknown');
    const long = stateWord('WAITING_FOR_CAPACITY_IN_REGION');
    assert.equal(long.length, 14);
    assert.ok(long.endsWith('…') && long.startsWith('waiting for'), long);
  });

  it('a picker item uses the same label and description as the tree row, the id as detail', () => {
    assert.deepEqual(clusterPickLabel(running), {
      label: 'train',
      description: 'running · 8xH100 × 2',
      detail: 'c-7f3a9e21',
    });
    assert.equal(clusterPickLabel({ ...running, name: '  ' }).label, 'c-7f3a9e21');
  });

  it('nodes are numbered from 1 with their address, or say they have none yet', () => {
    assert.equal(instanceLabel(0, { id: 'i-1', ip: '203.0.113.7' }), 'node 1 · 203.0.113.7');
    assert.equal(instanceLabel(2, { id: 'i-3' }), 'node 3 · no address yet');
  });

  it('an accepted edit is told in one short sentence of our own', () => {
    assert.equal(editSentence('x', { cluster_name: 'y' }), 'Renamed x to y.');
    assert.equal(
      editSentence('x', { cluster_name: 'y', deletion_protection: true }),
      'Renamed x to y; deletion protection is on.',
    );
    assert.equal(editSentence('x', { deletion_protection: false }), 'Deletion protection is off for x.');
    assert.equal(editSentence('x', {}), 'No change to x.');
  });

  it('long identifiers keep their start and end', () => {
    assert.equal(shortenMiddle('TPAKABCDEFGHIJKLMNOP'), 'TPAKAB…LMNOP');
    assert.equal(shortenMiddle('TPAKABCDEFGHIJKLMNOP').length, 12);
    assert.equal(shortenMiddle('SHORTKEY'), 'SHORTKEY');
    assert.equal(shortenMiddle('ABCDEFGHIJKLM', 12), 'ABCDEF…IJKLM');
  });

  it('endpoints show as their host (and port)', () => {
    assert.equal(endpointHost('https://storage.tensorpool.dev/some/path'), 'storage.tensorpool.dev');
    assert.equal(endpointHost('http://127.0.0.1:9000'), '127.0.0.1:9000');
    assert.equal(endpointHost('not a url'), 'not a url');
  });
});

describe('times', () => {
  const now = Date.parse('2026-11-23T18:00:00Z');
  const ago = (seconds: number): string => new Date(now - seconds * 1000).toISOString();

  it('relative times in words, past and future', () => {
    assert.equal(relativeTime(ago(10), now), 'just now');
    assert.equal(relativeTime(ago(-10), now), 'just now');
    assert.equal(relativeTime(ago(60), now), '1 minute ago');
    assert.equal(relativeTime(ago(180), now), '3 minutes ago');
    assert.equal(relativeTime(ago(2 * 3600), now), '2 hours ago');
    assert.equal(relativeTime(ago(26 * 3600), now), 'yesterday');
    assert.equal(relativeTime(ago(3 * 86400), now), '3 days ago');
    assert.equal(relativeTime(ago(-2 * 3600), now), 'in 2 hours');
    assert.equal(relativeTime(ago(400 * 86400), now), 'last year');
  });

  it('timestamps with an offset and without a zone are read', () => {
    assert.equal(relativeTime('2026-11-23T19:57:00+02:00', now), '3 minutes ago');
    assert.ok(relativeTime('2026-11-23T17:00:00', now), 'a local time without zone is still a date');
  });

  it('anything that is not a date gives undefined; the row then shows the text as sent', () => {
    for (const bad of [undefined, '', '   ', 'yesterday-ish', 'N/A'])
      assert.equal(relativeTime(bad, now), undefined, String(bad));
    assert.equal(exactTime('N/A'), undefined);
    assert.equal(timeForRow('N/A', now), 'N/A');
    assert.equal(timeForRow(ago(180), now), '3 minutes ago');
  });

  it('the exact time is given in the requested zone, with seconds and the zone named', () => {
    const text = exactTime('2026-11-23T18:02:35Z', 'en-US', 'UTC');
    assert.equal(text, 'Nov 23, 2026, 6:02:35 PM UTC');
    const berlin = exactTime('2026-11-23T18:02:35Z', 'en-US', 'Europe/Berlin');
    assert.match(berlin ?? '', /7:02:35 PM GMT\+1/);
  });
});
