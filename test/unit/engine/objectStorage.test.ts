// The local engine over real HTTP: object storage: enabling, credentials, key rotation, buckets, disabling.
import * as assert from 'node:assert/strict';
import { sleep } from '../../shared/wait';
import { assertIssue, call, control, TOKEN2, useEngine } from './engineHttp';

describe('local engine', function () {
  this.timeout(20_000);
  useEngine();

  describe('object storage', () => {
    it('everything is 404 before enable', async () => {
      for (const [m, p] of [
        ['GET', '/object-storage/credentials'],
        ['POST', '/object-storage/rotate-keys'],
        ['DELETE', '/object-storage/disable'],
        ['GET', '/object-storage/configure/aws'],
        ['GET', '/object-storage/configure/rclone'],
        ['GET', '/object-storage/bucket/list'],
        ['PUT', '/object-storage/bucket/create/my-bucket'],
        ['DELETE', '/object-storage/bucket/delete/my-bucket'],
      ]) {
        const r = await call(m, p);
        assert.equal(r.status, 404, `${m} ${p}`);
        assert.match(r.json.detail, /not enabled/);
      }
    });

    it('enable (idempotent), credentials, rotate, configure aws/rclone, disable', async () => {
      const first = await call('POST', '/object-storage/enable');
      assert.equal(first.status, 200);
      const rec = first.json;
      assert.equal(rec.org_id, 'org_local');
      assert.match(rec.access_key_id, /^[A-Z0-9]{20}$/);
      assert.equal(rec.secret_access_key.length, 40);
      assert.equal(rec.endpoint, 'https://storage.tensorpool.local');
      assert.equal(rec.region, 'us-east-1');
      assert.equal(rec.status, 'ACTIVE');
      assert.equal(typeof rec.profile_id, 'string');
      assert.equal(typeof rec.iam_username, 'string');
      assert.ok(!Number.isNaN(Date.parse(rec.created_at)) && !Number.isNaN(Date.parse(rec.updated_at)));

      const again = await call('POST', '/object-storage/enable');
      assert.deepEqual(again.json, rec, 'enable again returns the existing record');
      assert.deepEqual((await call('GET', '/object-storage/credentials')).json, rec);
      // Org-wide: another member sees the same record.
      assert.deepEqual((await call('GET', '/object-storage/credentials', { token: TOKEN2 })).json, rec);

      await sleep(5);
      const rotated = (await call('POST', '/object-storage/rotate-keys')).json;
      assert.notEqual(rotated.access_key_id, rec.access_key_id);
      assert.notEqual(rotated.secret_access_key, rec.secret_access_key);
      assert.ok(Date.parse(rotated.updated_at) > Date.parse(rec.updated_at));
      assert.equal(rotated.created_at, rec.created_at);
      assert.deepEqual((await call('GET', '/object-storage/credentials')).json, rotated);

      const aws = (await call('GET', '/object-storage/configure/aws')).json;
      assert.equal(aws.profile_name, 'tp');
      assert.ok(
        aws.credentials_file.includes(rotated.access_key_id) &&
          aws.credentials_file.includes(rotated.secret_access_key),
      );
      assert.match(aws.config_file, /\[profile tp\]/);
      assert.equal(aws.endpoint, 'https://storage.tensorpool.local');
      const rclone = (await call('GET', '/object-storage/configure/rclone')).json;
      assert.equal(rclone.remote_name, 'tp');
      assert.match(rclone.rclone_config, /^\[tp\]\ntype = s3/);
      assert.ok(rclone.rclone_config.includes(rotated.access_key_id));

      const off = await call('DELETE', '/object-storage/disable');
      assert.equal(off.status, 200);
      assert.equal(typeof off.json.message, 'string');
      assert.equal((await call('GET', '/object-storage/credentials')).status, 404);
      // Enabling again issues new keys.
      const fresh = (await call('POST', '/object-storage/enable')).json;
      assert.notEqual(fresh.access_key_id, rotated.access_key_id);
    });

    it('buckets: 201 create, 409 duplicate, 422 bad names, list objects, 409 non-empty delete, 204, 404', async () => {
      await call('POST', '/object-storage/enable');
      const made = await call('PUT', '/object-storage/bucket/create/datasets-01');
      assert.equal(made.status, 201, made.text);
      assert.equal(made.json.name, 'datasets-01');
      assert.equal((await call('PUT', '/object-storage/bucket/create/datasets-01')).status, 409);
      for (const name of [
        'Bad_Name',
        'ab',
        'a'.repeat(64),
        'a..b',
        '192.168.1.1',
        '-abc',
        'abc-',
        'xn--abc',
        'abc-s3alias',
        'my.bucket.mrap',
      ]) {
        assertIssue(
          await call('PUT', `/object-storage/bucket/create/${encodeURIComponent(name)}`),
          'value_error',
          ['path', 'bucket'],
        );
      }
      await call('PUT', '/object-storage/bucket/create/empty.bucket');
      await control.putObject('datasets-01', 'train/part-0001.parquet');

      const list = await call('GET', '/object-storage/bucket/list');
      assert.equal(list.status, 200);
      assert.deepEqual(list.json.buckets, ['datasets-01', 'empty.bucket']);
      assert.match(list.json.message, /datasets-01\s+1\s/);

      const full = await call('DELETE', '/object-storage/bucket/delete/datasets-01');
      assert.equal(full.status, 409);
      assert.match(full.json.detail, /not empty/);
      const del = await call('DELETE', '/object-storage/bucket/delete/empty.bucket');
      assert.equal(del.status, 204);
      assert.equal(del.text, '');
      assert.equal((await call('DELETE', '/object-storage/bucket/delete/empty.bucket')).status, 404);
      assert.deepEqual((await call('GET', '/object-storage/bucket/list')).json.buckets, ['datasets-01']);
    });
  });
});
