/**
 * "Copy as environment variables", the alternative that writes no file: the variables the AWS
 * tools and rclone read, quoted so a value is always taken literally by the shell it is pasted in.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { awsEnvironment, rcloneEnvironment, renderEnvironment } from '../../src/config/env';
import { type ConfigError } from '../../src/config/errors';

const CREDS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: "s3cr3t/with'quote$HOME`x`",
  endpoint: 'https://storage.example.test',
  region: 'us-east-1',
};

describe('environment variables', () => {
  it('name the variables the AWS CLI and SDKs read', () => {
    assert.deepEqual(
      awsEnvironment(CREDS).map(([n]) => n),
      ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_DEFAULT_REGION', 'AWS_REGION', 'AWS_ENDPOINT_URL'],
    );
    assert.deepEqual(rcloneEnvironment('tp', CREDS).slice(0, 2), [
      ['RCLONE_CONFIG_TP_TYPE', 's3'],
      ['RCLONE_CONFIG_TP_PROVIDER', 'Other'],
    ]);
    assert.equal(rcloneEnvironment('my-remote', CREDS)[0][0], 'RCLONE_CONFIG_MY_REMOTE_TYPE');
  });

  it('render export lines for POSIX shells, quoted literally', () => {
    const text = renderEnvironment(awsEnvironment(CREDS), 'posix');
    assert.equal(text.split('\n')[1], `export AWS_SECRET_ACCESS_KEY='s3cr3t/with'\\''quote$HOME\`x\`'`);
    assert.ok(text.endsWith("export AWS_ENDPOINT_URL='https://storage.example.test'\n"));
  });

  it('the POSIX lines give the exact values back in sh', function () {
    if (process.platform === 'win32') this.skip();
    const script = `${renderEnvironment(awsEnvironment(CREDS), 'posix')}printf %s "$AWS_SECRET_ACCESS_KEY"`;
    assert.equal(execFileSync('sh', ['-c', script], { encoding: 'utf8' }), CREDS.secretAccessKey);
  });

  it('render $env: lines for PowerShell, doubling single quotes (typographic ones too)', () => {
    const text = renderEnvironment([['AWS_SECRET_ACCESS_KEY', "a'b\u2019c$d"]], 'powershell');
    assert.equal(text, "$env:AWS_SECRET_ACCESS_KEY = 'a''b\u2019\u2019c$d'\n");
  });

  it('refuse line breaks and bad names without echoing the value', () => {
    assert.throws(
      () => renderEnvironment([['X', 'secret-value\nrm -rf /']], 'posix'),
      (e: ConfigError) => e.code === 'invalid-value' && !e.message.includes('secret-value'),
    );
    assert.throws(
      () => renderEnvironment([['1X', 'v']], 'powershell'),
      /not a valid environment variable name/,
    );
  });
});
