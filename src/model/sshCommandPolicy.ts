/**
 * Whether the ssh command the service answers (GET /ssh/{instance_id}) may run on the user's machine
 * without asking. Running it is code execution here, so only what the extension fully understands
 * passes: the `ssh` program (a bare name or one in a system folder), options from a short allow-list
 * (`-p`, `-l`, `-i`, `-o` with options that cannot run or load anything, a few harmless flags) and one
 * destination, which must be the node's address when it is known. Nothing a shell would interpret,
 * no line break, nothing after the destination, at most MAX_SSH_COMMAND_CHARS characters. Anything else
 * is refused with the reason, in words the user reads. Pure: no I/O, no vscode.
 */
import * as l10n from '@vscode/l10n';
import { isSshHost, isSshPort, isSshUser } from './sshAddress';
import { splitCommand } from './sshCommand';
import { charName, hiddenCharacter } from './shownText';
import { quote, sshOptionProblem } from './sshOptions';

export const MAX_SSH_COMMAND_CHARS = 2000;

export type SshRefusalCode =
  | 'empty'
  | 'too-long'
  | 'line-break'
  | 'hidden-character'
  | 'character'
  | 'quote'
  | 'program'
  | 'option'
  | 'ssh-option'
  | 'value'
  | 'destination'
  | 'elsewhere'
  | 'no-destination'
  | 'extra';

export interface SshRefusal {
  readonly code: SshRefusalCode;
  /** One clause that says why, e.g. `it sets ProxyCommand, which runs a local command`. */
  readonly reason: string;
  /** Whether the whole text can be shown faithfully (false: too long, or characters that hide text). */
  readonly showable: boolean;
}

export interface SshAccepted {
  readonly ok: true;
  /** The argv to run without a shell; argv[0] is ssh. */
  readonly argv: readonly string[];
  readonly host: string;
}

export type SshPolicyResult = SshAccepted | { readonly ok: false; readonly refusal: SshRefusal };

export interface SshPolicyOptions {
  /** The node's address as the cluster listing gave it: the destination must be this host. */
  readonly expectedHost?: string;
  /** Options placed right after the program in the argv that runs (sshOptions.ts enforcedSshOptions):
   *  ssh keeps the first value, so the service's host key checking cannot weaken them. Without them a
   *  command that turns host key checking off is refused. */
  readonly enforced?: readonly string[];
}

/** Folders an ssh given with a path may be in (compared with forward slashes, case-insensitively). */
const SYSTEM_DIRS = new Set([
  '/usr/bin',
  '/bin',
  '/usr/local/bin',
  '/opt/homebrew/bin',
  'c:/windows/system32/openssh',
  'c:/program files/openssh',
]);

/** Flags without a value that change nothing but output, compression, IP version or what is NOT forwarded. */
const FLAGS = new Set(['4', '6', 'a', 'C', 'k', 'q', 't', 'T', 'v', 'x']);
const WITH_VALUE = new Set(['p', 'l', 'i', 'o']);

const LINE_BREAK = /\r?\n/;
/** Everything an ssh command line needs; anything else (shell syntax, globbing, %, non-ASCII) is refused. */
const ALLOWED_CHAR = /[A-Za-z0-9 \t_.,:/\\@=+~'"-]/;

const refuse = (code: SshRefusalCode, reason: string, showable = true): SshPolicyResult => ({
  ok: false,
  refusal: { code, reason, showable },
});

/** Split into words on spaces and tabs; quotes group and are removed. Undefined when a quote is left open. */
function words(text: string): string[] | { unbalanced: true } | { quoteInside: true } {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let has = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '"' || ch === "'") return { quoteInside: true };
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === ' ' || ch === '\t') {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (quote) return { unbalanced: true };
  if (has) out.push(cur);
  return out;
}

/** Is argv[0] the ssh program: `ssh`/`ssh.exe`, bare or in a system folder? Undefined when yes, else why not. */
function programProblem(program: string): string | undefined {
  const slash = Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\'));
  const base = program.slice(slash + 1);
  if (base !== 'ssh' && base.toLowerCase() !== 'ssh.exe')
    return l10n.t('it runs {0}, not ssh', quote(program));
  if (slash < 0) return undefined;
  const dir = program.slice(0, slash).replace(/\\/g, '/').toLowerCase();
  return SYSTEM_DIRS.has(dir)
    ? undefined
    : l10n.t('it runs an ssh from {0}, which is not a system folder', quote(program.slice(0, slash)));
}

