/**
 * What the extension asks of the machine and the workbench that a test cannot provide for real: whose
 * home folder holds ~/.ssh, ~/.aws and rclone.conf, the environment (AWS_*, RCLONE_CONFIG), opening a
 * second window, whether Remote-SSH is installed, Workspace Trust, the workspace folders, the save
 * dialog and which local port is free. Controllers
 * get one HostSeams through their constructor; the composition root owns it, and the test API
 * replaces its values with configure().
 */
import * as net from 'node:net';
import * as os from 'node:os';
import * as vscode from 'vscode';

export const REMOTE_SSH_ID = 'ms-vscode-remote.remote-ssh';

export interface HostSeamValues {
  /** Whose ~/.ssh, ~/.aws and rclone config are read and written. */
  readonly home: () => string;
  /** The environment the config writers consult (AWS_SHARED_CREDENTIALS_FILE, RCLONE_CONFIG, ...). */
  readonly env: () => Readonly<Record<string, string | undefined>>;
  /** Open a URI in a new window (a test cannot open a second window). */
  readonly opener: (uri: vscode.Uri) => Thenable<unknown>;
  /** Open a web address (already through asExternalUri) in the Simple Browser or the external browser. */
  readonly browse: (uri: vscode.Uri, where: 'simpleBrowser' | 'external') => Thenable<unknown>;
  /** Whether Remote-SSH is installed (it cannot be installed offline). */
  readonly hasRemoteSsh: () => boolean;
  /** Workspace Trust (the integration harness also opens a really untrusted folder: untrustedWorkspace.test.ts). */
  readonly isTrusted: () => boolean;
  /** The workspace folders on disk (where a `.env` may hold a token; none in a virtual workspace). */
  readonly folders: () => readonly string[];
  /** Ask where to save a file (a test cannot answer the native dialog). */
  readonly saveDialog: (options: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined>;
  /** A port free on 127.0.0.1 now (a test hands out one it holds, as another program binding it first would). */
  readonly freePort: () => Promise<number>;
}

const REAL: HostSeamValues = {
  home: () => os.homedir(),
  env: () => process.env,
  opener: (uri) => vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true }),
  browse: (uri, where) =>
    where === 'external'
      ? vscode.env.openExternal(uri)
      : vscode.commands.executeCommand('simpleBrowser.show', uri.toString(true)),
  hasRemoteSsh: () => vscode.extensions.getExtension(REMOTE_SSH_ID) !== undefined,
  isTrusted: () => vscode.workspace.isTrusted,
  folders: () =>
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
  saveDialog: (options) => vscode.window.showSaveDialog(options),
  freePort: () =>
    new Promise((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    }),
};

export class HostSeams implements HostSeamValues {
  private values: HostSeamValues;

  constructor(overrides: Partial<HostSeamValues> = {}) {
    this.values = { ...REAL, ...overrides };
  }

  /** Use these values instead of the real ones from now on; `{}` restores the real ones. */
  configure(overrides: Partial<HostSeamValues>): void {
    this.values = { ...REAL, ...overrides };
  }

  readonly home = (): string => this.values.home();
  readonly env = (): Readonly<Record<string, string | undefined>> => this.values.env();
  readonly opener = (uri: vscode.Uri): Thenable<unknown> => this.values.opener(uri);
  readonly browse = (uri: vscode.Uri, where: 'simpleBrowser' | 'external'): Thenable<unknown> =>
    this.values.browse(uri, where);
  readonly hasRemoteSsh = (): boolean => this.values.hasRemoteSsh();
  readonly isTrusted = (): boolean => this.values.isTrusted();
  readonly folders = (): readonly string[] => this.values.folders();
  readonly saveDialog = (options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined> =>
    this.values.saveDialog(options);
  readonly freePort = (): Promise<number> => this.values.freePort();
}
