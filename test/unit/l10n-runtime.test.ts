/**
 * Translations at run time, in the layers without a `vscode` import: a built bundle (dist/api.js, where
 * esbuild maps `@vscode/l10n` to src/model/l10n.ts) translates with whatever bundle activation put into
 * the global slot, and speaks English without one; src/model/l10n.ts's t() in its every form.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { t } from '../../src/model/l10n';
import { setL10nContents } from '../../src/model/l10nSlot';

interface BuiltApi {
  safeOutputPath(folder: string, rel: string): { path: string } | { reason: string };
  TensorPoolClient: new (options: {
    baseUrl: string;
    getToken: () => string | undefined;
    userAgent: string;
  }) => {
    createCluster(body: unknown): Promise<unknown>;
  };
}

// The built bundle, as the extension loads it (npm run build writes it; test:unit builds first).
const api = (): BuiltApi => require(path.resolve(__dirname, '../../../dist/api.js')) as BuiltApi;

describe('localisation at run time', () => {
  afterEach(() => setL10nContents(undefined));

  describe('a built bundle (dist/api.js)', () => {
    it('speaks English when no translations were shared', () => {
      assert.deepEqual(api().safeOutputPath('/tmp/out', '/etc/passwd'), { reason: 'an absolute path' });
    });

    it('uses the translations put into the shared slot, and English again once they are gone', () => {
      setL10nContents({ 'an absolute path': '⟦un chemin absolu⟧' });
      assert.deepEqual(api().safeOutputPath('/tmp/out', '/etc/passwd'), { reason: '⟦un chemin absolu⟧' });
      setL10nContents(undefined);
      assert.deepEqual(api().safeOutputPath('/tmp/out', '/etc/passwd'), { reason: 'an absolute path' });
    });

    it('translates a request check made before sending, with its placeholder filled in', async () => {
      setL10nContents({ 'At most {0} nodes can be requested.': '⟦{0} nœuds au plus⟧' });
      const client = new (api().TensorPoolClient)({
        baseUrl: 'http://127.0.0.1:9',
        getToken: () => 'x',
        userAgent: 'test',
      });
      await assert.rejects(
        client.createCluster({ instance_type: '1xH100', num_nodes: 100000 }),
        (e: Error) => {
          assert.match(e.message, /⟦512 nœuds au plus⟧/);
          return true;
        },
      );
    });
  });

  describe('t() of src/model/l10n.ts', () => {
    it('formats a plain message and its placeholders without translations', () => {
      assert.equal(t('Nothing to change.'), 'Nothing to change.');
      assert.equal(t('Renamed {0} to {1}.', 'a', 'b'), 'Renamed a to b.');
      assert.equal(t('{0} GB ≈ ${1}', 10, '2.40'), '10 GB ≈ $2.40');
    });

    it('translates a plain message, placeholders kept in the translation’s order', () => {
      setL10nContents({ 'Renamed {0} to {1}.': '⟦{1} ← {0}⟧', 'Nothing to change.': '⟦rien⟧' });
      assert.equal(t('Nothing to change.'), '⟦rien⟧');
      assert.equal(t('Renamed {0} to {1}.', 'a', 'b'), '⟦b ← a⟧');
    });

    it('translates the tagged-template form under its {0} key', () => {
      const name = 'train';
      assert.equal(t`Cluster ${name} is ready`, 'Cluster train is ready');
      setL10nContents({ 'Cluster {0} is ready': '⟦{0} prêt⟧' });
      assert.equal(t`Cluster ${name} is ready`, '⟦train prêt⟧');
    });

    it('translates the {message, comment} form under its message/comment key', () => {
      const form = { message: 'Open {0}', args: ['x'], comment: ['a menu entry'] };
      assert.equal(t(form), 'Open x');
      setL10nContents({ 'Open {0}/a menu entry': { message: '⟦Ouvrir {0}⟧', comment: ['a menu entry'] } });
      assert.equal(t(form), '⟦Ouvrir x⟧');
      // Without the comment it is another message: not translated by that entry.
      assert.equal(t('Open {0}', 'x'), 'Open x');
    });
  });
});
