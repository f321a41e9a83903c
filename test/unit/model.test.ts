/**
 * The domain model: validators shared by wizards and schemas, status classification, and the
 * normalisation of whatever cluster shapes the server sends.
 */
import * as assert from 'node:assert/strict';
import {
  clusterLabel,
  clusterPhase,
  clusterShape,
  isInTransition,
  isTerminalRequestStatus,
} from '../../src/model/cluster';
import {
  validateApiToken,
  validateApiUrl,
  validateBucketName,
  validateClusterName,
  validateContainerImage,
  validateInstanceType,
  validateNumNodes,
  validatePublicKey,
  KNOWN_INSTANCE_TYPES,
} from '../../src/model/validate';
import { toBucket, toCluster, toListing } from '../../src/api/normalize';
import { ED25519_KEY, RSA_PRIVATE_KEY_HEAD, clusterRecord, instanceRecord } from '../fixtures/payloads';

describe('validators', () => {
  const cases: Array<[string, (v: string) => string | undefined, string[], string[]]> = [
    [
      'instance type',
      validateInstanceType,
      [...KNOWN_INSTANCE_TYPES, '32xCPU'],
      ['', ' ', 'xH100', '8x', '8 x H100', '\u0663xH100', '0xH100', '8xH100 ', 'H100', '8X H100', '8x-H100'],
    ],
    [
      'nodes',
      validateNumNodes,
      ['1', '2', ' 4 ', '512'],
      ['', ' ', '0', '-1', '1.5', '1,5', '1e3', '1000000000', 'two', '0x10'],
    ],
    [
      'cluster name',
      validateClusterName,
      ['train-a', 'a', 'Run_2.b'],
      ['', '   ', ' lead', 'a\u0000b', 'a\nb', 'x'.repeat(10_000), 'with space', 'slash/name', '-dash'],
    ],
    [
      'public key',
      validatePublicKey,
      [ED25519_KEY, `${ED25519_KEY.split(' ').slice(0, 2).join(' ')}`],
      ['', RSA_PRIVATE_KEY_HEAD, 'hello', 'ssh-ed25519 short', `${ED25519_KEY}\n${ED25519_KEY}`],
    ],
    [
      'image',
      validateContainerImage,
      [
        'ubuntu:22.04',
        'nvcr.io/nvidia/pytorch:24.05-py3',
        'ghcr.io/org/img@sha256:' + 'a'.repeat(64),
        'localhost:5000/x',
      ],
      ['', 'my image', 'UPPER/case', 'a:b:c:d', 'x'.repeat(600)],
    ],
    [
      'token',
      validateApiToken,
      ['tp_abcdefgh12345678'],
      ['', '   ', 'Bearer tp_abcdefgh', 'tp abc defgh', 'short', 'tp_abc\u0000defgh', 'x'.repeat(5000)],
    ],
    [
      'api url',
      validateApiUrl,
      ['https://engine.tensorpool.dev', 'http://127.0.0.1:8750', 'http://localhost:1'],
      [
        'http://engine.tensorpool.dev',
        'http://192.168.1.2',
        'engine.tensorpool.dev',
        'file:///etc/passwd',
        'https://u:p@h',
      ],
    ],
    [
      'bucket',
      validateBucketName,
      ['my-bucket', 'a.b.c', 'abc'],
      ['ab', 'My-Bucket', 'a..b', '-abc', '192.168.1.1', 'xn--abc', 'abc-s3alias', 'under_score'],
    ],
  ];
  for (const [name, validate, good, bad] of cases) {
    it(`${name}: accepts ${good.length} good values`, () => {
      for (const g of good) assert.equal(validate(g), undefined, `rejected ${JSON.stringify(g)}`);
    });
    it(`${name}: rejects ${bad.length} bad values with a specific message`, () => {
      const messages = bad.map((b) => validate(b));
      messages.forEach((m, i) => assert.ok(m && m.length > 15, `accepted ${JSON.stringify(bad[i])}`));
    });
  }
  it('messages are specific to the mistake', () => {
    assert.match(validateInstanceType('xH100')!, /count/);
    assert.match(validateInstanceType('8x')!, /model/);
    assert.match(validateNumNodes('1.5')!, /whole/);
    assert.match(validateNumNodes('-3')!, /negative/);
    assert.match(validatePublicKey(RSA_PRIVATE_KEY_HEAD)!, /PRIVATE/);
    assert.match(validateApiUrl('http://example.com')!, /unencrypted/);
  });
  it('never echoes control characters back', () => {
    assert.ok(!/[\u0000-\u001f]/.test(validateInstanceType('a\u0007b')!));
  });
});

