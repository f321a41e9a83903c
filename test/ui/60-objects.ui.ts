// Inside a bucket through the real workbench: the bucket row expands into its folders and objects, Upload
// Files… (the row's inline action and VS Code's file dialog) puts a file there and it shows in the tree,
// and a text object opens read-only in the editor with its content. Signed in with object storage enabled
// (by 30-objectStorage, or given.ts when it runs alone); the bucket and a text object are made here through
// the API and the real S3 server.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { LocalEngine } from '../harness/engine';
import type { UiTest } from './types';
import { objectStorageEnabled } from './given';

const BUCKET = 'ui-objects';
const TEXT = 'Hello from object storage: line one.';

async function call(engine: LocalEngine, method: string, apiPath: string): Promise<unknown> {
  const r = await fetch(engine.url + apiPath, {
    method,
    headers: { authorization: `Bearer ${engine.token}` },
  });
  const text = await r.text();
  assert.ok(r.ok || r.status === 409, `${method} ${apiPath}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export const tests: UiTest[] = [
  {
    name: 'a bucket row expands into its folders and objects',
    async run(ctx) {
      await objectStorageEnabled(ctx);
      const { workbench, engine, log } = ctx;
      await call(engine, 'POST', '/object-storage/enable');
      await call(engine, 'PUT', `/object-storage/bucket/create/${BUCKET}`);
      const c = (await call(engine, 'GET', '/object-storage/credentials')) as {
        endpoint: string;
        region: string;
        access_key_id: string;
        secret_access_key: string;
      };
      const s3 = new S3Client({
        endpoint: c.endpoint,
        region: c.region,
        forcePathStyle: true,
        credentials: { accessKeyId: c.access_key_id, secretAccessKey: c.secret_access_key },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'notes/hello.txt', Body: TEXT }));
      s3.destroy();
      await workbench.showSections('Object Storage');
      await workbench.runCommand('TensorPool: Refresh Object Storage');
      // The Buckets row was empty until now: it opens by itself once the refresh lists the new bucket.
      const bucketRow = workbench.sidebarRows().filter({ hasText: BUCKET }).first();
      await bucketRow.waitFor({ timeout: 20_000 });
      await workbench.expandRow(bucketRow, /^\s*notes\s*$/);
      log(`screenshot ${await workbench.screenshot('60-bucket-expanded')}`);
    },
  },
  {
    name: 'Upload Files… on the bucket row puts a file there and the tree shows it',
    async run({ workbench, log }) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ui-upload-'));
      const file = path.join(dir, 'upload-me.txt');
      fs.writeFileSync(file, 'uploaded through the workbench\n');
      await workbench.clickRowAction(BUCKET, 'Upload Files…');
      await workbench.waitForQuickInput(/./);
      // The file dialog lists the folder as the path is typed; accept once it shows the file (Enter, or its
      // Upload button when Enter only picked the row). The dialog can still be filling in its first folder
      // when the path goes in and then puts that folder back: the path is typed again then.
      const dialog = workbench.page.locator('.quick-input-widget');
      const listed = dialog.locator('.monaco-list-row', { hasText: 'upload-me.txt' }).first();
      for (let attempt = 1; ; attempt++) {
        await workbench.replaceQuickInputText(file);
        try {
          await listed.waitFor({ timeout: 7_000 });
          break;
        } catch (e) {
          if (attempt === 3) throw e;
          const value = await dialog
            .locator('input')
            .first()
            .inputValue()
            .catch(() => '?');
          log(`the dialog did not list the file (its input: "${value}"); typing the path again`);
        }
      }
      await workbench.enterInQuickInput();
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(async () => {
        await dialog.locator('.monaco-button', { hasText: 'Upload' }).first().click();
        await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
      });
      const row = workbench.sidebarRows().filter({ hasText: 'upload-me.txt' }).first();
      await row.waitFor({ timeout: 30_000 });
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      log(`row: "${text}"`);
      assert.match(text, /31 B/);
      log(`screenshot ${await workbench.screenshot('61-uploaded')}`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  },
  {
    name: 'a text object opens read-only in the editor with its content',
    async run({ workbench, log }) {
      const notes = workbench
        .sidebarRows()
        .filter({ hasText: /^\s*notes\s*$/ })
        .first();
      const object = await workbench.expandRow(notes, 'hello.txt');
      await object.click();
      await workbench.page
        .locator('.tabs-container .tab', { hasText: 'hello.txt' })
        .first()
        .waitFor({ timeout: 20_000 });
      const lines = workbench.page.locator('.editor-instance .view-lines').first();
      await lines.waitFor({ timeout: 15_000 });
      const shown = (await lines.innerText()).replace(/\u00a0/g, ' ');
      log(`editor: "${shown.trim()}"`);
      assert.ok(shown.includes(TEXT), shown);
      log(`screenshot ${await workbench.screenshot('62-object-in-editor')}`);
    },
  },
];
