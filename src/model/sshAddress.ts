/**
 * What may stand for a node's address and a login name wherever they reach ssh: a command line, an ssh
 * config entry, a Remote-SSH authority. The address comes from the service (an instance's ip), so it is
 * checked like any text from outside: an IPv4 or IPv6 address or a DNS name, never anything that ssh
 * could read as an option (a leading `-`), a second word, a path or a URI part.
 */
import { isIPv4, isIPv6 } from 'node:net';

const DNS_LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/** An IPv4 or IPv6 address (no zone, no brackets) or a DNS name of letters, digits, `-` and `_`. */
export function isSshHost(host: string): boolean {
  if (typeof host !== 'string' || host.length === 0 || host.length > 253) return false;
  if (isIPv4(host)) return true;
  if (host.includes(':')) return !host.includes('%') && isIPv6(host);
  // Digits and dots only, yet not an IPv4 address (1.2.3.999): refused rather than resolved as a name.
  if (/^[0-9.]+$/.test(host)) return false;
  return host.split('.').every((label) => DNS_LABEL.test(label) && !label.startsWith('-'));
}

/** A login name: letters, digits, `_ . -`, not starting with `-` or `.`, at most 64 characters. */
export function isSshUser(user: string): boolean {
  return typeof user === 'string' && USER.test(user);
}

/** A TCP port: a whole number from 1 to 65535. */
export function isSshPort(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}

/** A HostKeyAlias value the extension writes (`<alias>.<cluster id>`): one word ssh reads as a name. */
export function isHostKeyAlias(v: string): boolean {
  return typeof v === 'string' && /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/.test(v);
}
