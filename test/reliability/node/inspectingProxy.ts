/**
 * A TLS-inspecting proxy as companies run them: Debian's squid-openssl with ssl_bump on loopback. It
 * answers CONNECT, decrypts the tunnel and re-encrypts it with a certificate it makes on the fly,
 * signed by its own CA (the "company" CA the caller gives; the origin's certificate is not checked,
 * as an inspecting proxy is trusted to do that). Needs root (squid drops to the `proxy` user) and the
 * squid-openssl package; squid does not carry WebSocket upgrades through a bumped tunnel.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../shared/net';
import { sleep, until } from '../../shared/wait';

const SQUID = '/usr/sbin/squid';
const CERTGEN = '/usr/lib/squid/security_file_certgen';

export interface InspectingProxy {
  readonly url: string;
  /** squid's access log (one line per CONNECT and per decrypted request). */
  accessLog(): string;
  close(): Promise<void>;
}

/** Why squid-openssl cannot run here, or undefined. */
export function inspectingProxyProblem(): string | undefined {
  if (!fs.existsSync(SQUID) || !fs.existsSync(CERTGEN))
    return 'squid-openssl is not installed (apt-get install -y squid-openssl)';
  if (process.getuid?.() !== 0) return 'squid needs root here';
  const v = spawnSync(SQUID, ['-v'], { encoding: 'utf8' }).stdout;
  if (!/--with-openssl/.test(v)) return 'squid is built without OpenSSL (install squid-openssl, not squid)';
  return undefined;
}

/** Start squid bumping every CONNECT with certificates signed by `ca` (PEM key and certificate). */
export async function startInspectingProxy(ca: { key: string; cert: string }): Promise<InspectingProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-squid-'));
  const f = (n: string) => path.join(dir, n);
  fs.writeFileSync(f('ca.pem'), ca.cert);
  fs.writeFileSync(f('ca.key'), ca.key, { mode: 0o600 });
  execFileSync(CERTGEN, ['-c', '-s', f('ssl_db'), '-M', '4MB'], { stdio: 'pipe' });
  const port = await freePort();
  fs.writeFileSync(
    f('squid.conf'),
    [
      `http_port 127.0.0.1:${port} ssl-bump tls-cert=${f('ca.pem')} tls-key=${f('ca.key')} generate-host-certificates=on dynamic_cert_mem_cache_size=4MB`,
      `sslcrtd_program ${CERTGEN} -s ${f('ssl_db')} -M 4MB`,
      'sslcrtd_children 2 startup=1 idle=1',
      // Look at the origin's certificate first, so the forged one carries its names (IP:127.0.0.1).
      'acl step1 at_step SslBump1',
      'acl step2 at_step SslBump2',
      'ssl_bump peek step1',
      'ssl_bump stare step2',
      'ssl_bump bump all',
      'tls_outgoing_options flags=DONT_VERIFY_PEER',
      'sslproxy_cert_error allow all',
      'http_access allow localhost',
      'http_access deny all',
      `pid_filename ${f('squid.pid')}`,
      `access_log stdio:${f('access.log')}`,
      `cache_log ${f('cache.log')}`,
      'cache deny all',
      `coredump_dir ${dir}`,
      'pinger_enable off',
      'shutdown_lifetime 0 seconds',
    ].join('\n'),
  );
  execFileSync('chown', ['-R', 'proxy:proxy', dir]);
  fs.chmodSync(dir, 0o755);
  const child: ChildProcess = spawn(SQUID, ['-N', '-f', f('squid.conf')], {
    stdio: 'ignore',
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
      await Promise.race([exited, sleep(3000)]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      'squid to listen',
      () => {
        if (child.exitCode !== null)
          throw new Error(`squid exited (${child.exitCode}): ${tailOf(f('cache.log'))}`);
        return new Promise<boolean>((resolve) => {
          const s = net
            .connect(port, '127.0.0.1', () => {
              s.destroy();
              resolve(true);
            })
            .on('error', () => resolve(false));
        });
      },
      15_000,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    accessLog: () => tailOf(f('access.log'), 100_000),
    close: stop,
  };
}

function tailOf(file: string, n = 600): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-n);
  } catch {
    return '';
  }
}
