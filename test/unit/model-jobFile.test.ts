/**
 * The job-file checker (what the editor flags while the user types): TOML syntax errors at their
 * position, unknown top-level keys with the closest known key, values of the wrong type, a job with
 * nothing to run; the names a new job file may get; which template a new job file starts with.
 */
import * as assert from 'node:assert/strict';
import {
  checkJobFile,
  closestJobFileKey,
  jobFileRefusal,
  type JobFileProblem,
} from '../../src/model/jobFile';
import { isJobFileName, jobFileNames } from '../../src/model/jobFileName';
import { BUILT_IN_JOB_TEMPLATE, resolveJobTemplate } from '../../src/model/jobTemplate';
import { locateTopLevelKeys } from '../../src/model/tomlKeys';

/** A problem as [code, severity, startLine, startChar, endLine, endChar]. */
const brief = (p: JobFileProblem) => [
  p.code,
  p.severity,
  p.range.start.line,
  p.range.start.character,
  p.range.end.line,
  p.range.end.character,
];

describe('job file checker', () => {
  it('a valid job file has no problems (the built-in template among them)', () => {
    assert.deepEqual(checkJobFile(BUILT_IN_JOB_TEMPLATE), []);
    assert.deepEqual(checkJobFile('commands = ["python train.py"]\noutputs = []\nignore = [".venv/"]\n'), []);
  });

  it('a syntax error is reported once, at the line and column the parser points at', () => {
    const problems = checkJobFile('commands = ["a"]\noutputs = ["x" "y"]\n');
    assert.equal(problems.length, 1);
    const [p] = problems;
    assert.equal(p.code, 'syntax');
    assert.equal(p.severity, 'error');
    assert.deepEqual(p.range.start, { line: 1, character: 15 });
    assert.match(p.message, /^TOML syntax error: /);
    assert.doesNotMatch(p.message, /\n/);
  });

  it('an unfinished value at the end of the file points inside the last line', () => {
    const [p] = checkJobFile('commands = ["a"]\nignore = [');
    assert.equal(p.code, 'syntax');
    assert.equal(p.range.start.line, 1);
    assert.ok(p.range.end.character <= 'ignore = ['.length);
  });

  it('an unknown key is a warning on the key, suggesting the key it is probably a typo of', () => {
    const problems = checkJobFile('command = ["a"]\ncommands = ["b"]\n  gpu = "H100"\n');
    assert.deepEqual(problems.map(brief), [
      ['unknown-key', 'warning', 0, 0, 0, 7],
      ['unknown-key', 'warning', 2, 2, 2, 5],
    ]);
    assert.equal(problems[0].suggestion, 'commands');
    assert.match(problems[0].message, /did you mean `commands`\?/);
    assert.equal(problems[1].suggestion, undefined);
    assert.match(problems[1].message, /`commands`, `outputs`, `ignore`/);
  });

  it('suggests known keys for typos, case and prefixes, and nothing for unrelated names', () => {
    assert.equal(closestJobFileKey('command'), 'commands');
    assert.equal(closestJobFileKey('Commands'), 'commands');
    assert.equal(closestJobFileKey('output'), 'outputs');
    assert.equal(closestJobFileKey('ignored'), 'ignore');
    assert.equal(closestJobFileKey('igonre'), 'ignore');
    assert.equal(closestJobFileKey('gpu'), undefined);
    assert.equal(closestJobFileKey('optimization_priority'), undefined);
  });

  it('a value of the wrong type is an error spanning the value, also across lines', () => {
    const text = 'commands = "python train.py"  # one string\noutputs = [\n  "a",\n  2,\n]\nignore = true\n';
    const problems = checkJobFile(text);
    assert.deepEqual(problems.map(brief), [
      ['wrong-type', 'error', 0, 11, 0, 28],
      ['wrong-type', 'error', 1, 10, 4, 1],
      ['wrong-type', 'error', 5, 9, 5, 13],
    ]);
    assert.match(problems[0].message, /`commands` must be an array of strings.*not a string/);
    assert.match(problems[1].message, /entry 2 is a number/);
    assert.match(problems[2].message, /not a boolean/);
  });

  it('a known key written as a table or a dotted key is the wrong type, flagged on its line', () => {
    assert.deepEqual(checkJobFile('commands = ["a"]\n[outputs]\npath = "x"\n').map(brief), [
      ['wrong-type', 'error', 1, 0, 1, 9],
    ]);
    assert.deepEqual(checkJobFile('commands = ["a"]\nignore.x = 1\n').map(brief), [
      ['wrong-type', 'error', 1, 0, 1, 12],
    ]);
  });

  it('an empty or missing `commands` is a warning (the job would run nothing)', () => {
    assert.deepEqual(checkJobFile('commands = []\n').map(brief), [['no-commands', 'warning', 0, 11, 0, 13]]);
    assert.deepEqual(checkJobFile('outputs = ["x"]\n').map(brief), [['no-commands', 'warning', 0, 0, 0, 0]]);
  });

  it('keys inside multi-line strings, arrays and tables are not top-level keys', () => {
    const text = [
      'commands = [',
      '  "echo \'[x]\'",  # a comment with ignore = 1',
      ']',
      'outputs = """',
      'ignore = 1',
      '"""',
      "'quoted key' = 'v'",
      '[tool]',
      'gpu = 1',
    ].join('\n');
    assert.deepEqual([...locateTopLevelKeys(text).keys()], ['commands', 'outputs', 'quoted key', 'tool']);
    const codes = checkJobFile(text).map((p) => `${p.code}@${p.range.start.line}`);
    assert.deepEqual(codes, ['wrong-type@3', 'unknown-key@6', 'unknown-key@7']);
  });
});

