// GPU telemetry and Show GPU Monitor through the real workbench: a 2xH100 cluster created with the wizard and a
// key of its own (the demo clusters' nodes follow the profile's keys, which other flows change), its node's
// stand-in load set through the node's gpu/load.json (engine/smiLoad.ts), the cluster expanded: the node row
// shows the aggregate and one row per GPU with the set figures. Then Show GPU Monitor from the cluster row's
// context menu: inside the webview's frame every chart's canvas has its series' colour drawn on it, the
// screen-reader table lists each series, and when the load changes the table's latest values follow and
// the points grow. Closed, with the cluster collapsed, no ssh with this key is left. Screenshots for README.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from '../harness/playwright';
import { createOwnKeyCluster } from './ownKeyCluster';
import type { UiContext, UiTest } from './types';
import { signedIn } from './given';

const NAME = 'ui-gpu';
/** This flow's key, in the extension host's HOME, where the create wizard lists ~/.ssh keys. */
let KEY = '';
let nodeDir = '';

/** The stand-in's figures for the node's two GPUs (utilisation %, memory used MiB). */
function setLoad(utilization: number[], memoryUsedMiB: number[]): void {
  fs.mkdirSync(path.join(nodeDir, 'gpu'), { recursive: true });
  fs.writeFileSync(path.join(nodeDir, 'gpu', 'load.json'), JSON.stringify({ utilization, memoryUsedMiB }));
}

/** The ssh processes logging in with this flow's key (the telemetry's sessions to the node). */
function sshCount(): number {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const argv = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
        return path.basename(argv[0]) === 'ssh' && argv.includes(KEY);
      } catch {
        return false;
      }
    }).length;
}

/** The monitor page's frame (the webview's inner frame), found by its heading among the window's frames. */
async function monitorFrame({ workbench }: UiContext, timeout = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of workbench.page.frames()) {
      const heading = frame.locator('h1').filter({ hasText: `GPUs of ${NAME}` });
      if ((await heading.count().catch(() => 0)) > 0) return frame;
    }
    assert.ok(Date.now() < deadline, `no GPU monitor page within ${timeout / 1000} s`);
    await workbench.page.waitForTimeout(250);
  }
}

/** The little of the DOM the page-side readers use (the tests compile without the DOM library). */
interface El {
  textContent: string | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}
interface Canvas {
  width: number;
  height: number;
  parentElement: Canvas | null;
  children: ArrayLike<unknown>;
  closest(selector: string): Canvas | null;
  ownerDocument: { body: unknown; createElement(tag: 'canvas'): Canvas };
  getContext(kind: '2d'): {
    fillStyle: string;
    fillRect(x: number, y: number, w: number, h: number): void;
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  } | null;
}
declare function getComputedStyle(element: unknown): { getPropertyValue(name: string): string };

/** Per chart: its canvas size and how many of its pixels are its series' colour (uPlot's line). */
async function drawnCharts(frame: Frame): Promise<{ width: number; height: number; inColour: number }[]> {
  const canvases = frame.locator('section.chart canvas');
  const out: { width: number; height: number; inColour: number }[] = [];
  for (let i = 0; i < (await canvases.count()); i++) {
    // Runs in the page (no closure): charts.js colours chart n with --vscode-charts-<COLOURS[n % 6]>.
    const drawn = await canvases.nth(i).evaluate((c: Canvas) => {
      const colours = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'];
      const box = c.closest('section.chart')!;
      const n = Array.from(box.parentElement!.children).indexOf(box);
      const style = getComputedStyle(c.ownerDocument.body);
      const probe = c.ownerDocument.createElement('canvas');
      probe.width = probe.height = 1;
      const p = probe.getContext('2d')!;
      p.fillStyle = style.getPropertyValue(`--vscode-charts-${colours[n % 6]}`).trim() || '#3794ff';
      p.fillRect(0, 0, 1, 1);
      const want = p.getImageData(0, 0, 1, 1).data;
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let inColour = 0;
      for (let k = 0; k < px.length; k += 4) {
        const near = [0, 1, 2].every((j) => Math.abs(px[k + j] - want[j]) <= 24);
        if (near && px[k + 3] > 200) inColour++;
      }
      return { width: c.width, height: c.height, inColour };
    });
    out.push(drawn);
  }
  return out;
}

