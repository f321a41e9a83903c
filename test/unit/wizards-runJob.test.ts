import * as assert from 'node:assert/strict';
import { runRunJobWizard, type JobTarget, type RunJobDeps } from '../../src/wizards/runJob';
import { BACK, DISCARD, ESCAPE, RecordingPrompter, ScriptedPrompter } from '../fixtures/scriptedPrompter';

const running = (id: string, label = id): JobTarget => ({
  id,
  label,
  description: 'running · 1xH100',
  running: true,
});
const LIST: JobTarget[] = [
  { id: 'c-prov', label: 'warming', description: 'provisioning · 8xB200', running: false },
  running('c-1', 'train-a'),
  running('c-2', 'train-b'),
];

function deps(p: ScriptedPrompter, extra: Partial<RunJobDeps> = {}): RunJobDeps {
  return { prompter: p, fileName: 'job.tp.toml', clusters: () => LIST, ...extra };
}

describe('run job wizard', () => {
  it('lists running clusters first, preselects the one last used, keeps the cluster by default', async () => {
    const p = new ScriptedPrompter(['<accept>', '<accept>', 'Run job']);
    const s = await runRunJobWizard(deps(p, { lastUsed: 'c-2' }));
    assert.deepEqual(s, { clusterId: 'c-2', clusterLabel: 'train-b', teardown: false });
    assert.deepEqual(p.shown[0].items, ['train-a', 'train-b', 'warming']);
    assert.equal(p.shown[0].active, 'train-b');
    assert.equal(p.shown[1].active, 'Keep the cluster');
    assert.equal(p.shown[2].title, 'Run Job on TensorPool: job.tp.toml');
  });

  it('tearing the cluster down is said in the summary', async () => {
    const p = new RecordingPrompter(['train-a', 'Destroy the cluster when the job ends', 'Run job']);
    const s = await runRunJobWizard(deps(p));
    assert.equal(s?.teardown, true);
    const summary = p.picks.at(-1)!;
    assert.equal(summary[0].detail, 'The cluster train-a will be destroyed when the job ends.');
    assert.equal(summary.find((r) => r.label === 'When the job ends')?.description, 'destroy the cluster');
  });

  it('"Create a cluster…" runs the create wizard and comes back with the new cluster', async () => {
    let asked = 0;
    const createCluster = async () => {
      asked++;
      return asked === 1 ? undefined : running('c-new', 'fresh');
    };
    const p = new ScriptedPrompter(['Create a cluster…', 'Create a cluster…', '<accept>', 'Run job']);
    const s = await runRunJobWizard(deps(p, { createCluster }));
    assert.equal(asked, 2);
    assert.deepEqual(s, { clusterId: 'c-new', clusterLabel: 'fresh', teardown: false });
    assert.match(p.shown[1].initialError ?? '', /No cluster was created/);
  });

  it('with no cluster listed it says why, and a typed cluster ID is checked before it is taken', async () => {
    const p = new ScriptedPrompter(['bad id/x', 'c-typed', '<accept>', 'Run job']);
    const s = await runRunJobWizard(
      deps(p, { clusters: () => [], listNote: 'The service answered the cluster list in text only.' }),
    );
    assert.equal(s?.clusterId, 'c-typed');
    assert.match(p.shown[0].prompt ?? '', /^The service answered the cluster list in text only\. Create one/);
    assert.match(p.rejections[0].message, /no spaces or slashes/);
  });

  it('Back keeps the cluster; Escape after choosing asks before discarding', async () => {
    const p = new ScriptedPrompter(['train-b', BACK, '<accept>', ESCAPE, DISCARD]);
    assert.equal(await runRunJobWizard(deps(p)), undefined);
    assert.equal(p.shown[2].active, 'train-b', 'back on the cluster step with the choice kept');
    assert.deepEqual(p.remaining, []);
  });
});
