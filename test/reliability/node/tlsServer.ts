/**
 * An HTTPS stand-in for the TensorPool API on loopback with a self-signed certificate made on the
 * fly by openssl (Debian's `openssl` package; node:crypto cannot issue certificates), for the
 * proxyStrictSSL and TLS-error checks. It answers GET /me and counts the requests that reached it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TlsServer {
  readonly url: string;
  readonly port: number;
  /** Requests that got through the TLS handshake. */
  hits(): number;
  close(): Promise<void>;
}

export function opensslPath(): string | undefined {
  return spawnSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' }).stdout.trim() || undefined;
}

export async function startTlsServer(): Promise<TlsServer> {
  const bin = opensslPath();
  if (!bin) throw new Error('openssl is not installed (apt-get install -y openssl)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-tls-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  try {
    execFileSync(
      bin,
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'pipe' },
    );
    let hits = 0;
    const server = https.createServer(
      { key: fs.readFileSync(key), cert: fs.readFileSync(cert) },
      (req, res) => {
        hits++;
        const body = req.url?.startsWith('/me')
          ? { email: 'tls@reliability.test', uid: 'usr_tls' }
          : { detail: 'Not Found' };
        res.writeHead(req.url?.startsWith('/me') ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `https://127.0.0.1:${port}`,
      port,
      hits: () => hits,
      close: () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
