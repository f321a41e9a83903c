/**
 * The one place that says what every process we start gets: its environment (no credential of ours or of
 * the user's cloud accounts, and on Windows the variables ssh and Winsock need) and the ssh options every
 * ssh of ours carries (its own connection: a user's `ControlMaster auto` would otherwise hand our forwards
 * and our commands to a master connection we do not control). Pure: no vscode, no I/O.
 */

/** Variables that hold a credential: ours (TENSORPOOL_KEY, TENSORPOOL_API_KEY, any *TOKEN*), cloud keys. */
const CREDENTIAL =
  /^TENSORPOOL_.*(KEY|TOKEN|SECRET)|TOKEN|SECRET|PASSWORD|PASSWD|^AWS_(ACCESS_KEY_ID|SECRET|SESSION)|^AZURE_CLIENT_SECRET$|^GOOGLE_APPLICATION_CREDENTIALS$|^RCLONE_CONFIG_.*(KEY|PASS)/i;

/** Whether a variable of this name may carry a secret (never passed to a child). */
function isCredentialVariable(name: string): boolean {
  return CREDENTIAL.test(name);
}

/** What ssh needs on Windows besides PATH: Winsock fails without SystemRoot; the home and profile folders
 *  are where it finds its config, keys and known_hosts. */
const WINDOWS_NEEDED = [
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'SystemDrive',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'USERNAME',
  'USERDOMAIN',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramW6432',
  'OS',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
];

/** What ssh and rsync need elsewhere: where to look, who they run as, the agent, the locale. */
const POSIX_NEEDED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TERM',
];
const ALSO = ['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'DISPLAY', 'SSH_ASKPASS', 'WSL_DISTRO_NAME'];

/**
 * The environment of a child process: `full` keeps everything but the credential variables (a command the
 * user's tools may need, such as rsync's), `ssh` only what ssh needs on this platform. Names are matched
 * as the platform does (case-blind on Windows).
 */
export function childEnv(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  kind: 'full' | 'ssh' = 'full',
): Record<string, string> {
  const win = platform === 'win32';
  const wanted = new Set(
    [...POSIX_NEEDED, ...ALSO, ...(win ? WINDOWS_NEEDED : [])].map((n) => (win ? n.toUpperCase() : n)),
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isCredentialVariable(name)) continue;
    if (kind === 'ssh' && !wanted.has(win ? name.toUpperCase() : name)) continue;
    out[name] = value;
  }
  return out;
}

/** `-o` options every ssh of ours carries, before its destination: a connection of its own. */
export const SSH_OWN_CONNECTION: readonly string[] = ['-o', 'ControlMaster=no', '-o', 'ControlPath=none'];
