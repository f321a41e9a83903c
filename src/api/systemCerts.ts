/**
 * The operating system's certificate store, trusted beside Node's bundled roots the way VS Code's own
 * requests do (http.systemCertificates, on by default), so a company's TLS-inspecting proxy or private
 * CA works with strict SSL on.
 *
 * Where the certificates come from:
 *  - Node >= 22.15 / 23.8: tls.getCACertificates('system') (Linux, macOS keychain, Windows store).
 *  - Older Node on Linux: the system bundle file, the first of the paths @vscode/proxy-agent reads
 *    (Debian/Ubuntu /etc/ssl/certs/ca-certificates.crt, Fedora/RHEL, openSUSE, Alpine).
 *  - Older Node on macOS: the keychains, as VS Code reads them (`security find-certificate -a -p`).
 *  - Older Node on Windows: none (the store needs a native module, which VS Code ships for itself
 *    only); there NODE_EXTRA_CA_CERTS, or http.proxyStrictSSL off, remain the ways out.
 * Read lazily (the first request that needs them), asynchronously, once per session; the result is one
 * TLS secure context: Node's default roots plus only the certificates Node does not already have (as
 * VS Code's proxy agent does it), which costs a few ms instead of ~40 ms for a whole `ca` list, and is
 * made once instead of on every connection.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as tls from 'node:tls';

/** Where Linux distributions keep the system bundle (the first that exists is read). */
const LINUX_CA_BUNDLES: readonly string[] = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Gentoo, Arch, Alpine
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL, CentOS
  '/etc/ssl/certs/ca-bundle.crt', // older Fedora, openSUSE symlink
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', // RHEL 7+
];

/** What a TLS client needs: the extra roots (undefined: Node's defaults suffice) and strictness. */
export interface TlsChoice {
  readonly strictSSL?: boolean;
  /** VS Code's http.systemCertificates (default true). */
  readonly systemCertificates?: boolean;
}

type CaApi = { getCACertificates?: (type: 'default' | 'system') => string[] };

let extraCache: Promise<readonly string[]> | undefined;
let contextCache: Promise<tls.SecureContext | undefined> | undefined;

/** Forget what was read (tests change the system store between checks). */
export function resetSystemCertificates(): void {
  extraCache = undefined;
  contextCache = undefined;
}

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/** The PEM blocks in a bundle's text (comments and anything after a block's end left out). */
export function pemBlocks(text: string): string[] {
  return text
    .split(/(?=-----BEGIN CERTIFICATE-----)/g)
    .filter((p) => p.startsWith(BEGIN) && p.includes(END))
    .map((p) => p.slice(0, p.indexOf(END) + END.length));
}

/** A certificate's base64 body, to compare PEMs whatever their line breaks. */
function body(pem: string): string {
  return pem
    .replace(/-----(?:BEGIN|END) CERTIFICATE-----/g, '')
    .split(/\s+/)
    .join('');
}

/** The system store's certificates, as PEM; [] when there are none or none can be read. */
export async function readSystemCertificates(
  platform: NodeJS.Platform = process.platform,
  api: CaApi = tls as CaApi,
  bundles: readonly string[] = LINUX_CA_BUNDLES,
): Promise<string[]> {
  if (typeof api.getCACertificates === 'function') {
    // Synchronous in Node (cached after the first call): give the event loop a turn first.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      return api.getCACertificates('system');
    } catch {
      return [];
    }
  }
  if (platform === 'darwin') return macCertificates();
  if (platform !== 'linux') return [];
  for (const file of bundles) {
    try {
      return pemBlocks(await fsp.readFile(file, 'utf8'));
    } catch {
      // missing or unreadable: try the next path
    }
  }
  return [];
}

/** Every certificate in the macOS keychains ([] when `security` fails or takes over 10 s). */
function macCertificates(): Promise<string[]> {
  return new Promise((resolve) =>
    execFile(
      '/usr/bin/security',
      ['find-certificate', '-a', '-p'],
      { encoding: 'utf8', timeout: 10_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => resolve(err ? [] : pemBlocks(stdout)),
    ),
  );
}

/** The system certificates Node does not trust already (read once per session; not expired). */
function extraSystemCertificates(): Promise<readonly string[]> {
  extraCache ??= (async () => {
    const system = await readSystemCertificates();
    const api = tls as CaApi;
    const known = new Set(
      (typeof api.getCACertificates === 'function'
        ? api.getCACertificates('default')
        : tls.rootCertificates
      ).map(body),
    );
    const now = Date.now();
    const seen = new Set<string>();
    return system.filter((pem) => {
      const b = body(pem);
      if (known.has(b) || seen.has(b)) return false;
      seen.add(b);
      return notExpired(pem, now);
    });
  })();
  return extraCache;
}

function notExpired(pem: string, now: number): boolean {
  try {
    const until = Date.parse(new X509Certificate(pem).validTo);
    return Number.isNaN(until) || until > now;
  } catch {
    return false; // not a certificate OpenSSL can read
  }
}

/**
 * One secure context trusting Node's roots plus the system store's extra certificates, or undefined
 * when the store adds nothing (Node's default context is then the same thing).
 */
export function systemSecureContext(): Promise<tls.SecureContext | undefined> {
  contextCache ??= extraSystemCertificates()
    .then((extra) => {
      if (extra.length === 0) return undefined;
      const context = tls.createSecureContext();
      const native = (context as { context?: { addCACert?: (pem: string) => void } }).context;
      if (typeof native?.addCACert === 'function') {
        for (const pem of extra) native.addCACert(pem);
        return context;
      }
      // A Node without the native method: the documented way (slower: the whole list is parsed).
      return tls.createSecureContext({ ca: [...defaultRoots(), ...extra] });
    })
    .catch(() => undefined); // a store OpenSSL cannot read must not stop every request
  return contextCache;
}

function defaultRoots(): readonly string[] {
  const api = tls as CaApi;
  return typeof api.getCACertificates === 'function'
    ? api.getCACertificates('default')
    : tls.rootCertificates;
}

/**
 * TLS options for a Node https.Agent (the S3 client): `ca` is the whole list to trust (Node's roots, the
 * system store's extras) when the system store adds something, else undefined (Node's defaults);
 * rejectUnauthorized follows http.proxyStrictSSL. Reads the store once per session.
 */
export async function tlsOptions(
  choice: TlsChoice | undefined,
): Promise<{ ca?: string[]; rejectUnauthorized: boolean }> {
  const rejectUnauthorized = choice?.strictSSL !== false;
  if (!rejectUnauthorized || choice?.systemCertificates === false) return { rejectUnauthorized };
  const extra = await extraSystemCertificates();
  return extra.length ? { ca: [...defaultRoots(), ...extra], rejectUnauthorized } : { rejectUnauthorized };
}
