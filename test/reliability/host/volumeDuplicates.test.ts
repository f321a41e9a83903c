// Duplicate volume creates and attaches: faults around POST /storage/create and POST /storage/attach,
// through the real commands and their wizards. The engine's log must show exactly one request per
// confirmation; the user is told the outcome is unknown and how to check; nothing is sent again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { HTML_502 } from '../catalogue';
import { ledger } from '../ledger';
import { ensureSignedIn, freshAccount } from './common';
import { control, engine, hideViews, sleep } from './util';

const CASES: Array<{ id: string; fault: Record<string, unknown> }> = [
  { id: 'drop', fault: { action: 'drop' } },
  { id: 'drop-after', fault: { action: 'drop-after' } },
  { id: '502', fault: { status: 502, rawBody: HTML_502, contentType: 'text/html' } },
  { id: '500', fault: { status: 500, body: { message: 'internal error' } } },
  { id: 'truncated', fault: { action: 'truncate' } },
  { id: 'empty-200', fault: { status: 200, rawBody: '' } },
];

async function service(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(engine.url + path, {
    method,
    headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

suite('Reliability: duplicate volume creates and attaches under connection faults', () => {
  let ext: TensorPoolExtensionApi;
  let clusterId: string;

  suiteSetup(async () => {
    ext = await freshAccount();
    await control.seed({ clusters: 1, numNodes: 2, prefix: 'volmulti' });
    await ext.refresh();
    clusterId = ext.testing.clusters.data!.clusters!.find((c) => c.name === 'volmulti-1')!.id;
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
    await ensureSignedIn(ext);
    await hideViews();
  });

  for (const c of CASES) {
    ledger.cover(
      test(`create ${c.id}: one POST /storage/create, "may or may not have been created"`, async () => {
        await control.clearLog();
        await control.fault({ method: 'POST', path: '/storage/create', ...c.fault });
        const p = new ScriptedPrompter(['10', `dupvol-${c.id}`, 'Off', 'Create volume', 'Check Volume List']);
        ext.setPrompter(p);
        const result = await vscode.commands.executeCommand('tensorpool.createVolume');
        assert.equal(result, undefined);
        assert.deepEqual(p.remaining, []);
        const creates = (await control.calls('POST', '/storage/create')).length;
        ledger.mutationsFor('create volume', 1, creates);
        assert.equal(creates, 1, 'sent once, never again by itself');
        const prompt = p.shown.find((s) => s.kind === 'confirm')!;
        assert.equal(prompt.message, 'The volume may or may not have been created.');
        assert.match(prompt.detail ?? '', /sending it again could create a second volume/);
      }),
    );

    ledger.cover(
      test(`attach ${c.id}: one POST /storage/attach, "may or may not have been attached"`, async () => {
        const made = await service('POST', '/storage/create', { size: 5, deletion_protection: false });
        await sleep(1000); // pending 200 ms + processing 600 ms: the volume is ready
        await control.clearLog();
        await control.fault({ method: 'POST', path: '/storage/attach', ...c.fault });
        const p = new ScriptedPrompter(['volmulti-1', 'Attach and Restart Nodes', 'Check Volume List']);
        ext.setPrompter(p);
        const ok = await vscode.commands.executeCommand('tensorpool.attachVolume', made.storage_id);
        assert.equal(ok, false);
        assert.deepEqual(p.remaining, []);
        const attaches = await control.calls('POST', '/storage/attach');
        ledger.mutationsFor('attach volume', 1, attaches.length);
        assert.equal(attaches.length, 1, 'sent once, never again by itself');
        assert.deepEqual(attaches[0].body, { storage_id: made.storage_id, cluster_ids: [clusterId] });
        const prompt = p.shown.filter((s) => s.kind === 'confirm').at(-1)!;
        assert.equal(prompt.message, 'The volume may or may not have been attached.');
      }),
    );
  }
});
