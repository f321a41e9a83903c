/**
 * The AWS CLI profile and the rclone remote against a hand-written corpus of real-world files:
 * other profiles, `#` and `;` comments, odd spacing and tabs, CRLF, no final newline, BOM, our
 * profile already present with keys the user added, duplicated foreign sections, empty and missing
 * files. Expected outputs are written out in full, so a diff shows exactly which byte moved.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  awsConfigTarget,
  awsCredentialsTarget,
  awsEntries,
  awsEntriesFromConfigure,
  awsPaths,
  previewAwsProfile,
  previewAwsRemoval,
  removeAwsProfile,
  writeAwsProfile,
} from '../../src/config/aws';
import { type ConfigError } from '../../src/config/errors';
import {
  CONFIGPARSER_DIALECT,
  readSection,
  removeSection,
  upsertSection,
  type IniEntry,
} from '../../src/config/ini';
import { previewIniRemoval, previewIniWrite, type IniTarget } from '../../src/config/iniFile';
import { maskSecret } from '../../src/model/mask';
import {
  previewRcloneRemote,
  rcloneConfigPath,
  rcloneEntries,
  rcloneEntriesFromConfigure,
  rcloneTarget,
  removeRcloneRemote,
  writeRcloneRemote,
} from '../../src/config/rclone';
import { credentialsRecord } from '../fixtures/payloads';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq81sP9Q2Z';
const CREDS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: SECRET,
  endpoint: 'https://storage.example.test',
  region: 'us-east-1',
};
const AWS = awsEntries(CREDS);
const OURS_CREDENTIALS = `[tp]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = ${SECRET}\n`;
const OURS_CONFIG = '[profile tp]\nregion = us-east-1\nendpoint_url = https://storage.example.test\n';

function write(target: IniTarget, old: string | undefined, entries: readonly IniEntry[]): string {
  const text = previewIniWrite(target, old, entries).text;
  assert.equal(
    previewIniWrite(target, text, entries).text,
    text,
    'writing the same values twice changes nothing',
  );
  return text;
}

describe('~/.aws/credentials', () => {
  const target = awsCredentialsTarget();
  const put = (old: string | undefined): string => write(target, old, AWS.credentials);

  it('missing and empty files get just our profile', () => {
    assert.equal(put(undefined), OURS_CREDENTIALS);
    assert.equal(put(''), OURS_CREDENTIALS);
  });

  it('appends after other profiles, keeping comments, spacing and tabs byte for byte', () => {
    const old =
      '# my keys\n; old style comment\n[default]\naws_access_key_id=AKIADEFAULT\naws_secret_access_key =\tdefault/secret\n\n[work]\n  # indented comment\naws_access_key_id : AKIAWORK\n';
    assert.equal(put(old), `${old}\n${OURS_CREDENTIALS}`);
  });

  it('writes CRLF lines into a CRLF file', () => {
    const old = '[default]\r\naws_access_key_id = A\r\n';
    assert.equal(put(old), `${old}\r\n${OURS_CREDENTIALS.replace(/\n/g, '\r\n')}`);
  });

  it('keeps a missing final newline missing, separating our section properly', () => {
    assert.equal(
      put('[default]\naws_access_key_id = A'),
      `[default]\naws_access_key_id = A\n\n${OURS_CREDENTIALS.slice(0, -1)}`,
    );
  });

  it('keeps a BOM', () => {
    assert.equal(put('\uFEFF[default]\nx = 1\n'), `\uFEFF[default]\nx = 1\n\n${OURS_CREDENTIALS}`);
    assert.equal(put('\uFEFF'), `\uFEFF${OURS_CREDENTIALS}`);
  });

  it("updates our profile in place: our key lines only, the user's spacing and extra keys kept", () => {
    const old = [
      '[default]',
      'aws_access_key_id = D',
      '',
      '[tp]',
      '# added by hand',
      'aws_access_key_id=AKIAOLD',
      'mfa_serial = arn:aws:iam::1:mfa/me',
      '',
      '[other]',
      'x = 1',
      '',
    ].join('\n');
    assert.equal(
      put(old),
      [
        '[default]',
        'aws_access_key_id = D',
        '',
        '[tp]',
        '# added by hand',
        'aws_access_key_id=AKIAIOSFODNN7EXAMPLE',
        'mfa_serial = arn:aws:iam::1:mfa/me',
        `aws_secret_access_key = ${SECRET}`,
        '',
        '[other]',
        'x = 1',
        '',
      ].join('\n'),
    );
  });

  it('treats [ tp ] as ours and writes its header so the AWS CLI finds it', () => {
    assert.equal(put('[ tp ]\naws_access_key_id = OLD\n'), OURS_CREDENTIALS);
  });

  it('removes a second copy of our key and a stale session token', () => {
    const old =
      '[tp]\naws_access_key_id = A1\naws_session_token = IQoJb3JpZ2luX2VjE\naws_access_key_id = A2\n';
    assert.equal(put(old), OURS_CREDENTIALS);
  });

  it('leaves [profile tp], [TP], commented headers and duplicated foreign sections alone', () => {
    const old = '[profile tp]\na = 1\n[TP]\nb = 2\n# [tp]\n;[tp]\n[work]\nc = 3\n[work]\nc = 4\n';
    assert.equal(put(old), `${old}\n${OURS_CREDENTIALS}`);
  });

  it('refuses two sections of ours, naming the lines', () => {
    assert.throws(
      () => put('[tp]\na = 1\n\n[ tp ]\nb = 2\n'),
      (e: ConfigError) =>
        e.code === 'duplicate-section' &&
        /2 \[tp\] sections \(lines 1, 4\)/.test(e.message) &&
        e.message.startsWith('~/.aws/credentials: '),
    );
  });

  it('replaces a multi-line value whole (configparser reads indented lines, and blank lines between them, as part of it)', () => {
    const old = '[tp]\naws_access_key_id = OLD\n  continued\n\n  still continued\nnote = x\n';
    assert.equal(
      put(old),
      `[tp]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\nnote = x\naws_secret_access_key = ${SECRET}\n`,
    );
  });

  it('keeps the last line without a newline when it inserts after it', () => {
    assert.equal(
      put('[tp]\r\naws_access_key_id = OLD'),
      `[tp]\r\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\r\naws_secret_access_key = ${SECRET}`,
    );
  });
});

describe('~/.aws/config', () => {
  const target = awsConfigTarget();
  const put = (old: string | undefined, entries = AWS.config): string => write(target, old, entries);

  it('a [tp] section without "profile" is someone else\'s', () => {
    assert.equal(put('[tp]\nregion = eu-west-1\n'), `[tp]\nregion = eu-west-1\n\n${OURS_CONFIG}`);
  });

  it('[profile  tp] with any spacing is ours; [default], sso-session and services sections are not', () => {
    const old =
      '[default]\nregion = eu-west-1\n[sso-session tp]\nsso_region = x\n[services tp]\ns3 =\n  endpoint_url = https://x\n[profile  tp]\nregion = old\ncli_pager =\noutput = table\n';
    assert.equal(
      put(old),
      '[default]\nregion = eu-west-1\n[sso-session tp]\nsso_region = x\n[services tp]\ns3 =\n  endpoint_url = https://x\n' +
        '[profile tp]\nregion = us-east-1\ncli_pager =\noutput = table\nendpoint_url = https://storage.example.test\n',
    );
  });

  it("merges a nested s3 value: our sub-key replaced or added, the user's kept", () => {
    const entries = awsEntries(CREDS, { addressingStyle: 'path' }).config;
    assert.equal(
      put('[profile tp]\ns3 =\n\tsignature_version = s3v4\nregion = x\n', entries),
      '[profile tp]\ns3 =\n\tsignature_version = s3v4\n\taddressing_style = path\nregion = us-east-1\nendpoint_url = https://storage.example.test\n',
    );
    assert.equal(
      put('[profile tp]\ns3 =\n  addressing_style = virtual\n  max_concurrent_requests = 20\n', entries),
      '[profile tp]\ns3 =\n  addressing_style = path\n  max_concurrent_requests = 20\nregion = us-east-1\nendpoint_url = https://storage.example.test\n',
    );
    assert.equal(put('', entries), `${OURS_CONFIG}s3 =\n    addressing_style = path\n`);
    // `s3 = x` on one line is not a nested section; ours takes its place.
    assert.equal(
      put('[profile tp]\ns3 = bogus\ncli_pager =\n', entries),
      '[profile tp]\ns3 =\n    addressing_style = path\ncli_pager =\nregion = us-east-1\nendpoint_url = https://storage.example.test\n',
    );
  });

  it("the service's configure texts give the same entries, nested s3 included", () => {
    const r = credentialsRecord();
    const answer = {
      profile_name: 'tp',
      credentials_file: `[tp]\naws_access_key_id = ${r.access_key_id}\naws_secret_access_key = ${r.secret_access_key}\n`,
      config_file: `[profile tp]\nregion = ${r.region}\nendpoint_url = ${r.endpoint}\ns3 =\n    addressing_style = path\n`,
    };
    const entries = awsEntriesFromConfigure(answer);
    assert.deepEqual(
      entries.config.map((e) => e.key),
      ['region', 'endpoint_url', 's3.addressing_style'],
    );
    // Applied to empty files, they reproduce the service's texts exactly.
    assert.equal(write(awsCredentialsTarget(), '', entries.credentials), answer.credentials_file);
    assert.equal(write(awsConfigTarget(), '', entries.config), answer.config_file);
    assert.throws(
      () => awsEntriesFromConfigure({ ...answer, config_file: '[tp]\nregion = x\n' }),
      (e: ConfigError) => e.code === 'missing-section',
    );
  });

  it('never writes [default] and rejects unusable names and values without echoing them', () => {
    assert.throws(() => awsConfigTarget('default'), /never writes the default profile/);
    assert.throws(() => awsCredentialsTarget('my profile'), /without spaces or brackets/);
    assert.throws(
      () => awsCredentialsTarget('a]b'),
      (e: ConfigError) => e.code === 'invalid-value',
    );
    const bad = (value: string): ConfigError => {
      try {
        put('', [{ key: 'aws_secret_access_key', value }]);
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('accepted');
    };
    for (const v of ['line\nbreak', 'nul\u0000', ' padded', '']) {
      const e = bad(v);
      assert.equal(e.code, 'invalid-value');
      if (v.trim()) assert.ok(!e.message.includes(v.trim()), e.message);
    }
    assert.throws(() => put('', [{ key: 'a b', value: 'x' }]), /not a usable key name/);
    assert.throws(
      () => put('', [{ key: 'a\u0007b', value: 'x' }]),
      (e: Error) => !/[\u0000-\u001f]/.test(e.message),
    );
    assert.throws(() => put('', []), /no values to write/);
  });

  it('reads our section back, nested keys flattened', () => {
    const text = put('', awsEntries(CREDS, { addressingStyle: 'path', output: 'json' }).config);
    assert.deepEqual(readSection(text, awsConfigTarget().ref, CONFIGPARSER_DIALECT), [
      { key: 'region', value: 'us-east-1' },
      { key: 'endpoint_url', value: 'https://storage.example.test' },
      { key: 'output', value: 'json' },
      { key: 's3.addressing_style', value: 'path' },
    ]);
  });
});

describe('removing our section', () => {
  const target = awsConfigTarget();
  const remove = (text: string): string => previewIniRemoval(target, text).text;

  it('removing what we appended gives the file back byte for byte', () => {
    for (const old of [
      '',
      '\uFEFF',
      '[default]\nregion = x\n',
      '[default]\r\nregion = x',
      '[a]\n\n',
      '# only a comment',
    ]) {
      assert.equal(remove(write(target, old, AWS.config)), old, JSON.stringify(old));
    }
  });

  it('takes a section in the middle from its header to its last key, keeping the comment that introduces the next one', () => {
    const old =
      '[a]\nx = 1\n\n[profile tp]\nregion = r\n# inside\nendpoint_url = e\n\n# work account\n[b]\ny = 2\n';
    assert.equal(remove(old), '[a]\nx = 1\n\n\n# work account\n[b]\ny = 2\n');
  });

  it('keeps the section with the keys the user added', () => {
    const old =
      '[profile tp]\nregion = r\ncli_pager =\ns3 =\n  addressing_style = path\n  signature_version = s3v4\n';
    const r = removeSection(old, target.ref, target.ownedKeys, target.dialect);
    assert.equal(r.text, '[profile tp]\ncli_pager =\ns3 =\n  signature_version = s3v4\n');
    assert.deepEqual([r.removed, r.keptKeys], ['keys', ['cli_pager', 's3']]);
    assert.equal(remove('[profile tp]\nregion = r\ns3 =\n  addressing_style = path\n'), '');
  });

  it('a missing section or file is nothing to remove', () => {
    assert.equal(previewIniRemoval(target, '[a]\n').changed, false);
    assert.match(previewIniRemoval(target, undefined).summary, /does not exist/);
  });
});

describe('previews for the confirmation dialog', () => {
  it('say what changes where, and never show a secret in full', () => {
    const old = `[tp]\naws_access_key_id = AKIAOLD\naws_secret_access_key = oldSecretValue0000000000000000000000001234\ncli_pager =\n`;
    const p = previewAwsProfile({ credentials: old, config: undefined }, 'tp', AWS);
    assert.match(
      p.credentials.summary,
      /^Update profile \[tp\] in ~\/\.aws\/credentials: change aws_access_key_id \(AKIAOLD → AKIAIOSFODNN7EXAMPLE\), aws_secret_access_key \(\*\*\*\*1234 → \*\*\*\*9Q2Z\)\. Your other keys there \(cli_pager\) stay\./,
    );
    assert.match(
      p.config.summary,
      /^Create ~\/\.aws\/config with \[profile tp\]: region = us-east-1, endpoint_url = https:\/\/storage\.example\.test\.$/,
    );
    assert.match(
      previewAwsProfile({ credentials: '[a]\n', config: OURS_CONFIG }, 'tp', AWS).summary.join(' '),
      /Add profile \[tp\] at the end of ~\/\.aws\/credentials.*already has these values/,
    );
    const r = previewRcloneRemote('', 'tp', rcloneEntries(CREDS));
    for (const summary of [
      ...p.summary,
      r.summary,
      ...previewAwsRemoval({ credentials: old, config: undefined }, 'tp').summary,
    ]) {
      for (let i = 0; i + 5 <= SECRET.length; i++)
        assert.ok(!summary.includes(SECRET.slice(i, i + 5)), summary);
      assert.ok(!summary.includes('oldSecretValue'), summary);
    }
  });

  it('masks to the last four characters, short values entirely', () => {
    assert.equal(maskSecret(SECRET), '****9Q2Z');
    assert.equal(maskSecret('short'), '****');
  });

  it('changed is false when the file already holds the values', () => {
    const p = previewIniWrite(awsCredentialsTarget(), OURS_CREDENTIALS, AWS.credentials);
    assert.deepEqual([p.changed, p.text], [false, OURS_CREDENTIALS]);
  });

  it('upsert reports the kinds of change', () => {
    const e = upsertSection(
      '[tp]\na = 1\nb = 2\nb = 3\n',
      { header: 'tp', matches: (n) => n === 'tp' },
      [
        { key: 'a', value: '1' },
        { key: 'b', value: '9' },
        { key: 'c', value: '3' },
      ],
      CONFIGPARSER_DIALECT,
    );
    assert.deepEqual(
      e.changes.map((c) => `${c.key}:${c.kind}`),
      ['a:unchanged', 'b:changed', 'c:added'],
    );
    assert.deepEqual(e.duplicatesRemoved, ['b']);
  });
});

describe('rclone.conf', () => {
  const target = rcloneTarget();
  const OURS = `[tp]\ntype = s3\nprovider = Other\naccess_key_id = AKIAIOSFODNN7EXAMPLE\nsecret_access_key = ${SECRET}\nendpoint = https://storage.example.test\nregion = us-east-1\n`;
  const put = (old: string | undefined): string => write(target, old, rcloneEntries(CREDS));

  it('appends our remote after others, whose JSON tokens and spacing stay as they are', () => {
    const old =
      '[gdrive]\ntype = drive\ntoken = {"access_token":"ya29.a0","expiry":"2026-01-01T00:00:00Z"}\n\n[ b2 ]\naccount=123\n';
    assert.equal(put(old), `${old}\n${OURS}`);
    assert.equal(put(undefined), OURS);
  });

  it("updates an existing [tp] remote, keeping the user's options; indented lines are plain keys here", () => {
    const old = '[tp]\ntype = s3\nprovider = AWS\n  acl = private\naccess_key_id = OLD\n[TP]\nx = y\n';
    assert.equal(
      put(old),
      `[tp]\ntype = s3\nprovider = Other\n  acl = private\naccess_key_id = AKIAIOSFODNN7EXAMPLE\nsecret_access_key = ${SECRET}\nendpoint = https://storage.example.test\nregion = us-east-1\n[TP]\nx = y\n`,
    );
  });

  it('refuses an encrypted configuration', () => {
    const enc = '# Encrypted rclone configuration File\n\nRCLONE_ENCRYPT_V0:\nXYZ\n';
    assert.throws(
      () => put(enc),
      (e: ConfigError) => e.code === 'encrypted-config' && /rclone config/.test(e.message),
    );
  });

  it("takes the service's rclone_config text", () => {
    assert.deepEqual(
      rcloneEntriesFromConfigure({ rclone_config: OURS, remote_name: 'tp' }),
      rcloneEntries(CREDS),
    );
    assert.throws(
      () => rcloneEntriesFromConfigure({ rclone_config: '[other]\na = b\n', remote_name: 'tp' }),
      /no remote \[tp\]/,
    );
  });

  it('finds the file where rclone does', () => {
    const home = '/home/u';
    assert.equal(rcloneConfigPath({ RCLONE_CONFIG: '/etc/rc.conf' }, home), '/etc/rc.conf');
    assert.equal(
      rcloneConfigPath({}, home, { platform: 'linux' }),
      join(home, '.config', 'rclone', 'rclone.conf'),
    );
    assert.equal(
      rcloneConfigPath({ XDG_CONFIG_HOME: '/x' }, home, { platform: 'linux' }),
      join('/x', 'rclone', 'rclone.conf'),
    );
    assert.equal(
      rcloneConfigPath({ APPDATA: '/appdata' }, home, { platform: 'win32' }),
      join('/appdata', 'rclone', 'rclone.conf'),
    );
    const legacy = join(home, '.rclone.conf');
    assert.equal(rcloneConfigPath({}, home, { platform: 'linux', exists: (p) => p === legacy }), legacy);
  });
});

describe('AWS and rclone files on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tp-config-ini-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE, ~ included', () => {
    assert.deepEqual(awsPaths({}, '/h'), {
      credentials: join('/h', '.aws', 'credentials'),
      config: join('/h', '.aws', 'config'),
    });
    assert.deepEqual(awsPaths({ AWS_SHARED_CREDENTIALS_FILE: '~/c', AWS_CONFIG_FILE: '/etc/aws' }, '/h'), {
      credentials: join('/h', 'c'),
      config: '/etc/aws',
    });
  });

  it('writes both AWS files (new ones 0600, existing modes kept) and removes the profile again', async () => {
    const paths = awsPaths({}, dir);
    writeFileSync(join(dir, 'placeholder'), '');
    await writeAwsProfile(paths, 'tp', AWS);
    assert.equal(readFileSync(paths.credentials, 'utf8'), OURS_CREDENTIALS);
    assert.equal(readFileSync(paths.config, 'utf8'), OURS_CONFIG);
    if (process.platform !== 'win32') {
      assert.equal(statSync(paths.credentials).mode & 0o777, 0o600);
      assert.equal(statSync(join(dir, '.aws')).mode & 0o777, 0o700);
      chmodSync(paths.config, 0o644);
    }
    await removeAwsProfile(paths, 'tp');
    assert.equal(readFileSync(paths.credentials, 'utf8'), '');
    assert.equal(readFileSync(paths.config, 'utf8'), '');
    if (process.platform !== 'win32') assert.equal(statSync(paths.config).mode & 0o777, 0o644);
  });

  it('refuses before writing anything when either AWS file has our profile twice', async () => {
    const paths = awsPaths({}, dir);
    await writeAwsProfile(paths, 'work', AWS);
    const config = '[profile tp]\nregion = a\n[profile tp]\nregion = b\n';
    writeFileSync(paths.config, config);
    const credentials = readFileSync(paths.credentials, 'utf8');
    await assert.rejects(
      writeAwsProfile(paths, 'tp', AWS),
      (e: ConfigError) => e.code === 'duplicate-section' && e.message.startsWith(paths.config),
    );
    assert.equal(readFileSync(paths.credentials, 'utf8'), credentials);
    assert.equal(readFileSync(paths.config, 'utf8'), config);
  });

  it('writes and removes the rclone remote', async () => {
    const file = rcloneConfigPath({}, dir, { platform: 'linux' });
    const other = '[gdrive]\ntype = drive\n';
    await writeRcloneRemote(file, 'tp', rcloneEntries(CREDS));
    await removeRcloneRemote(file, 'tp');
    assert.equal(readFileSync(file, 'utf8'), '');
    writeFileSync(file, other);
    await writeRcloneRemote(file, 'tp', rcloneEntries(CREDS));
    await removeRcloneRemote(file, 'tp');
    assert.equal(readFileSync(file, 'utf8'), other);
  });
});
