// Ports for tests: the one freePort every suite uses.
import * as net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (nothing listens on it when this resolves, so it
 * also serves as a port that refuses connections).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
