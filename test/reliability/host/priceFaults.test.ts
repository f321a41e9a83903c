// Prices under faults, in the real extension host: a quote route answering 500 leaves that cluster without a
// price (nothing guessed; the burn rate says "at least"), and a balance missing from the organisation answer
// (or that answer failing) leaves the runway out while the burn rate stays. Each with today's checks: nothing
// unhandled, no request that changes something (the quotes are GETs, a failed one asked again only after a minute), the
// account still signed in, no secret in the log.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { faultSubject } from '../catalogue';
import { ledger } from '../ledger';
import { freshAccount, mutations } from './common';
import { hostSecrets, scanForSecrets } from './secretScan';
import * as spy from './spy';
import { clusterRows, control, sleep, until } from './util';

suite('Reliability: prices under faults', function () {
  this.timeout(90_000);
  let ext: TensorPoolExtensionApi;
  let marks: { problems: number; mutations: number };

  /** Running clusters of a type and node count no earlier test asked a price for (quotes are kept per window). */
  async function seed(prefix: string, instanceType: string, numNodes: number): Promise<void> {
    await control.seed({ clusters: 1, prefix, instanceType, numNodes });
    await ext.refresh();
  }
  async function tooltipOf(name: string): Promise<string> {
    const r = (await clusterRows(ext)).find((c) => c.node.kind === 'cluster' && c.label === name);
    assert.ok(r, `the row of ${name}`);
    return r.tooltip;
  }
  /** The account tooltip as the user reads it (appendText escapes Markdown, spaces as &nbsp;). */
  const account = () => {
    const t = ext.testing.statusBar.tooltip;
    const text = typeof t === 'string' ? t : (t?.value ?? '');
    return text.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
  };
  const viewDescription = () => String(ext.testing.gpu.clustersView.description ?? '');
  const quoteCalls = async (type: string) =>
    (await control.log()).filter((e) => e.path === '/cluster/quote' && e.query.instance_type === type);

  suiteSetup(async () => {
    ext = await freshAccount();
    // A priced running cluster, so a burn rate exists to be shown (or not) beside what fails.
    await seed('priced', '2xH200', 2);
    await until('the priced cluster’s price', async () => /- Price: \$/.test(await tooltipOf('priced-1')));
  });
  setup(async () => {
    marks = { problems: spy.problems.length, mutations: (await mutations()).length };
  });
  teardown(async () => {
    await control.clearFaults();
  });

  async function todaysChecks(): Promise<void> {
    assert.deepEqual(
      spy.problems.slice(marks.problems).filter((p) => p.ours),
      [],
      'nothing unhandled',
    );
    assert.deepEqual((await mutations()).slice(marks.mutations), [], 'no request that changes something');
    assert.equal(ext.store.account.kind, 'signedIn', 'still signed in');
    const findings = scanForSecrets(ext.testing.logTail.join('\n'), await hostSecrets());
    ledger.searched('prices: the log', findings);
    assert.deepEqual(findings, []);
  }

  ledger.cover(
    test('a quote failing (500): no price for that cluster, nothing guessed; the burn rate says "at least"', async () => {
      await control.fault({ method: 'GET', path: '/cluster/quote', times: -1, status: 500 });
      await seed('unpriced', '4xL40S', 3);
      await until('the quote asked and refused', async () => {
        const calls = await quoteCalls('4xL40S');
        return calls.length > 0 && calls.every((c) => c.status === 500);
      });
      // The client may retry a GET that failed; wait until the asking stops (no new call for 3 s).
      let calls = await quoteCalls('4xL40S');
      for (let n = -1; n !== calls.length;) {
        n = calls.length;
        await sleep(3000);
        calls = await quoteCalls('4xL40S');
      }
      assert.ok(calls.every((c) => c.method === 'GET'));
      const tip = await tooltipOf('unpriced-1');
      assert.doesNotMatch(tip, /Price|Cost so far|\$/, 'no price for the cluster whose quote failed');
      assert.match(await tooltipOf('priced-1'), /- Price: \$/, 'the other cluster keeps its price');
      await ext.testing.initializeAccount();
      await until('the burn rate', () => /Burn rate: at least \$/.test(account()));
      assert.match(viewDescription(), /^at least \$/);
      // A refusal is not asked again on every refresh (a failed quote is asked again after a minute).
      await ext.refresh();
      await sleep(2000);
      assert.equal((await quoteCalls('4xL40S')).length, calls.length, 'not asked again');
      await todaysChecks();
    }),
    faultSubject('quote-failing'),
  );

  ledger.cover(
    test('the balance missing (absent, then the organisation answer failing): burn rate shown, no runway', async () => {
      await ext.testing.initializeAccount();
      await until('a runway with the balance', () => /Runway: about/.test(account()));
      await control.fault({
        method: 'GET',
        path: '/user/organization/info',
        times: -1,
        status: 200,
        body: { org_id: 'org-rel', org_name: 'Balance-less Org' },
      });
      await ext.testing.initializeAccount();
      await until('the answer without a balance read', () =>
        /Organisation: Balance-less Org/.test(account()),
      );
      const noBalance = () => {
        assert.match(account(), /Burn rate: /);
        assert.doesNotMatch(account(), /Runway|Balance:/);
        assert.doesNotMatch(viewDescription(), /at this rate/);
        assert.match(viewDescription(), /\$\d/, 'the view still shows the burn rate');
        assert.equal(ext.testing.statusBar.backgroundColor, undefined, 'no runway warning from nothing');
      };
      noBalance();

      await control.clearFaults();
      await control.fault({ method: 'GET', path: '/user/organization/info', times: -1, status: 500 });
      const logMark = ext.testing.logTail.length;
      await ext.testing.initializeAccount();
      await until('the failure logged', () =>
        ext.testing.logTail.slice(logMark).some((l) => /Organisation info unavailable/.test(l)),
      );
      noBalance();
      assert.doesNotMatch(account(), /Balance-less Org/);
      await control.clearFaults();
      await ext.testing.initializeAccount();
      await until('the runway back with the balance', () => /Runway: about/.test(account()));
      await todaysChecks();
    }),
    faultSubject('balance-missing'),
  );

  suiteTeardown(async () => {
    await control.clearFaults();
    await vscode.commands.executeCommand('workbench.view.explorer');
  });
});
