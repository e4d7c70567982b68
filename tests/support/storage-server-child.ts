import { startStorageServer } from '../../server/products/qryn/storage/storage-server';

// A stand-in platform process for the storage server tests: starts the server, reports its pid and endpoint, and
// waits to be killed; answers "ping" messages so a test can tell it still runs.
const server = await startStorageServer({ dir: process.argv[2], restart: { initialDelayMs: 200 } });
process.send!({ pid: server.pid, url: server.url, user: server.user, password: server.password });
process.on('message', (m) => {
  if (m === 'ping') process.send!({ pong: true, pid: server.pid });
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
setInterval(() => undefined, 60_000);
