// Start code-server (VS Code's server with its web workbench) on a free loopback port with throwaway
// state: user data, extensions, XDG folders and TMPDIR all live in one scratch folder of this run.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installedPaths } from './install';
import { killGroup, registerScratch, spawnGroup } from './processes';
import type { Target } from './targets';
import { until } from '../shared/wait';
import { tail } from './util';

export interface CodeServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** The (empty) folder the workbench opens. */
  workspace: string;
  /** The HOME code-server and the extension host run with (a throwaway one unless realHome). */
  home: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Settings that keep a fresh VS Code quiet: no welcome page, telemetry, update checks or prompts.
 * Only values every tested version takes as they are: when VS Code migrates a value (1.139 rewrites
 * `"extensions.autoUpdate": false` to `"off"`), it rewrites settings.json while the window starts, and
 * the extension host can then lose all user settings (tensorpool.apiUrl falls back to its default).
 */
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
  // code-server's window is a remote one: its extension host scans the machine's processes and sockets for
  // ports to forward (a shell running `ls -l /proc/*/fd/*`, `ps`, every 2 s or more), CPU and forks in the host
  // that a desktop VS Code's local extension host does not have and that the tests and the bench do not use.
  // (code-server has a tunnel provider, so the scan stops only when its source is the terminals' output.)
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
};

/** Machine-scoped settings keeping it quiet: in a remote window (code-server is one) VS Code reads these
 *  from the machine's settings only, and ignores them in user settings. */
const QUIET_MACHINE_SETTINGS = {
  // An extension's walkthrough opens on install unless this is off (this extension's own first-run
  // opening respects it too).
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
};

/** A fresh scratch folder for one run, deleted at the end. Kept short and under the system TMPDIR:
 *  VS Code puts Unix sockets in it, and socket paths are limited to 108 bytes. */
export function newRunDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tp-${label}-`));
  registerScratch(dir);
  return dir;
}

export interface CodeServerOptions {
  runDir: string;
  /** Keep the real HOME (the demo); tests get a throwaway one under the run's folder. */
  realHome?: boolean;
  /** Extra environment; the extension host inherits code-server's environment. */
  env?: Record<string, string>;
  /** User settings on top of the quiet defaults. */
  settings?: Record<string, unknown>;
  /** Settings of the opened folder (.vscode/settings.json). */
  workspaceSettings?: Record<string, unknown>;
  /** Settings of this machine (<user-data-dir>/Machine/settings.json, what a remote window reads for
   *  machine-scoped settings such as tensorpool.apiUrl; ConfigurationTarget.Global writes there). */
  machineSettings?: Record<string, unknown>;
  /** .vsix files to install before starting. */
  vsix?: string[];
  /** Bind to this port instead of a free one. */
  port?: number;
  /** Open the folder in Restricted Mode: Workspace Trust on, the folder never trusted, no startup prompt.
   *  By default trust is off (every folder trusted). */
  untrusted?: boolean;
  /** The display language (code-server's --locale): `qps-ploc` for the pseudo-localised run. */
  locale?: string;
  /** Called after the .vsix files are installed, before code-server starts. */
  afterInstall?: (dirs: { userData: string; extensions: string }) => void;
}

/** Workspace Trust on, and a folder nobody trusted stays in Restricted Mode without asking. */
const UNTRUSTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

export async function startCodeServer(target: Target, opts: CodeServerOptions): Promise<CodeServer> {
  const { codeServer, nodeBin } = installedPaths(target);
  const state = path.join(opts.runDir, 'code-server');
  const workspace = path.join(opts.runDir, 'workspace');
  for (const dir of ['ud/User', 'ud/Machine', 'exts', 'xdg-config', 'xdg-data', 'xdg-cache', 'tmp'])
    fs.mkdirSync(path.join(state, dir), { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  if (opts.workspaceSettings) {
    fs.mkdirSync(path.join(workspace, '.vscode'));
    fs.writeFileSync(
      path.join(workspace, '.vscode/settings.json'),
      JSON.stringify(opts.workspaceSettings, null, 2),
    );
  }
  fs.writeFileSync(
    path.join(state, 'ud/User/settings.json'),
    JSON.stringify(
      { ...QUIET_SETTINGS, ...(opts.untrusted ? UNTRUSTED_SETTINGS : {}), ...opts.settings },
      null,
      2,
    ),
  );

  fs.writeFileSync(
    path.join(state, 'ud/Machine/settings.json'),
    JSON.stringify({ ...QUIET_MACHINE_SETTINGS, ...opts.machineSettings }, null, 2),
  );

  // A throwaway home: what the extension writes under ~ (the ssh config it keeps, keys it makes) stays in
  // this run, never in the real user's home. (OpenSSH itself reads the passwd entry's home: the suites
  // give ssh its key through an agent, harness/userKey.ts.)
  // The demo (realHome) is the user's own session and keeps their home.
  const home = path.join(state, 'home');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(opts.realHome ? {} : { HOME: home }),
    // code-server writes its config.yaml under XDG_CONFIG_HOME, sockets and caches under TMPDIR.
    XDG_CONFIG_HOME: path.join(state, 'xdg-config'),
    XDG_DATA_HOME: path.join(state, 'xdg-data'),
    XDG_CACHE_HOME: path.join(state, 'xdg-cache'),
    TMPDIR: path.join(state, 'tmp'),
    ...opts.env,
  };
  // The launcher is `#!/usr/bin/env node`: the first node on PATH runs code-server and its extension host.
  if (nodeBin) env.PATH = `${nodeBin}${path.delimiter}${process.env.PATH}`;
  const common = ['--user-data-dir', path.join(state, 'ud'), '--extensions-dir', path.join(state, 'exts')];

  for (const vsix of opts.vsix ?? []) {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(codeServer, [...common, '--install-extension', vsix], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.stderr.on('data', (d: Buffer) => (out += d));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`--install-extension ${vsix} failed (${code}):\n${out}`)),
      );
    });
  }

  opts.afterInstall?.({ userData: path.join(state, 'ud'), extensions: path.join(state, 'exts') });
  // Port 0 unless asked: code-server binds a free one and prints it (read below), so no other process can
  // take a port picked here before code-server binds it.
  const requested = opts.port ?? 0;
  const logFile = path.join(state, 'code-server.log');
  const out = fs.openSync(logFile, 'w');
  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${requested}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(opts.untrusted ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(opts.locale ? ['--locale', opts.locale] : []),
    ...common,
    workspace,
  ];
  const child = spawnGroup(`code-server ${target.codeServer}`, codeServer, args, {
    env,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const stop = () => killGroup(child.pid!);
  let port = requested;
  try {
    await until(
      'code-server to listen',
      () => {
        if (child.exitCode !== null)
          throw new Error(`code-server exited (${child.exitCode}):\n${tail(logFile)}`);
        const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(tail(logFile, 100_000));
        if (m) port = Number(m[1]);
        return m !== null;
      },
      60_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    workspace,
    home: opts.realHome ? (process.env.HOME ?? os.homedir()) : home,
    logFile,
    stop,
  };
}
