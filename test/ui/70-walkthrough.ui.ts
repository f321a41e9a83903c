// The Get Started walkthrough in the real workbench: opened from the palette by a user who already signed in
// and has clusters (their two steps are ticked when it opens), and, after VS Code's Reset Welcome Page
// Walkthrough Progress, a step ticks itself when the user does what it asks (here "Connect with Remote-SSH",
// completed by running Copy SSH Command from the palette, even when the cluster picker is then dismissed).
import { until } from '../shared/wait';
import type { UiTest } from './types';
import { signedIn } from './given';

const STEPS = ['signIn', 'createCluster', 'connect', 'runJob', 'enableObjectStorage', 'uploadFile'];

const step = (ctx: Parameters<UiTest['run']>[0], id: string) =>
  ctx.workbench.page.locator(`button.getting-started-step[data-step-id$="${id}"]`).first();

export const tests: UiTest[] = [
  {
    name: 'the walkthrough opens from the palette and a step ticks itself when its action runs',
    async run(ctx) {
      await signedIn(ctx);
      const { workbench, log } = ctx;
      // The demo's clusters listed: the state the "Create a GPU cluster" step stands for.
      await workbench.showSections('Clusters');
      await workbench.waitForRows(['running']);
      await workbench.runCommand('TensorPool: Open Walkthrough');
      // VS Code 1.100 may show the Welcome page's list first: then open ours from it.
      await step(ctx, 'connect')
        .waitFor({ state: 'visible', timeout: 10_000 })
        .catch(async () => {
          await workbench.page
            .locator('.getting-started-category', { hasText: 'Get Started with TensorPool' })
            .first()
            .click();
          await step(ctx, 'connect').waitFor({ state: 'visible', timeout: 15_000 });
        });
      const read = async () => {
        const steps: Record<string, string | null> = {};
        for (const id of STEPS) steps[id] = await step(ctx, id).getAttribute('aria-checked');
        return steps;
      };
      let before = await read();
      await until(
        'the Sign in and Create steps, whose state already holds, to be ticked',
        async () => {
          before = await read();
          return before.signIn === 'true' && before.createCluster === 'true';
        },
        10_000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; steps read ${JSON.stringify(before)}`);
      });
      log(`steps when opened: ${JSON.stringify(before)}`);
      log(`screenshot ${await workbench.screenshot('60-walkthrough')}`);
      // An earlier flow may have connected already (Open SSH Terminal ticks the step too): start the action
      // step from scratch with VS Code's own reset, as a user would.
      await workbench.runCommand('Developer: Reset Welcome Page Walkthrough Progress', { exact: true });
      await until(
        'the Connect step to be unticked by the reset',
        async () => (await step(ctx, 'connect').getAttribute('aria-checked')) === 'false',
        10_000,
      );

      // Clicked by its exact label, not Enter on whichever row the palette put first.
      await workbench.runCommand('TensorPool: Copy SSH Command', { exact: true });
      await workbench.waitForQuickInput('Which cluster');
      await workbench.page.keyboard.press('Escape');
      await until(
        'the Connect step to tick itself',
        async () => (await step(ctx, 'connect').getAttribute('aria-checked')) === 'true',
        10_000,
      );
      log(`screenshot ${await workbench.screenshot('61-walkthrough-step-ticked')}`);
      await workbench.page.keyboard.press('Control+W');
    },
  },
];
