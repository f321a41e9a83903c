/**
 * One ssh connection shared by the rsyncs of a folder sync (OpenSSH connection sharing): the sync's own
 * master (`-M -N`, ControlPersist=no: it ends when we end it) on a socket in a private folder, and each
 * rsync's ssh told to use that socket and never to become a master itself. Our `-S` and `-o` come first
 * on the command line, so a user's ssh config (its ControlMaster, ControlPath, ControlPersist) never takes
 * part. When the socket is not there (the master not up yet, or gone), ssh connects on its own, as before.
 * Pure: argv only, no I/O.
 */
import { SSH_OWN_CONNECTION } from './childEnv';

/** `ssh` words without our "a connection of its own" options (its ControlMaster=no, ControlPath=none). */
function withoutOwnConnection(ssh: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < ssh.length; i++) {
    if (ssh[i] === '-o' && isOwn(ssh[i + 1])) {
      i++;
      continue;
    }
    out.push(ssh[i]);
  }
  return out;
}

/** One of SSH_OWN_CONNECTION's values. */
const isOwn = (o: string | undefined) => o !== undefined && SSH_OWN_CONNECTION.includes(o);

/** The master: the node's login (`ssh` words without destination) holding the connection, running nothing. */
export function masterArgv(ssh: readonly string[], socket: string, user: string, host: string): string[] {
  return [
    ssh[0],
    '-M',
    '-N',
    '-S',
    socket,
    '-o',
    'ControlPersist=no',
    ...withoutOwnConnection(ssh),
    `${user}@${host}`,
  ];
}

/** An rsync's ssh through the master's socket (a connection of its own when the socket is not there). */
export function sharedSsh(ssh: readonly string[], socket: string): string[] {
  return [ssh[0], '-S', socket, '-o', 'ControlMaster=no', ...withoutOwnConnection(ssh)];
}