describe('cluster state', () => {
  it('classifies open status strings in any case', () => {
    assert.equal(clusterPhase('RUNNING'), 'running');
    assert.equal(clusterPhase('running'), 'running');
    assert.equal(clusterPhase('Provisioning'), 'transitional');
    assert.equal(clusterPhase('starting'), 'transitional');
    assert.equal(clusterPhase('DESTROYING'), 'transitional');
    assert.equal(clusterPhase('FAILED'), 'failed');
    assert.equal(clusterPhase('stopped'), 'stopped');
    assert.equal(clusterPhase('HIBERNATING'), 'unknown');
    assert.equal(clusterPhase(undefined), 'unknown');
  });
  it('terminal request statuses are exactly COMPLETED and FAILED', () => {
    assert.deepEqual(
      ['PENDING', 'PROCESSING', 'RETRYING', 'COMPLETED', 'FAILED', 'NEW'].map(isTerminalRequestStatus),
      [false, false, false, true, true, false],
    );
  });
  it('label, shape and transition', () => {
    const c = toCluster(
      clusterRecord({
        name: 'x',
        instance_type: '8xH100',
        num_nodes: 2,
        status: 'RUNNING',
        instances: [instanceRecord(), instanceRecord({ status: 'PROVISIONING' })],
      }),
    )!;
    assert.equal(clusterLabel(c), 'x');
    assert.equal(clusterShape(c), '8xH100 × 2');
    assert.equal(isInTransition(c), true);
    assert.equal(clusterLabel(toCluster(clusterRecord({ id: 'c-1', name: '' }))!), 'c-1');
  });
});

describe('normalisation of server shapes', () => {
  it('reads the guessed third-party shape and alternative names', () => {
    const a = toCluster(clusterRecord({ id: 'c-a', deletion_protection: true }))!;
    assert.equal(a.id, 'c-a');
    assert.equal(a.deletionProtection, true);
    assert.equal(a.instances[0].ip, '203.0.113.10');
    const b = toCluster({
      cluster_id: 'c-b',
      cluster_name: 'bee',
      num_nodes: '3',
      instance_ids: ['i-1', 'i-2'],
      deletion_protection: 'True',
    })!;
    assert.deepEqual(
      [b.id, b.name, b.numNodes, b.instances.map((i) => i.id), b.deletionProtection],
      ['c-b', 'bee', 3, ['i-1', 'i-2'], true],
    );
    const c = toCluster({
      id: 7,
      instances: [{ instance_id: 'i-9', public_ip: '198.51.100.9', state: 'running' }],
    })!;
    assert.deepEqual(c.instances[0], {
      id: 'i-9',
      ip: '198.51.100.9',
      status: 'running',
      privateIp: undefined,
    });
  });
  it('skips records without an id and counts them', () => {
    const l = toListing({
      message: 'table',
      clusters: [clusterRecord(), { name: 'no id' }, 'junk' as never],
    });
    assert.equal(l.clusters?.length, 1);
    assert.equal(l.skipped, 2);
  });
  it('text-only and empty listings differ', () => {
    assert.equal(toListing({ message: 'only text' }).clusters, undefined);
    assert.deepEqual(toListing({ message: '', clusters: [] }).clusters, []);
  });
  it('buckets as strings or objects', () => {
    assert.deepEqual(toBucket('b1'), { name: 'b1' });
    assert.deepEqual(toBucket({ Name: 'b2', CreationDate: '2026', object_count: 4 }), {
      name: 'b2',
      createdAt: '2026',
      objectCount: 4,
    });
    assert.equal(toBucket({}), undefined);
  });
});
