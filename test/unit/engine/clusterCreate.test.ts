// The local engine over real HTTP: creating clusters, the accepted bodies and every validation error
// in pydantic's shape.
import * as assert from 'node:assert/strict';
import { assertIssue, call, create, type Json, TOKEN2, useEngine } from './engineHttp';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('cluster create and validation', () => {
    it('202 {cluster_id, message, instance_ids, request_id}', async () => {
      const r = await call('POST', '/cluster/create', {
        body: {
          instance_type: '8xH100',
          num_nodes: 3,
          tp_cluster_name: 'train',
          container: 'nvcr.io/nvidia/pytorch:25.01-py3',
          deletion_protection: true,
        },
      });
      assert.equal(r.status, 202, r.text);
      assert.match(r.json.cluster_id, /^c-[0-9a-f]+$/);
      assert.equal(typeof r.json.message, 'string');
      assert.equal(r.json.instance_ids.length, 3);
      for (const id of r.json.instance_ids) assert.match(id, /^i-[0-9a-f]+$/);
      assert.match(r.json.request_id, /^req_/);
      const info = await call('GET', `/cluster/info/${r.json.cluster_id}`);
      assert.equal(info.json.name, 'train');
      assert.equal(info.json.instance_type, '8xH100');
      assert.equal(info.json.num_nodes, 3);
      assert.equal(info.json.deletion_protection, true);
      assert.equal(info.json.container, 'nvcr.io/nvidia/pytorch:25.01-py3');
      assert.equal(info.json.owner, 'usr_1');
      assert.ok(!Number.isNaN(Date.parse(info.json.created_at)));
    });

    it('defaults: 1 node, a generated unique name, no protection; experimental_container is the image too', async () => {
      const a = await create({
        experimental_container: 'ghcr.io/x/y:1',
        num_nodes: null,
        public_keys: null,
        tp_cluster_name: null,
        deletion_protection: null,
        container: null,
      });
      const b = await create();
      const ia = (await call('GET', `/cluster/info/${a.cluster_id}`)).json;
      const ib = (await call('GET', `/cluster/info/${b.cluster_id}`)).json;
      assert.equal(ia.num_nodes, 1);
      assert.equal(ia.deletion_protection, false);
      assert.equal(ia.container, 'ghcr.io/x/y:1');
      assert.ok(ia.name.length > 0 && ib.name.length > 0);
      assert.notEqual(ia.name, ib.name);
      assert.equal(ib.container, null);
    });

    const bad: [string, unknown, string, (string | number)[]][] = [
      ['missing instance_type', { num_nodes: 1 }, 'missing', ['body', 'instance_type']],
      ['instance_type not a string', { instance_type: 8 }, 'string_type', ['body', 'instance_type']],
      [
        'instance_type without count',
        { instance_type: 'H100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with zero count',
        { instance_type: '0xH100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type without model',
        { instance_type: '8x' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with spaces',
        { instance_type: '8 x H100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with trailing newline',
        { instance_type: '8xH100\n' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with full-width digits',
        { instance_type: '１xH100' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      [
        'instance_type with non-ASCII letters',
        { instance_type: '8xH100é' },
        'string_pattern_mismatch',
        ['body', 'instance_type'],
      ],
      ['num_nodes 0', { instance_type: '1xH100', num_nodes: 0 }, 'greater_than_equal', ['body', 'num_nodes']],
      [
        'num_nodes negative',
        { instance_type: '1xH100', num_nodes: -2 },
        'greater_than_equal',
        ['body', 'num_nodes'],
      ],
      ['num_nodes 1.5', { instance_type: '1xH100', num_nodes: 1.5 }, 'int_from_float', ['body', 'num_nodes']],
      [
        'num_nodes as a string',
        { instance_type: '1xH100', num_nodes: '2' },
        'int_type',
        ['body', 'num_nodes'],
      ],
      [
        'num_nodes as a boolean',
        { instance_type: '1xH100', num_nodes: true },
        'int_type',
        ['body', 'num_nodes'],
      ],
      [
        'num_nodes huge',
        { instance_type: '1xH100', num_nodes: 1e9 },
        'less_than_equal',
        ['body', 'num_nodes'],
      ],
      [
        'both image fields',
        { instance_type: '1xH100', container: 'a', experimental_container: 'b' },
        'value_error',
        ['body'],
      ],
      [
        'public_keys not a list',
        { instance_type: '1xH100', public_keys: 'ssh-ed25519 AAAA' },
        'list_type',
        ['body', 'public_keys'],
      ],
      [
        'public_keys item not a string',
        { instance_type: '1xH100', public_keys: ['ok', 7] },
        'string_type',
        ['body', 'public_keys', 1],
      ],
      [
        'deletion_protection not a bool',
        { instance_type: '1xH100', deletion_protection: 'yes' },
        'bool_type',
        ['body', 'deletion_protection'],
      ],
      ['save_keys null', { instance_type: '1xH100', save_keys: null }, 'bool_type', ['body', 'save_keys']],
      ['save_keys not a bool', { instance_type: '1xH100', save_keys: 1 }, 'bool_type', ['body', 'save_keys']],
      [
        'tp_cluster_name not a string',
        { instance_type: '1xH100', tp_cluster_name: 5 },
        'string_type',
        ['body', 'tp_cluster_name'],
      ],
      [
        'tp_cluster_name blank',
        { instance_type: '1xH100', tp_cluster_name: '  ' },
        'string_too_short',
        ['body', 'tp_cluster_name'],
      ],
      [
        'container not a string',
        { instance_type: '1xH100', container: ['img'] },
        'string_type',
        ['body', 'container'],
      ],
      [
        'experimental_container not a string',
        { instance_type: '1xH100', experimental_container: 3 },
        'string_type',
        ['body', 'experimental_container'],
      ],
      ['body is a list', [{ instance_type: '1xH100' }], 'model_attributes_type', ['body']],
      ['body is null', null, 'missing', ['body']],
    ];
    for (const [name, body, type, loc] of bad) {
      it(`422 ${type} at ${JSON.stringify(loc)}: ${name}`, async () => {
        assertIssue(await call('POST', '/cluster/create', { body }), type, loc);
        assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 0, 'nothing was created');
      });
    }

    it('422 json_invalid for a body that is not JSON, missing for an empty body', async () => {
      const r = await call('POST', '/cluster/create', { raw: '{"instance_type": "1xH100",' });
      assert.equal(r.status, 422);
      assert.equal(r.json.detail[0].type, 'json_invalid');
      assert.equal(r.json.detail[0].loc[0], 'body');
      assert.equal(typeof r.json.detail[0].loc[1], 'number');
      assertIssue(await call('POST', '/cluster/create', { raw: '' }), 'missing', ['body']);
    });

    it('reports every problem at once', async () => {
      const r = await call('POST', '/cluster/create', { body: { num_nodes: 0, deletion_protection: 'no' } });
      assert.equal(r.status, 422);
      assert.deepEqual((r.json.detail as Json[]).map((d) => d.loc.join('.')).sort(), [
        'body.deletion_protection',
        'body.instance_type',
        'body.num_nodes',
      ]);
      assert.deepEqual(r.json.detail.find((d: Json) => d.type === 'missing').input, {
        num_nodes: 0,
        deletion_protection: 'no',
      });
    });

    it('409 {detail} for a duplicate name in the owner scope; another user may reuse it', async () => {
      await create({ tp_cluster_name: 'shared-name' });
      const dup = await call('POST', '/cluster/create', {
        body: { instance_type: '1xH100', tp_cluster_name: 'shared-name' },
      });
      assert.equal(dup.status, 409);
      assert.match(dup.json.detail, /shared-name/);
      assert.equal((await call('GET', '/cluster/list')).json.clusters.length, 1);
      await create({ tp_cluster_name: 'shared-name' }, TOKEN2);
    });
  });
});
