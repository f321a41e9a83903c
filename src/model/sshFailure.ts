/**
 * What went wrong when ssh (or rsync over ssh) did not log in, read from its stderr, and what to say:
 * the node's host key changed under a live cluster (refused: the attack case), none of the local keys
 * was accepted, the node's server does not answer, or the program itself is missing on this machine
 * (with what to install, for Windows, macOS and Linux). Pure: no vscode, no I/O.
 */
import * as l10n from '@vscode/l10n';

export type SshFailure = 'host-key-changed' | 'denied' | 'unreachable' | 'other';

/** The kind of failure ssh's stderr shows (ssh exits 255 for all of them). */
export function classifySshFailure(stderr: string): SshFailure {
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/i.test(stderr))
    return 'host-key-changed';
  if (/Permission denied \(|Too many authentication failures/i.test(stderr)) return 'denied';
  if (
    /Connection refused|timed out|No route to host|Network is unreachable|Could not resolve hostname|Connection closed by|Connection reset|kex_exchange_identification/i.test(
      stderr,
    )
  )
    return 'unreachable';
  return 'other';
}

/** The last meaningful line of ssh's stderr (for the message; at most 200 characters). */
export function lastSshLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^[@*]+$/.test(l) && !/^Warning: Permanently added/.test(l));
  return (lines[lines.length - 1] ?? '').slice(0, 200);
}

/** The program a shell said it could not find (`rsync: command not found`, `'ssh' is not recognized…`). */
export function missingProgram(stderr: string): string | undefined {
  const m =
    /(?:^|\n)(?:\S*sh: (?:line \d+: |\d+: )?)?([A-Za-z0-9_.-]+): (?:command )?not found/.exec(stderr) ??
    /'([A-Za-z0-9_.-]+)' is not recognized as an internal or external command/.exec(stderr) ??
    /spawn ([A-Za-z0-9_.-]+) ENOENT/.exec(stderr);
  return m?.[1];
}

/** What to install to get `program` (ssh, rsync, scp…) on this platform, as one sentence. */
export function installHint(program: string, platform: string): string {
  const name = program.toLowerCase();
  if (platform === 'win32') {
    if (name === 'rsync')
      return l10n.t(
        'Windows does not include rsync: install it in WSL (wsl sudo apt install rsync) or with MSYS2 or Cygwin, make sure rsync is on your PATH, then restart VS Code.',
      );
    return l10n.t(
      'Windows includes the OpenSSH Client as an optional feature: Settings > System > Optional features > Add a feature > OpenSSH Client (or, in PowerShell as administrator: Add-WindowsCapability -Online -Name OpenSSH.Client~~~~0.0.1.0), then restart VS Code.',
    );
  }
  if (platform === 'darwin')
    return name === 'rsync'
      ? l10n.t('Install rsync with Homebrew (brew install rsync) or make sure /usr/bin is on your PATH.')
      : l10n.t(
          'macOS includes {0} in /usr/bin: make sure /usr/bin is on your PATH, then restart VS Code.',
          program,
        );
  return name === 'rsync'
    ? l10n.t(
        'Install rsync (Debian/Ubuntu: sudo apt install rsync; Fedora: sudo dnf install rsync), then try again.',
      )
    : l10n.t(
        'Install the OpenSSH client (Debian/Ubuntu: sudo apt install openssh-client; Fedora: sudo dnf install openssh-clients), then try again.',
      );
}

/** "{program} is not installed…" with the hint for this platform. */
export function missingProgramMessage(program: string, platform: string): string {
  return l10n.t('{0} was not found on this computer. {1}', program, installHint(program, platform));
}
