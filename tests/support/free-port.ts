import { createServer } from 'node:net';

/**
 * A port that was free a moment ago, for what must be started on a known port (a child process, a restart on the
 * same address). Another socket may take it before it is used: prefer port 0 wherever the caller can read the port
 * back.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