/** The screen-reader table: series title -> [latest time, latest value, lowest, highest, points]. */
async function table(frame: Frame): Promise<Map<string, string[]>> {
  const rows = await frame
    .locator('.table table')
    .first()
    .evaluate((t: El) =>
      Array.from(t.querySelectorAll('tr')).map((r) =>
        Array.from(r.querySelectorAll('th, td')).map((c) => (c.textContent ?? '').trim()),
      ),
    );
  return new Map(rows.slice(1).map((r) => [r[0], r.slice(1)]));
}

const UTIL0 = 'node 1 · GPU 0 · utilization (%) (time)';
const UTIL1 = 'node 1 · GPU 1 · utilization (%) (time)';

export const tests: UiTest[] = [
  {
    name: 'an expanded running cluster shows its node’s GPUs at a glance and a row per GPU',
    async run(ctx: UiContext) {
      await signedIn(ctx);
      const { workbench, log } = ctx;
      const made = await createOwnKeyCluster(ctx, {
        name: NAME,
        instanceType: '2xH100',
        keyName: 'tp_ui_gpu_key',
      });
      KEY = made.key;
      const { row: clusterRow, node } = made;
      nodeDir = node.dir;
      setLoad([70, 20], [40_960, 8_192]);

      const nodeRow = await workbench.expandRow(clusterRow, /Node 1|node 1/);
      // Mean of 70 % and 20 %; memory is shown per GPU on average (24/80 GB).
      await nodeRow.filter({ hasText: /2×H100 · 45% · 24\/80 GB/ }).waitFor({ timeout: 30_000 });
      const gpu0 = await workbench.expandRow(nodeRow, /GPU 0/);
      const gpu1 = await workbench.expandRow(nodeRow, /GPU 1/);
      const texts = [nodeRow, gpu0, gpu1].map(async (r) => (await r.innerText()).replace(/\s+/g, ' ').trim());
      const [n, g0, g1] = await Promise.all(texts);
      log(`node row: ${n}`);
      log(`GPU rows: ${g0} | ${g1}`);
      assert.match(g0, /GPU 0 · H100\s*70% · 40\/79\.6 GB · \d+ °C · [\d.]+\/700 W/);
      assert.match(g1, /GPU 1 · H100\s*20% · 8\/79\.6 GB/);
      assert.equal(sshCount(), 1, 'one ssh for the expanded cluster’s node');
      // The node's tooltip: the table of its GPUs (the row's description is cut at the side bar's width).
      await workbench.runCommand('Notifications: Clear All Notifications');
      // The pointer is on the node row already (expandRow clicked it): it moves away first, so that
      // coming back is a hover.
      await workbench.sidebarRows().filter({ hasText: NAME }).first().hover();
      await nodeRow.hover();
      const tip = workbench.page
        .locator('.monaco-hover, .workbench-hover')
        .filter({ hasText: /Sampled at/ })
        .first();
      await tip.waitFor({ timeout: 10_000 });
      const tipText = (await tip.innerText()).replace(/\s+/g, ' ');
      log(`tooltip: ${tipText.slice(0, 300)}`);
      assert.match(tipText, /GPU 0 · H100 70% 40\/79\.6 /);
      assert.match(tipText, /GPU 1 · H100 20% 8\/79\.6 /);
      log(`screenshot ${await workbench.screenshot('90-gpu-node-rows')}`);
    },
  },
  {
    name: 'Show GPU Monitor from the cluster’s context menu draws its charts, which follow the load',
    async run(ctx: UiContext) {
      const { workbench, log } = ctx;
      try {
        const clusterRow = workbench.sidebarRows().filter({ hasText: NAME }).first();
        await clusterRow.click({ button: 'right' });
        // The menu takes the item under the pointer with Enter (a click right after it opened may go
        // unnoticed by the menu, which ignores the mouse-up of the click that opened it).
        const item = workbench.page
          .locator('.monaco-menu .action-item', { hasText: /^\s*Show GPU Monitor\s*$/ })
          .first();
        await item.hover();
        await workbench.page
          .locator('.monaco-menu .action-item.focused', { hasText: 'Show GPU Monitor' })
          .first()
          .waitFor({ timeout: 5_000 });
        await workbench.page.keyboard.press('Enter');
        const frame = await monitorFrame(ctx);
        // Two GPUs × utilisation, memory, power, temperature, each drawn with more than a point.
        let charts: { width: number; height: number; inColour: number }[] = [];
        const deadline = Date.now() + 30_000;
        for (;;) {
          charts = await drawnCharts(frame);
          const rows = await table(frame);
          const points = [...rows.values()].map((r) => Number(r[4]));
          if (charts.length === 8 && charts.every((c) => c.inColour > 0) && points.every((p) => p >= 2))
            break;
          assert.ok(Date.now() < deadline, `8 drawn charts: ${JSON.stringify({ charts, points })}`);
          await workbench.page.waitForTimeout(500);
        }
        log(`charts: ${charts.map((c) => `${c.width}×${c.height} ${c.inColour}px`).join(', ')}`);
        assert.ok(
          charts.every((c) => c.width > 100 && c.height > 100),
          'every canvas has a real size',
        );
        const before = await table(frame);
        assert.equal(before.size, 8, `a table row per series: ${[...before.keys()].join(' | ')}`);
        assert.equal(before.get(UTIL0)?.[1], '70', 'GPU 0’s latest utilisation');
        assert.equal(before.get(UTIL1)?.[1], '20', 'GPU 1’s latest utilisation');
        const status = await frame.locator('.status').first().innerText();
        log(`status: ${status}`);
        assert.match(status, /No GPU processes|Processes:/);

        // The load changes: the charts follow (latest values move, more points, other pixels).
        setLoad([30, 95], [12_288, 61_440]);
        let after = before;
        const until = Date.now() + 30_000;
        while (after.get(UTIL0)?.[1] !== '30' || after.get(UTIL1)?.[1] !== '95') {
          assert.ok(Date.now() < until, `the charts did not follow the load: ${JSON.stringify([...after])}`);
          await workbench.page.waitForTimeout(500);
          after = await table(frame);
        }
        // A few more points at the new load, so that the step shows (the README's screenshot).
        const stepped = Number(after.get(UTIL0)![4]);
        while (Number(after.get(UTIL0)![4]) < stepped + 3) {
          assert.ok(Date.now() < until + 15_000, 'the charts stopped growing');
          await workbench.page.waitForTimeout(500);
          after = await table(frame);
        }
        log(`screenshot ${await workbench.screenshot('91-gpu-monitor')}`);
        const pointsBefore = Number(before.get(UTIL0)![4]);
        const pointsAfter = Number(after.get(UTIL0)![4]);
        log(
          `GPU 0 utilisation: 70 -> 30 (${pointsBefore} -> ${pointsAfter} points); highest ${after.get(UTIL0)![3]}`,
        );
        assert.ok(pointsAfter > pointsBefore, 'more points');
        assert.equal(after.get(UTIL0)![2], '30', 'GPU 0’s lowest is the new load');
        assert.equal(after.get(UTIL1)![3], '95', 'GPU 1’s highest is the new load');
        const redrawn = await drawnCharts(frame);
        assert.ok(
          redrawn.every((c) => c.inColour > 0),
          `every chart still drawn: ${JSON.stringify(redrawn)}`,
        );
        assert.notDeepEqual(
          redrawn.map((c) => c.inColour),
          charts.map((c) => c.inColour),
          'the drawn lines changed',
        );

        // Collapsed, the tree no longer watches: the monitor's session alone is left; closed, none.
        await clusterRow.click();
        for (let i = 0; i < 20 && (await clusterRow.getAttribute('aria-expanded')) !== 'false'; i++)
          await workbench.page.waitForTimeout(200);
        assert.equal(await clusterRow.getAttribute('aria-expanded'), 'false', 'the cluster collapsed');
        assert.equal(sshCount(), 1, 'the monitor’s ssh while it is open');
        await workbench.runCommand('View: Close All Editors');
        for (let i = 0; i < 50 && sshCount() > 0; i++) await workbench.page.waitForTimeout(200);
        assert.equal(sshCount(), 0, 'no ssh left once the monitor is closed');
      } finally {
        if (KEY) {
          fs.rmSync(KEY, { force: true });
          fs.rmSync(`${KEY}.pub`, { force: true });
        }
      }
    },
  },
];
