import { startStorageServer } from '../../server/products/qryn/storage-server';

// A stand-in platform process for the storage server test: starts the server, reports its pid, and waits to be killed.
const server = await startStorageServer({ dir: process.argv[2] });
process.send!({ pid: server.pid });
setInterval(() => undefined, 60_000);