describe('job file refusal (before Run on Cluster… sends anything)', () => {
  it('names the file, the line and the first error, counts the others, and says nothing was sent', () => {
    assert.equal(
      jobFileRefusal('train.tp.toml', 'commands = [1, 2]\noutputs = 5\n'),
      'train.tp.toml line 1: Every entry of `commands` must be a string; entry 1 is a number (and 1 more error). Nothing was sent: fix the job file, then run it again.',
    );
    assert.match(
      jobFileRefusal('a.tp.toml', 'x = 1\ncommands = [\n') ?? '',
      /^a\.tp\.toml line 3: TOML syntax error/,
    );
  });

  it('lets a file with only warnings (an unknown key, no commands) through', () => {
    assert.equal(jobFileRefusal('a.tp.toml', 'comands = ["x"]\n'), undefined);
    assert.equal(jobFileRefusal('a.tp.toml', 'commands = ["python train.py"]\n'), undefined);
  });
});

describe('job file names', () => {
  it('recognises *.tp.toml in any case, and nothing else', () => {
    assert.ok(isJobFileName('/w/job.tp.toml'));
    assert.ok(isJobFileName('C:\\w\\Train.TP.TOML'));
    assert.ok(!isJobFileName('/w/pyproject.toml'));
    assert.ok(!isJobFileName('/w/job.tp.toml.bak'));
  });

  it('offers job.tp.toml, then job2.tp.toml, job3.tp.toml, ...', () => {
    const names: string[] = [];
    for (const name of jobFileNames()) {
      names.push(name);
      if (names.length === 4) break;
    }
    assert.deepEqual(names, ['job.tp.toml', 'job2.tp.toml', 'job3.tp.toml', 'job4.tp.toml']);
  });
});

describe('job file template', () => {
  it("uses the service's template when signed in and it answers", async () => {
    const t = await resolveJobTemplate({
      signedIn: true,
      fetchTemplate: () => Promise.resolve('commands = []\n'),
    });
    assert.deepEqual(t, { text: 'commands = []\n', source: 'service' });
  });

  it('falls back to the built-in template, with the reason, when signed out, offline or sent nothing', async () => {
    let asked = 0;
    const fetchTemplate = () => {
      asked++;
      return Promise.resolve('x');
    };
    const signedOut = await resolveJobTemplate({ signedIn: false, fetchTemplate });
    assert.equal(asked, 0, 'a signed-out user is not sent to the service');
    assert.equal(signedOut.source, 'built-in');
    assert.match(signedOut.reason ?? '', /not signed in/);

    const failed = await resolveJobTemplate({
      signedIn: true,
      fetchTemplate: () => Promise.reject(new Error('connection refused')),
    });
    assert.deepEqual([failed.source, failed.text], ['built-in', BUILT_IN_JOB_TEMPLATE]);
    assert.match(failed.reason ?? '', /connection refused/);

    const empty = await resolveJobTemplate({ signedIn: true, fetchTemplate: () => Promise.resolve('  \n') });
    assert.equal(empty.source, 'built-in');
    assert.equal((await resolveJobTemplate({ signedIn: true })).source, 'built-in');
  });
});
