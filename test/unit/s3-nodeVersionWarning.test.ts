/**
 * The AWS SDK warns once per process on Node < 22 that its releases after January 2027 need Node 22.
 * VS Code 1.100's extension host runs Node 20: our S3 layer must not print that warning there (the SDK
 * is pinned to releases that support Node 20; src/s3/client.ts). Each case runs in a fresh Node process,
 * since the warning is given once per process.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../..');

/** The names of the warnings a fresh Node process emitted while running `script`. */
function warningsOf(script: string): string[] {
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      `const seen = []; process.on('warning', (w) => seen.push(w.message.split('\\n')[0]));
       ${script}
       setTimeout(() => console.log(JSON.stringify(seen)), 50);`,
    ],
    {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: '' },
    },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '[]') as string[];
}

const CREDS =
  "{ endpoint: 'http://127.0.0.1:1', region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 'b' }";

describe('S3 layer: no Node version warning from the AWS SDK in an extension host on Node 20', function () {
  this.timeout(30_000);
  const major = Number(process.versions.node.split('.')[0]);

  it('the SDK on its own warns on this Node (the check below can fail)', function () {
    if (major >= 22) this.skip();
    const seen = warningsOf(
      `const { S3Client } = require('@aws-sdk/client-s3'); new S3Client({ region: 'us-east-1' });`,
    );
    assert.ok(
      seen.some((w) => /AWS SDK for JavaScript/.test(w)),
      `the plain SDK's warning: ${JSON.stringify(seen)}`,
    );
  });

  it('creating our S3 client (the bundle and its source) prints no warning', () => {
    for (const module of ['dist/s3.js', 'out/src/s3/client.js']) {
      const seen = warningsOf(`require('./${module}').createS3Client(${CREDS});`);
      assert.deepEqual(seen, [], module);
    }
  });
});