function flagProblem(flag: string): string {
  switch (flag) {
    case 'F':
      return l10n.t('it uses -F, which reads another ssh configuration file');
    case 'E':
      return l10n.t('it uses -E, which writes a log to a file of its choosing');
    case 'S':
    case 'M':
    case 'O':
      return l10n.t('it uses -{0}, which shares connections through a control socket', flag);
    case 'J':
      return l10n.t('it uses -J, which connects through another host');
    case 'W':
      return l10n.t('it uses -W, which forwards the connection elsewhere');
    case 'L':
    case 'R':
    case 'D':
      return l10n.t('it uses -{0}, which forwards ports', flag);
    case 'A':
      return l10n.t('it uses -A, which forwards your SSH agent to the node');
    case 'X':
    case 'Y':
      return l10n.t('it uses -{0}, which forwards your X11 display', flag);
    case 'I':
      return l10n.t('it uses -I, which loads a library');
    default:
      return l10n.t('it uses -{0}, an option TensorPool does not allow', flag);
  }
}

function valueProblem(flag: string, value: string): string | undefined {
  switch (flag) {
    case 'p':
      return /^[0-9]{1,5}$/.test(value) && isSshPort(Number(value))
        ? undefined
        : l10n.t('its port {0} is not a number from 1 to 65535', quote(value));
    case 'l':
      return isSshUser(value) ? undefined : l10n.t('its user name {0} is not valid', quote(value));
    case 'i':
      return value && !value.startsWith('-')
        ? undefined
        : l10n.t('its key file {0} is not a file name', quote(value));
    default:
      return sshOptionProblem(value);
  }
}

/** Check the service's command text; see the module comment for what passes. */
export function checkSshCommand(text: string, opts: SshPolicyOptions = {}): SshPolicyResult {
  if (typeof text !== 'string' || text.trim() === '') return refuse('empty', l10n.t('it is empty'));
  if (text.length > MAX_SSH_COMMAND_CHARS)
    return refuse(
      'too-long',
      l10n.t('it is {0} characters long (at most {1})', text.length, MAX_SSH_COMMAND_CHARS),
      false,
    );
  const hidden = hiddenCharacter(text);
  if (hidden)
    return refuse('hidden-character', l10n.t('it contains the invisible character {0}', hidden), false);
  if (LINE_BREAK.test(text.trim()))
    return refuse('line-break', l10n.t('it has a line break (a second command could follow it)'));
  // The program, options and destination are judged first (the most telling reason), on the words as
  // splitCommand reads them; then the characters and quoting, so the argv run is exactly those words.
  const [program, ...args] = splitCommand(text.trim());
  const notSsh = programProblem(program);
  if (notSsh) return refuse('program', notSsh);
  const walked = checkArgs(args, opts);
  if (typeof walked !== 'string') return walked;
  for (const ch of text.trim()) {
    if (!ALLOWED_CHAR.test(ch))
      return refuse('character', l10n.t('it contains {0}, which a shell would interpret', charName(ch)));
  }
  const split = words(text.trim());
  if (!Array.isArray(split))
    return refuse(
      'quote',
      'unbalanced' in split ? l10n.t('a quote is left open') : l10n.t('it has a quote inside a quoted word'),
    );
  if (!opts.enforced && split.some((w) => /^(-o)?\s*stricthostkeychecking\s*(=|\s)\s*(no|off)\s*$/i.test(w)))
    return refuse('ssh-option', l10n.t('it turns host key checking off'));
  return { ok: true, argv: [split[0], ...(opts.enforced ?? []), ...split.slice(1)], host: walked };
}

/** The options and the one destination after the program: the destination's host, or the refusal. */
function checkArgs(args: readonly string[], opts: SshPolicyOptions): string | SshPolicyResult {
  let destination: string | undefined;
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (destination !== undefined)
      return refuse('extra', l10n.t('it has {0} after the destination', quote(args.slice(i).join(' '))));
    if (!endOfOptions && arg === '--') {
      endOfOptions = true;
      continue;
    }
    if (endOfOptions || !arg.startsWith('-') || arg === '-') {
      destination = arg;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j];
      if (FLAGS.has(flag)) continue;
      if (!WITH_VALUE.has(flag)) return refuse('option', flagProblem(flag));
      const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
      if (value === undefined) return refuse('value', l10n.t('its option -{0} has no value', flag));
      const problem = valueProblem(flag, value);
      if (problem) return refuse(flag === 'o' ? 'ssh-option' : 'value', problem);
      break;
    }
  }
  if (destination === undefined) return refuse('no-destination', l10n.t('it names no host to connect to'));
  const at = destination.lastIndexOf('@');
  const user = at >= 0 ? destination.slice(0, at) : undefined;
  const host = destination.slice(at + 1);
  if ((user !== undefined && !isSshUser(user)) || !isSshHost(host))
    return refuse('destination', l10n.t('its destination {0} is not user@host', quote(destination)));
  if (opts.expectedHost && host.toLowerCase() !== opts.expectedHost.toLowerCase())
    return refuse(
      'elsewhere',
      l10n.t("it connects to {0}, not to the node's address {1}", host, quote(opts.expectedHost)),
    );
  return host;
}
