/**
 * A private certificate authority for the system-certificate checks: a CA and a server certificate
 * for 127.0.0.1 signed by it (made by Debian's openssl in a temp folder), the CA installed into and
 * removed from the operating system's store (Debian's update-ca-certificates, root only), and a TLS
 * front that serves any loopback HTTP server (the local engine, its WebSockets included) over https
 * with that certificate. Used by the Node part (systemCerts.test.ts) and the extension host part
 * (host/enterpriseNetwork.test.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { opensslPath } from './tlsServer';

export interface PrivateCa {
  /** The CA certificate and its key (PEM). */
  readonly caPem: string;
  readonly caKey: string;
  /** The server key and certificate (PEM) for 127.0.0.1, signed by the CA. */
  readonly key: string;
  readonly cert: string;
  remove(): void;
}

export function makePrivateCa(name = 'TensorPool Test CA'): PrivateCa {
  const bin = opensslPath();
  if (!bin) throw new Error('openssl is not installed (apt-get install -y openssl)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ca-'));
  const f = (n: string) => path.join(dir, n);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]) => execFileSync(bin, args, { stdio: 'pipe' });
  try {
    run([
      'req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2',
      '-subj', `/CN=${name} ${process.pid}`,
      '-addext', 'basicConstraints=critical,CA:TRUE',
      '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    ]); // prettier-ignore
    run([
      'req', '-x509', ...ec, '-keyout', f('server.key'), '-out', f('server.pem'), '-days', '1',
      '-CA', f('ca.pem'), '-CAkey', f('ca.key'),
      '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1',
      '-addext', 'basicConstraints=CA:FALSE',
      '-addext', 'extendedKeyUsage=serverAuth',
    ]); // prettier-ignore
    return {
      caPem: fs.readFileSync(f('ca.pem'), 'utf8'),
      caKey: fs.readFileSync(f('ca.key'), 'utf8'),
      key: fs.readFileSync(f('server.key'), 'utf8'),
      cert: fs.readFileSync(f('server.pem'), 'utf8'),
      remove: () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

const LOCAL_CA_DIR = '/usr/local/share/ca-certificates';

/** Why the system store cannot be changed here, or undefined when it can (root on Linux with Debian's tool). */
export function systemStoreProblem(): string | undefined {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  if (process.getuid?.() !== 0) return 'not running as root';
  const tool = spawnSync('sh', ['-c', 'command -v update-ca-certificates'], { encoding: 'utf8' });
  if (!tool.stdout.trim()) return 'update-ca-certificates is missing (apt-get install -y ca-certificates)';
  return undefined;
}

/** The file name a test CA gets in /usr/local/share/ca-certificates (one per process). */
export function storeFile(label: string): string {
  return path.join(LOCAL_CA_DIR, `tensorpool-test-${label}-${process.pid}.crt`);
}

/** Install the CA into the system store (update-ca-certificates rebuilds /etc/ssl/certs/ca-certificates.crt). */
export function installCa(caPem: string, file: string): void {
  fs.mkdirSync(LOCAL_CA_DIR, { recursive: true });
  fs.writeFileSync(file, caPem);
  execFileSync('update-ca-certificates', [], { stdio: 'pipe' });
}

/** Remove it again and rebuild the store from scratch (safe to call when it is not installed). */
export function uninstallCa(file: string): void {
  fs.rmSync(file, { force: true });
  execFileSync('update-ca-certificates', ['--fresh'], { stdio: 'pipe' });
}

/** Whether the system bundle currently holds `caPem`. */
export function bundleHas(caPem: string): boolean {
  const body = (p: string) => p.replace(/-----[A-Z ]+-----|\s/g, '');
  const bundle = fs.readFileSync('/etc/ssl/certs/ca-certificates.crt', 'utf8').replace(/\s/g, '');
  return bundle.includes(body(caPem));
}

export interface TlsFront {
  readonly url: string;
  readonly port: number;
  /** TLS handshakes that completed. */
  handshakes(): number;
  close(): Promise<void>;
}

/** https://127.0.0.1:<port> in front of the plain-http server on `targetPort` (bytes piped both ways). */
export async function startTlsFront(
  targetPort: number,
  ca: Pick<PrivateCa, 'key' | 'cert'>,
): Promise<TlsFront> {
  let handshakes = 0;
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key: ca.key, cert: ca.cert }, (client) => {
    handshakes++;
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined).on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    handshakes: () => handshakes,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
