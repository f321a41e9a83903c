/**
 * The bad-input corpus (catalogue.ts) in plain Node: every value is refused by its validator with
 * the specific message, by the wizard step it is typed into (through the same Prompter interface
 * the real quick inputs implement: the prompt stays open with the value, nothing moves on), and by
 * the API client's request schemas, so nothing reaches the engine. The sign-in box and the
 * settings-driven checks run in the real extension host too (host/badInput.test.ts).
 */
import * as assert from 'node:assert/strict';
import { type TensorPoolError } from '../../../src/api';
import {
  MAX_NODES,
  validateApiToken,
  validateApiUrl,
  validateBucketName,
  validateClusterName,
  validateContainerImage,
  validateInstanceType,
  validateNumNodes,
  validateClusterRef,
  validatePublicKey,
  type Validator,
} from '../../../src/model/validate';
import { MAX_VOLUME_GB, validateVolumeName, validateVolumeSize } from '../../../src/model/volume';
import { isAbsolute } from 'node:path';
import { jobFileRefusal } from '../../../src/model/jobFile';
import { parsePublicKey } from '../../../src/model/sshPublicKey';
import { runAddSshKeyWizard, validateKeyName } from '../../../src/wizards/addSshKey';
import { runCreateWizard } from '../../../src/wizards/createCluster';
import { runRunJobWizard } from '../../../src/wizards/runJob';
import { ED25519_KEY } from '../../fixtures/payloads';
import { runEditWizard } from '../../../src/wizards/editCluster';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { ESCAPE, ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { BAD_INPUTS, WIZARD_SCRIPTS, show, type BadInput, type InputField } from '../catalogue';
import { ledger } from '../ledger';
import { apiClient } from '../../shared/apiClient';

type Err = TensorPoolError & { local?: boolean; fieldErrors?: Array<{ field: string; message: string }> };

const VALIDATORS: Record<InputField, Validator> = {
  instanceType: validateInstanceType,
  numNodes: (v) => validateNumNodes(v),
  name: validateClusterName,
  key: validatePublicKey,
  container: validateContainerImage,
  editName: validateClusterName,
  bucket: validateBucketName,
  token: validateApiToken,
  apiUrl: validateApiUrl,
  volumeSize: (v) => validateVolumeSize(v),
  volumeName: validateVolumeName,
  jobFile: (v) => jobFileRefusal('train.tp.toml', v),
  keyPaste: (v) => {
    const r = parsePublicKey(v);
    return r.ok ? undefined : r.message;
  },
  keyName: validateKeyName,
  clusterRef: validateClusterRef,
  pullFolder: (v) => (isAbsolute(v.trim()) ? undefined : 'Enter an absolute folder path.'),
};

/** The newer wizards, run with the scripted answers that reach the field, type the value, then leave. */
const OTHER_WIZARDS: Partial<
  Record<InputField, (v: string) => Promise<{ p: ScriptedPrompter; result: unknown }>>
> = {
  keyPaste: async (v) => {
    const p = new ScriptedPrompter(['Paste a public key…', v, ESCAPE]);
    return { p, result: await runAddSshKeyWizard({ prompter: p, localKeys: async () => [] }) };
  },
  keyName: async (v) => {
    const p = new ScriptedPrompter(['Paste a public key…', ED25519_KEY, v, ESCAPE]);
    return { p, result: await runAddSshKeyWizard({ prompter: p, localKeys: async () => [] }) };
  },
  clusterRef: async (v) => {
    const p = new ScriptedPrompter([v, ESCAPE]);
    const result = await runRunJobWizard({ prompter: p, fileName: 'train.tp.toml', clusters: () => [] });
    return { p, result };
  },
};

const EXISTING = { id: 'c-existing', name: 'existing', instances: [] };

describe('reliability: bad input is refused before any request', function () {
  this.timeout(10_000);
  let engine: EngineHandle;
  const client = () =>
    apiClient(engine, {
      userAgent: 'tensorpool-vscode/reliability',
      maxRetries: 0,
    });

  before(async () => {
    engine = await startTestEngine();
  });
  after(async () => {
    await engine?.close();
  });
  beforeEach(async () => {
    await engine.clearLog();
  });
  afterEach(async () => {
    assert.deepEqual(await engine.log(), [], 'nothing reached the engine');
  });

  /** The client's request checks (the second line of defence, for code paths that skip the wizard). */
  async function clientRefuses(b: BadInput): Promise<void> {
    const c = client();
    let call: Promise<unknown> | undefined;
    let field = '';
    switch (b.field) {
      case 'instanceType':
        call = c.createCluster({ instance_type: b.value, num_nodes: 1 });
        field = 'instance_type';
        break;
      case 'numNodes': {
        // What the wizard would send if its check were bypassed: the number the text parses to.
        const n = Number(b.value.trim());
        if (Number.isInteger(n) && n >= 1 && n <= MAX_NODES) return; // e.g. "+2": only the wizard's text check applies
        call = c.createCluster({ instance_type: '1xH100', num_nodes: n });
        field = 'num_nodes';
        break;
      }
      case 'name':
        call = c.createCluster({ instance_type: '1xH100', tp_cluster_name: b.value });
        field = 'tp_cluster_name';
        break;
      case 'key':
        call = c.createCluster({ instance_type: '1xH100', public_keys: [b.value] });
        field = 'public_keys';
        break;
      case 'container':
        call = c.createCluster({ instance_type: '1xH100', container: b.value });
        field = 'container';
        break;
      case 'editName':
        call = c.editCluster('c-1', { cluster_name: b.value });
        field = 'cluster_name';
        break;
      case 'bucket':
        call = c.createBucket(b.value);
        field = 'bucket';
        break;
      case 'apiUrl':
        assert.throws(
          () => apiClient({ url: b.value, token: 't' }, { userAgent: 'u' }),
          (e: Err) => {
            assert.equal(e.kind, 'validation');
            assert.match(e.message, b.expect);
            return true;
          },
        );
        return;
      case 'volumeSize': {
        const n = Number(b.value.trim());
        // e.g. "1e3": only the wizard's text check applies
        if (Number.isInteger(n) && n >= 1 && n <= MAX_VOLUME_GB) return;
        call = c.volumes.createVolume({ size: n, deletion_protection: false });
        field = 'size';
        break;
      }
      case 'volumeName':
        call = c.volumes.createVolume({ size: 1, deletion_protection: false, name: b.value });
        field = 'name';
        break;
      case 'token':
        return; // no client path takes a typed token; the sign-in box is checked in the extension host
      case 'jobFile':
      case 'keyPaste':
      case 'keyName':
      case 'clusterRef':
      case 'pullFolder':
        return; // refused by the editor's command or the wizard before the client is asked (host part)
    }
    await assert.rejects(call, (e: Err) => {
      assert.equal(e.kind, 'validation', e.message);
      assert.equal(e.local, true, 'refused locally');
      assert.equal(e.mayHaveReachedServer, false);
      assert.ok(
        e.fieldErrors?.some((f) => f.field === field && f.message.length > 10),
        JSON.stringify(e.fieldErrors),
      );
      return true;
    });
  }

  /** The wizard step refuses the value with the validator's message and stays open (what was typed stays in
   * the box). */
  async function wizardRefuses(b: BadInput, message: string): Promise<void> {
    const script = WIZARD_SCRIPTS[b.field];
    const other = OTHER_WIZARDS[b.field];
    if (!script && !other) return;
    const { p, result } = other
      ? await other(b.value)
      : await createOrEdit(b, new ScriptedPrompter(script!(b.value)));
    assert.equal(result, undefined, 'the wizard did not finish with the bad value');
    assert.equal(p.remaining.length, 0, `script left over: ${JSON.stringify(p.remaining)}`);
    assert.equal(p.rejections.length, 1, JSON.stringify(p.rejections));
    const [r] = p.rejections;
    assert.equal(r.value, b.value, 'the rejected value is the one typed');
    assert.equal(r.message, message);
    // The prompt that refused the value is the last one shown and was shown once: it stayed open
    // (in VS Code: the box keeps the typed text under the message) until the user left.
    // The wizard's "Discard …?" question (a pick) is not the field's prompt.
    const prompts = p.shown.filter((s) => s.kind !== 'confirm' && !s.prompt?.startsWith('Discard'));
    const last = prompts.at(-1)!;
    assert.equal(last.step, r.step);
    assert.equal(
      prompts.filter((s) => s.prompt === last.prompt).length,
      1,
      'the prompt stayed open; it was not reopened',
    );
  }

  async function createOrEdit(
    b: BadInput,
    p: ScriptedPrompter,
  ): Promise<{ p: ScriptedPrompter; result: unknown }> {
    const result =
      b.field === 'editName'
        ? await runEditWizard({ prompter: p, clusters: () => [EXISTING] }, { cluster: EXISTING })
        : await runCreateWizard({
            prompter: p,
            localKeys: async () => [],
            existingNames: () => [],
            imageField: 'container',
          });
    return { p, result };
  }

  for (const b of BAD_INPUTS) {
    ledger.cover(
      it(`${b.field} ${show(b.value)}`, async () => {
        const message = VALIDATORS[b.field](b.value);
        assert.ok(message, 'refused by its validator');
        assert.match(message, b.expect, 'with the specific message');
        assert.ok(!/[\u0000-\u001f]/.test(message), 'the message does not echo control characters');
        await wizardRefuses(b, message);
        await clientRefuses(b);
      }),
      b.id,
    );
  }
});
