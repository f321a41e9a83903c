/**
 * The `-o` options the service's ssh command may carry (sshCommandPolicy.ts): those that cannot run a
 * command, load a library, read another configuration, forward anything, send the environment, write a
 * file of their choosing, connect elsewhere, turn on password prompts or choose which stored host key the
 * node is checked against, each with the values it may take. Keys are case-insensitive, as OpenSSH reads
 * them; `Key=value`, `Key value` and `Key = value` are one option. Host key checking itself is never the
 * service's to weaken: the extension's own options (`enforcedSshOptions`) go first, and ssh keeps the
 * first value it reads.
 */
import * as l10n from '@vscode/l10n';
import { isHostKeyAlias, isSshPort, isSshUser } from './sshAddress';

type Check = (value: string) => boolean;

/** A piece of the service's text inside a reason: in double quotes, escaped, at most 80 characters. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

const oneOf =
  (...values: string[]): Check =>
  (v) =>
    values.includes(v.toLowerCase());
const yesNo = oneOf('yes', 'no');
const count: Check = (v) => /^[0-9]{1,6}$/.test(v);
/** A known_hosts file: nowhere (/dev/null, NUL, none), or the extension's own (~/.ssh/tensorpool/known_hosts);
 *  never the user's own known_hosts or a path that climbs out (`..`). */
const knownHostsFiles: Check = (v) =>
  v
    .split(/\s+/)
    .every(
      (f) => /^(\/dev\/null|nul|none)$/i.test(f) || /^~[/\\]\.ssh[/\\]tensorpool[/\\]known_hosts$/.test(f),
    );
const keyFile: Check = (v) => v.length > 0 && !v.startsWith('-');

const ALLOWED: Record<string, Check> = {
  stricthostkeychecking: oneOf('yes', 'no', 'ask', 'accept-new', 'off'),
  userknownhostsfile: knownHostsFiles,
  globalknownhostsfile: knownHostsFiles,
  serveraliveinterval: count,
  serveralivecountmax: count,
  connecttimeout: count,
  connectionattempts: count,
  identitiesonly: yesNo,
  batchmode: yesNo,
  checkhostip: yesNo,
  compression: yesNo,
  hashknownhosts: yesNo,
  tcpkeepalive: yesNo,
  // Only off: a host TensorPool did not check must not get to ask for a password.
  passwordauthentication: oneOf('no'),
  pubkeyauthentication: oneOf('yes', 'no', 'unbound', 'host-bound'),
  kbdinteractiveauthentication: oneOf('no'),
  challengeresponseauthentication: oneOf('no'),
  visualhostkey: yesNo,
  updatehostkeys: oneOf('yes', 'no', 'ask'),
  requesttty: oneOf('yes', 'no', 'force', 'auto'),
  addressfamily: oneOf('any', 'inet', 'inet6'),
  loglevel: oneOf('quiet', 'fatal', 'error', 'info', 'verbose', 'debug', 'debug1', 'debug2', 'debug3'),
  preferredauthentications: (v) =>
    /^[a-z-]+(,[a-z-]+)*$/.test(v) && !/(^|,)(password|keyboard-interactive)(,|$)/.test(v),
  port: (v) => /^[0-9]{1,5}$/.test(v) && isSshPort(Number(v)),
  user: isSshUser,
  identityfile: keyFile,
};

/**
 * The options the extension puts first in any service ssh command it runs (ssh keeps the first value of
 * an option): its own known_hosts with accept-new (a changed key refused), the key stored under the
 * cluster's name for the node when it has one, and no password or keyboard-interactive prompts.
 */
export function enforcedSshOptions(knownHosts: string, hostKeyAlias?: string): string[] {
  if (hostKeyAlias !== undefined && !isHostKeyAlias(hostKeyAlias))
    throw new Error(l10n.t('{0} is not a host key alias ssh can be given', quote(hostKeyAlias)));
  return [
    `UserKnownHostsFile=${knownHosts}`,
    'StrictHostKeyChecking=accept-new',
    ...(hostKeyAlias ? [`HostKeyAlias=${hostKeyAlias}`] : []),
    'PasswordAuthentication=no',
    'KbdInteractiveAuthentication=no',
  ].flatMap((o) => ['-o', o]);
}

/** Refused options with what makes them dangerous (lower-case keys). */
function dangerOf(key: string): string | undefined {
  switch (key) {
    case 'proxycommand':
      return l10n.t('it sets ProxyCommand, which runs a local command');
    case 'localcommand':
    case 'permitlocalcommand':
      return l10n.t(
        'it sets {0}, which lets ssh run a local command',
        key === 'localcommand' ? 'LocalCommand' : 'PermitLocalCommand',
      );
    case 'knownhostscommand':
      return l10n.t('it sets KnownHostsCommand, which runs a local command');
    case 'match':
      return l10n.t('it sets Match, whose exec runs a local command');
    case 'include':
      return l10n.t('it sets Include, which reads another configuration file');
    case 'proxyjump':
      return l10n.t('it sets ProxyJump, which connects through another host');
    case 'hostname':
      return l10n.t('it sets HostName, which connects to another host');
    case 'controlpath':
    case 'controlmaster':
    case 'controlpersist':
      return l10n.t('it sets {0}, which shares connections through a control socket', key);
    case 'localforward':
    case 'remoteforward':
    case 'dynamicforward':
      return l10n.t('it sets {0}, which forwards ports', key);
    case 'forwardagent':
      return l10n.t('it sets ForwardAgent, which forwards your SSH agent to the node');
    case 'forwardx11':
    case 'forwardx11trusted':
      return l10n.t('it sets {0}, which forwards your X11 display', key);
    case 'pkcs11provider':
    case 'securitykeyprovider':
      return l10n.t('it sets {0}, which loads a library', key);
    case 'hostkeyalias':
      return l10n.t('it sets HostKeyAlias, which chooses the stored host key the node is checked against');
    case 'sendenv':
    case 'setenv':
      return l10n.t('it sets {0}, which sends environment variables to the node', key);
    default:
      return undefined;
  }
}

/** Undefined when `-o <option>` is allowed; else why not, as one clause. */
export function sshOptionProblem(option: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9]*)(?:\s*=\s*|\s+)(\S(?:.*\S)?)$/.exec(option.trim());
  if (!m) return l10n.t('its option -o {0} is not Key=value', quote(option));
  const key = m[1].toLowerCase();
  const danger = dangerOf(key);
  if (danger) return danger;
  const check = ALLOWED[key];
  if (!check) return l10n.t('it sets {0}, an ssh option TensorPool does not allow', quote(m[1]));
  return check(m[2])
    ? undefined
    : l10n.t('its option {0} has the value {1}, which TensorPool does not allow', m[1], quote(m[2]));
}
