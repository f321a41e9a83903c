/**
 * The Marketplace side of package.json: the walkthrough (its media exist, every command it names or
 * completes on is contributed), Workspace Trust and virtual-workspace support declared, settings ordered
 * and scoped, and the listing fields a gallery shows.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allCommandIds } from '../shared/commandIds';
import { localisedManifest } from '../shared/manifest';

/** Every command id declared: shared/commands.ts and each feature's commandIds.ts. */
const ALL_COMMANDS = allCommandIds();

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; altText?: string };
  completionEvents: string[];
}
interface Manifest {
  categories: string[];
  keywords: string[];
  galleryBanner?: { color: string; theme: string };
  homepage?: string;
  bugs?: { url: string };
  pricing?: string;
  qna?: string | false;
  capabilities?: {
    untrustedWorkspaces?: {
      supported: string | boolean;
      description?: string;
      restrictedConfigurations?: string[];
    };
    virtualWorkspaces?: { supported: string | boolean; description?: string };
  };
  contributes: {
    walkthroughs: Array<{ id: string; steps: Step[] }>;
    configuration: {
      properties: Record<
        string,
        {
          order?: number;
          scope?: string;
          enum?: string[];
          enumDescriptions?: string[];
          markdownDescription?: string;
        }
      >;
    };
  };
}

const root = path.resolve(__dirname, '../../..');
// With its English text in place of the %key% references to package.nls.json, as VS Code shows it.
const manifest = localisedManifest<Manifest>();
const commands = new Set<string>(ALL_COMMANDS);
const views = new Set<string>(
  Object.values((manifest.contributes as unknown as { views: Record<string, Array<{ id: string }>> }).views)
    .flat()
    .map((v) => v.id),
);

describe('Marketplace listing (package.json)', () => {
  it('the walkthrough has the eight first-run steps, each with its own Markdown and a way to complete by itself', () => {
    const [walk] = manifest.contributes.walkthroughs;
    assert.equal(walk.id, 'gettingStarted');
    assert.deepEqual(
      walk.steps.map((s) => s.id),
      [
        'signIn',
        'createCluster',
        'connect',
        'runJob',
        'notebookKernel',
        'watchMetrics',
        'enableObjectStorage',
        'uploadFile',
      ],
    );
    for (const step of walk.steps) {
      const media = step.media.markdown ?? step.media.image;
      assert.ok(media && fs.existsSync(path.join(root, media)), `${step.id}: ${media} exists`);
      assert.ok(step.completionEvents.length > 0, `${step.id} completes by itself`);
      for (const e of step.completionEvents) {
        assert.match(e, /^(onCommand|onContext|onView|onSettingChanged):/, e);
        if (e.startsWith('onCommand:'))
          assert.ok(commands.has(e.slice(10)), `${step.id}: ${e} is contributed`);
      }
      // A link runs one of our commands, or shows one of our views (VS Code's `<view id>.focus`).
      for (const [, id] of step.description.matchAll(/\(command:([\w.]+)\)/g))
        assert.ok(
          commands.has(id) || views.has(id.replace(/\.focus$/, '')),
          `${step.id}: link to ${id} is contributed`,
        );
    }
    assert.match(
      walk.steps[0].description,
      /https:\/\/tensorpool\.dev\/dashboard/,
      'sign-in links the dashboard',
    );
  });

  it('Workspace Trust is limited (with the two features named) and virtual workspaces are declared', () => {
    const trust = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(trust?.supported, 'limited');
    assert.match(trust?.description ?? '', /commands the service sends/);
    assert.match(trust?.description ?? '', /\.env/);
    const settings = Object.keys(manifest.contributes.configuration.properties);
    for (const key of trust?.restrictedConfigurations ?? []) assert.ok(settings.includes(key), key);
    assert.ok(trust?.restrictedConfigurations?.includes('tensorpool.apiUrl'));
    assert.equal(manifest.capabilities?.virtualWorkspaces?.supported, 'limited');
  });

  it('every setting has an order, a scope where it matters and a description per enum value', () => {
    const props = manifest.contributes.configuration.properties;
    const orders = Object.values(props).map((p) => p.order);
    assert.ok(
      orders.every((o) => typeof o === 'number'),
      'every setting has an order',
    );
    assert.equal(new Set(orders).size, orders.length, 'no two share an order');
    for (const [key, p] of Object.entries(props))
      if (p.enum) assert.equal(p.enumDescriptions?.length, p.enum.length, key);
    // The API URL receives the token: a workspace must not redirect it.
    for (const key of ['apiUrl', 'sshUser', 'sshPort', 'sshConfigMode', 'objectStorageProfile'])
      assert.equal(props[`tensorpool.${key}`].scope, 'machine', key);
  });

  it('the gallery fields are set: categories people browse, banner, homepage, issues, Q&A, free pricing', () => {
    assert.ok(manifest.categories.includes('Machine Learning'));
    assert.ok(manifest.keywords.length >= 5 && manifest.keywords.length <= 30);
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.match(manifest.homepage ?? '', /^https:\/\//);
    assert.match(manifest.bugs?.url ?? '', /^https:\/\//);
    assert.equal(manifest.pricing, 'Free');
    assert.ok(manifest.qna !== undefined);
  });
});
