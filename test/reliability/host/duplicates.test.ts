// Duplicate creates: every fault around POST /cluster/create, through the real create command and its
// wizard. The engine's log must show at most one create per confirmation; when the request may have
// reached the server the user is told the outcome is unknown and how to check (and the list is then
// checked against the engine); when it certainly did not, the user is told that; the answers are kept.
// (A create that never gets an answer, 30 s, runs in faults.test.ts next to the slow list answer.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ACCEPT, ESCAPE, ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { HTML_502 } from '../catalogue';
import { ledger } from '../ledger';
import { createAnswers, ensureSignedIn, freshAccount } from './common';
import { accountIs, control, engineApi, hideViews, setApiUrl, treeClusterNames } from './util';
import { freePort as closedPort } from '../../shared/net';

const UNKNOWN = 'The cluster may or may not have been created.';

type Outcome = 'unknown' | 'not-created' | 'not-sent';

interface Case {
  readonly id: string;
  readonly fault?: Record<string, unknown>;
  /** The service cannot be reached at all: tensorpool.apiUrl points at a closed port. */
  readonly refused?: boolean;
  readonly outcome: Outcome;
  /** Whether the engine really created the cluster (its handler ran before the answer was lost or cut). */
  readonly createdOnServer: boolean;
  /** What the user answers to the outcome prompt. */
  readonly answer: 'Check Cluster List' | 'Edit Answers' | 'Try Again';
}

const CASES: Case[] = [
  {
    id: 'drop',
    fault: { action: 'drop' },
    outcome: 'unknown',
    createdOnServer: false,
    answer: 'Check Cluster List',
  },
  {
    id: 'drop-after',
    fault: { action: 'drop-after' },
    outcome: 'unknown',
    createdOnServer: true,
    answer: 'Check Cluster List',
  },
  {
    id: '502',
    fault: { status: 502, rawBody: HTML_502, contentType: 'text/html' },
    outcome: 'unknown',
    createdOnServer: false,
    answer: 'Edit Answers',
  },
  {
    id: '500',
    fault: { status: 500, body: { message: 'internal error' } },
    outcome: 'unknown',
    createdOnServer: false,
    answer: 'Check Cluster List',
  },
  {
    id: '503',
    fault: { status: 503, body: { detail: 'maintenance' } },
    outcome: 'unknown',
    createdOnServer: false,
    answer: 'Edit Answers',
  },
  {
    id: '504',
    fault: { status: 504, rawBody: 'upstream timed out', contentType: 'text/plain' },
    outcome: 'unknown',
    createdOnServer: false,
    answer: 'Check Cluster List',
  },
  {
    id: 'truncated',
    fault: { action: 'truncate' },
    outcome: 'unknown',
    createdOnServer: true,
    answer: 'Check Cluster List',
  },
  {
    id: 'empty-200',
    fault: { status: 200, rawBody: '' },
    outcome: 'unknown',
    createdOnServer: false,
    answer: 'Check Cluster List',
  },
  {
    id: '429',
    fault: { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '1' } },
    outcome: 'not-created',
    createdOnServer: false,
    answer: 'Try Again',
  },
  { id: 'refused', refused: true, outcome: 'not-sent', createdOnServer: false, answer: 'Try Again' },
];

async function engineNames(): Promise<string[]> {
  const { body } = await engineApi<{ clusters: Array<{ name: string }> }>('GET', '/cluster/list');
  return body.clusters.map((c) => c.name).sort();
}

suite('Reliability: duplicate creates under connection faults', () => {
  let ext: TensorPoolExtensionApi;

  suiteSetup(async () => {
    ext = await freshAccount();
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
    await ensureSignedIn(ext);
    await hideViews();
  });

  for (const c of CASES) {
    ledger.cover(
      test(`${c.id}: ${c.outcome === 'unknown' ? 'one create, "may or may not have been created"' : c.outcome === 'not-created' ? 'one create, "not created", Try Again sends one more' : 'nothing sent, said so'}`, async () => {
        const name = `dup-${c.id}`;
        await control.clearLog();
        if (c.refused) {
          await setApiUrl(`http://127.0.0.1:${await closedPort()}`);
          await accountIs(ext, 'unreachable', 20_000);
        }
        if (c.fault) await control.fault({ method: 'POST', path: '/cluster/create', ...c.fault });
        // After the outcome prompt: check the list; or edit the answers (the node count is still 2) and leave;
        // or try again (one more confirmation) and leave if that fails too.
        const after =
          c.answer === 'Check Cluster List'
            ? []
            : c.answer === 'Edit Answers'
              ? ['Nodes', ACCEPT, ESCAPE, 'Discard']
              : c.outcome === 'not-created'
                ? ['Create cluster']
                : ['Create cluster', ESCAPE];
        const script = [...createAnswers(name), c.answer, ...after];
        const p = new ScriptedPrompter([...script]);
        ext.setPrompter(p);
        const result = await vscode.commands.executeCommand<string | undefined>('tensorpool.createCluster');
        assert.deepEqual(p.remaining, [], 'every scripted answer was used');

        const confirmations = script.filter((a) => a === 'Create cluster').length;
        const creates = (await control.calls('POST', '/cluster/create')).length;
        ledger.createsFor(confirmations, creates);
        assert.ok(creates <= confirmations, `${creates} creates for ${confirmations} confirmation(s)`);

        const prompt = p.shown.find((s) => s.kind === 'confirm')!;
        if (c.outcome === 'unknown') {
          assert.equal(result, undefined);
          assert.equal(creates, 1, 'sent once, never again by itself');
          assert.equal(prompt.message, UNKNOWN);
          assert.match(
            prompt.detail ?? '',
            /Check the cluster list before trying again: sending it again could create a second cluster/,
          );
          assert.deepEqual(prompt.items, ['Check Cluster List', 'Edit Answers']);
        } else if (c.outcome === 'not-created') {
          assert.equal(creates, 2, 'one per confirmation: the first refused, Try Again sent one more');
          assert.match(prompt.message ?? '', /^The cluster was not created: slow down\. Try again in 1 s\./);
          assert.ok(result, 'the second confirmation created the cluster');
        } else {
          assert.equal(result, undefined);
          assert.equal(creates, 0, 'nothing reached the engine');
          assert.match(
            prompt.message ?? '',
            /^Nothing was created: could not reach TensorPool: Connection refused/,
          );
        }

        if (c.answer === 'Edit Answers') {
          const nodes = p.shown.find(
            (s) => s.kind === 'input' && s.step === 2 && p.shown.indexOf(s) > p.shown.indexOf(prompt),
          );
          assert.equal(nodes?.value, '2', 'what was typed is still there');
        }
        if (c.refused) await ensureSignedIn(ext);
        // The truth, from the engine: created or not, and the tree agrees once the list is checked.
        const onServer = await engineNames();
        assert.equal(
          onServer.includes(name),
          c.createdOnServer || c.outcome === 'not-created',
          `the engine has: ${onServer}`,
        );
        await ext.refresh();
        assert.deepEqual(
          (await treeClusterNames(ext)).filter((n) => n.startsWith('dup-')),
          onServer.filter((n) => n.startsWith('dup-')),
          'the tree shows what the engine has',
        );
      }),
      `dup:${c.id}`,
    );
  }
});
