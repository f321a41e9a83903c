/** Pull from Node's model (syncPlan.ts: the dry-run listing and the pull, run for real against local
 *  folders) and what a job file leaves out of a sync (jobFile.ts). */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { jobFileIgnores } from '../../src/model/jobFile';
import {
  filesFromInput,
  pullArgv,
  pullListArgv,
  RsyncOutputReader,
  type SyncTarget,
} from '../../src/model/syncPlan';
import { parseItem } from '../../src/model/syncState';

const target: SyncTarget = {
  node: { user: 'root', host: '127.0.0.1', ssh: ['ssh', '-p', '2222', '-o', 'BatchMode=yes'] },
  remote: 'proj',
};

describe('Sync: pull from the node', () => {
  it('for real: the dry run lists new and changed files with sizes, writes nothing; the pull brings only the chosen', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-unit-'));
    const node = path.join(tmp, 'node');
    const here = path.join(tmp, 'here');
    fs.mkdirSync(path.join(node, 'res'), { recursive: true });
    fs.mkdirSync(here);
    fs.writeFileSync(path.join(node, 'res', 'new\nname.txt'), '12345');
    fs.writeFileSync(path.join(node, 'changed.txt'), 'node side');
    fs.writeFileSync(path.join(here, 'changed.txt'), 'here');
    fs.writeFileSync(path.join(node, 'x.log'), 'ignored');
    fs.writeFileSync(path.join(node, '.gitignore'), '*.log\n');
    fs.writeFileSync(path.join(here, '.gitignore'), '*.log\n');
    const local = (argv: string[], input = '') => {
      const args = argv.slice(1).filter((a, i, all) => a !== '-e' && all[i - 1] !== '-e');
      args[args.length - 2] = node + '/';
      return spawnSync('rsync', args, { cwd: here, input, encoding: 'utf8' });
    };
    const listed: string[] = [];
    const reader = new RsyncOutputReader(
      (n) => listed.push(n),
      () => undefined,
    );
    const dry = local(pullListArgv(target, []));
    assert.equal(dry.status, 0, dry.stderr);
    reader.push(dry.stdout);
    reader.end();
    const entries = listed
      .map(parseItem)
      .filter((e) => e !== undefined && e.change[1] === 'f')
      .map((e) => ({ path: e!.path, size: e!.state.size }));
    assert.deepEqual(
      entries.sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: 'changed.txt', size: 9 },
        { path: 'res/new\nname.txt', size: 5 },
      ],
    );
    assert.equal(
      fs.readFileSync(path.join(here, 'changed.txt'), 'utf8'),
      'here',
      'the dry run wrote nothing',
    );
    const r = local(pullArgv(target), filesFromInput(['res/new\nname.txt']));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(here, 'res', 'new\nname.txt'), 'utf8'), '12345');
    assert.equal(fs.readFileSync(path.join(here, 'changed.txt'), 'utf8'), 'here', 'not chosen: not pulled');
    assert.equal(parseItem('not a listing'), undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});

describe("Sync: a job file's ignore list", () => {
  it('the string patterns of `ignore`; nothing from a file without one or that does not parse', () => {
    assert.deepEqual(
      jobFileIgnores('commands = ["python t.py"]\nignore = ["data/raw", "*.ckpt", 3, " "]\n'),
      ['data/raw', '*.ckpt'],
    );
    assert.deepEqual(jobFileIgnores('commands = ["x"]\n'), []);
    assert.deepEqual(jobFileIgnores('ignore = [\n'), []);
    assert.deepEqual(jobFileIgnores('ignore = "one"\n'), []);
  });
});
