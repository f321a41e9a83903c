/**
 * Storage-volume rules without the network: size and name validators, eligibility, state phases,
 * and the wizards' request bodies (only what changed is edited; sizes only grow) through scripted
 * answers.
 */
import * as assert from 'node:assert/strict';
import {
  attachIneligibility,
  validateNewSize,
  validateVolumeName,
  validateVolumeSize,
  volumePhase,
  type Volume,
} from '../../src/model/volume';
import { runCreateVolumeWizard, toVolumeCreateRequest } from '../../src/wizards/createVolume';
import { runEditVolumeWizard, startVolumeEdit, volumeChanges } from '../../src/wizards/editVolume';
import { ACCEPT, BACK, ScriptedPrompter } from '../fixtures/scriptedPrompter';

describe('storage volume rules', () => {
  it('sizes are whole numbers of GB from 1 to 100000', () => {
    for (const bad of ['', '0', '-3', '2.5', '1e3', 'ten', '100001', '1000000000000'])
      assert.ok(validateVolumeSize(bad), bad);
    for (const good of ['1', '100', '100000', ' 42 '])
      assert.equal(validateVolumeSize(good), undefined, good);
  });

  it('a new size must be larger than the current one', () => {
    assert.match(validateNewSize(100, '100') ?? '', /only grow/);
    assert.match(validateNewSize(100, '50') ?? '', /only grow/);
    assert.equal(validateNewSize(100, '101'), undefined);
  });

  it('volume names follow the cluster-name rules, worded for volumes', () => {
    assert.match(validateVolumeName('has space') ?? '', /volume name/);
    assert.equal(validateVolumeName('datasets-1'), undefined);
  });

  it('volumes attach to multi-node GPU clusters and CPU instances only', () => {
    const c = (instanceType: string, numNodes: number) => ({
      id: 'c',
      instanceType,
      numNodes,
      instances: [],
    });
    assert.equal(attachIneligibility(c('8xH100', 2)), undefined);
    assert.equal(attachIneligibility(c('32xCPU', 1)), undefined);
    assert.match(attachIneligibility(c('1xH100', 1)) ?? '', /Single-node/);
  });

  it('phases: known states classified, unknown ones left unknown', () => {
    assert.equal(volumePhase('READY'), 'ready');
    assert.equal(volumePhase('attached'), 'attached');
    assert.equal(volumePhase('CREATING'), 'transitional');
    assert.equal(volumePhase('SHRINKING_SIDEWAYS'), 'unknown');
  });

  it('the create wizard keeps answers on Back and produces {size, deletion_protection, name}', async () => {
    const p = new ScriptedPrompter(['0', '300', BACK, ACCEPT, 'scratch', 'On', 'Create volume']);
    const s = await runCreateVolumeWizard({ prompter: p, volumes: () => [] });
    assert.ok(s);
    assert.deepEqual(toVolumeCreateRequest(s), { size: 300, deletion_protection: true, name: 'scratch' });
    assert.equal(p.rejections.length, 1);
    assert.equal(p.shown.filter((x) => /Size in GB/.test(x.prompt ?? ''))[1].value, '300');
  });

  it('the edit wizard sends only changed fields, under the service names', async () => {
    const v: Volume = { id: 'vol-1', name: 'a', sizeGb: 10, deletionProtection: false, attachments: [] };
    const p = new ScriptedPrompter([ACCEPT, '5', '20', ACCEPT, 'Apply changes']);
    const s = await runEditVolumeWizard({ prompter: p, volumes: () => [v] }, { initial: startVolumeEdit(v) });
    assert.ok(s);
    assert.deepEqual(volumeChanges(s), { size_gb: 20 });
    assert.deepEqual(volumeChanges(startVolumeEdit(v)), {});
  });
});
