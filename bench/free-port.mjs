// A free loopback port, for the scripts that start the sample app.
import net from 'node:net';

/** Resolves with a port nothing listens on at 127.0.0.1 (as of the probe). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
