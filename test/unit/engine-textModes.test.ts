/**
 * The engine's per-endpoint answer shapes: structured, text-only or both, and the table style the
 * text uses, chosen through POST /_engine/config `answers`.
 */
import * as assert from 'node:assert/strict';
import { engineCall, useTestEngine } from '../fixtures/clientEngine';
import type { EngineHandle } from '../fixtures/engine';
import { ED25519_KEY } from '../fixtures/payloads';
import type { TextStyle } from '../../engine/types';

describe('engine: text-only answers per endpoint, in several table styles', function () {
  let engine: EngineHandle;
  const call = (method: string, path: string, body?: unknown) => engineCall(engine, method, path, body);
  // Sent unchecked: the refusals below are bodies the config type rules out.
  const control = (body: unknown) => engine.unchecked('POST', 'config', body);

  useTestEngine((e) => (engine = e));
  beforeEach(async () => {
    await call('POST', '/cluster/create', {
      instance_type: '1xH100',
      tp_cluster_name: 'styled',
      num_nodes: 2,
    });
    await call('POST', '/user/ssh-key/add', { public_key: ED25519_KEY, name: 'laptop' });
  });

  const marks: Record<TextStyle, RegExp> = {
    plain: /^CLUSTER ID {2,}NAME/m,
    markdown: /^\| CLUSTER ID +\| NAME .*\n\|-+\|/m,
    grid: /^\+-+\+.*\n\| CLUSTER ID .*\n\+=+\+/m,
    box: /^┌─+┬.*\n│ CLUSTER ID .*\n├─+┼/m,
    heavy: /^┏━+┳.*\n┃ CLUSTER ID .*\n┡━+╇/m,
    keyValue: /^CLUSTER ID: c-/m,
    // Lists as `heavy`; the info is one `Field | Value` table (checked below).
    fieldValue: /^┏━+┳.*\n┃ CLUSTER ID .*\n┡━+╇/m,
  };
  const infoMarks: Partial<Record<TextStyle, RegExp>> = {
    fieldValue: /^┏━+┳━+┓\n┃ Field +┃ Value +┃\n┡━+╇━+┩\n│ Cluster ID +│ c-/m,
  };
  for (const [style, mark] of Object.entries(marks) as Array<[TextStyle, RegExp]>) {
    it(`cluster list and info answer text only in the ${style} style`, async () => {
      await engine.config({
        answers: { clusterList: { mode: 'text', style }, clusterInfo: { mode: 'text', style } },
      });
      const list = await call('GET', '/cluster/list?instances=true');
      assert.deepEqual(Object.keys(list.json), ['message']);
      assert.match(String(list.json.message), mark);
      assert.match(String(list.json.message), /styled/);
      const info = await call('GET', '/cluster/info/styled');
      assert.deepEqual(Object.keys(info.json), ['message']);
      assert.match(String(info.json.message), /styled/);
      if (style !== 'plain') assert.match(String(info.json.message), infoMarks[style] ?? mark);
    });
  }

  it('each endpoint has its own shape; the others keep theirs', async () => {
    await engine.config({ answers: { sshKeyList: { mode: 'text', style: 'markdown' } } });
    const keys = await call('GET', '/user/ssh-key/list');
    assert.deepEqual(Object.keys(keys.json), ['message']);
    assert.match(String(keys.json.message), /^\| KEY ID +\| NAME/m);
    const list = await call('GET', '/cluster/list');
    assert.deepEqual(Object.keys(list.json).sort(), ['clusters', 'message']);
    await engine.config({ answers: { clusterList: { mode: 'structured' } } });
    assert.deepEqual(Object.keys((await call('GET', '/cluster/list')).json), ['clusters']);
    const info = await call('GET', '/cluster/info/styled');
    assert.ok('message' in info.json && 'id' in info.json, 'info still answers both');
  });

  it('/me answers "Logged in as <email>" alone in text mode, and adds it in both mode', async () => {
    const plain = await call('GET', '/me');
    assert.equal(plain.json.message, undefined);
    await engine.config({ answers: { me: { mode: 'text' } } });
    assert.deepEqual((await call('GET', '/me')).json, { message: 'Logged in as dev1@tensorpool.local' });
    await engine.config({ answers: { me: { mode: 'both' } } });
    const both = await call('GET', '/me');
    assert.equal(both.json.email, 'dev1@tensorpool.local');
    assert.equal(both.json.message, 'Logged in as dev1@tensorpool.local');
  });

  it('null puts an endpoint back to its default; listMode still governs cluster answers by default', async () => {
    await engine.config({ listMode: 'text', answers: { clusterList: { mode: 'structured' } } });
    assert.deepEqual(Object.keys((await call('GET', '/cluster/list')).json), ['clusters']);
    await engine.config({ answers: { clusterList: null } });
    assert.deepEqual(Object.keys((await call('GET', '/cluster/list')).json), ['message']);
  });

  it('a style alone keeps the mode; reset forgets every choice', async () => {
    await engine.config({ answers: { clusterList: { mode: 'text' } } });
    const config = await engine.config({ answers: { clusterList: { style: 'box' } } });
    assert.deepEqual(config.answers, {
      clusterList: { mode: 'text', style: 'box' },
    });
    await engine.reset();
    assert.deepEqual((await engine.getConfig()).answers, {});
    assert.deepEqual(Object.keys((await call('GET', '/cluster/list')).json).sort(), ['clusters', 'message']);
  });

  it('refuses unknown endpoints, modes, styles and fields with 400', async () => {
    for (const bad of [
      { answers: { clusterLsit: { mode: 'text' } } },
      { answers: { clusterList: { mode: 'xml' } } },
      { answers: { clusterList: { style: 'html' } } },
      { answers: { clusterList: { mode: 'text', colour: true } } },
      { answers: { clusterList: 'text' } },
      { answers: [] },
    ]) {
      const r = await control(bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(typeof r.json.error, 'string');
    }
    assert.deepEqual((await engine.getConfig()).answers, {});
  });
});
