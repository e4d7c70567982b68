// Runs inside a managed cluster's network namespace (started by server/products/clickhouse/cluster-network.ts as
// `ip netns exec <ns> node netns-bridge.mjs <dir> <port>…`). For each port it listens on the unix socket
// <dir>/<port>.sock and pipes every connection to 127.0.0.1:<port> inside the namespace, where the cluster's
// ClickHouse servers listen. Unix sockets are files, so they cross network namespaces: the platform's forwarder on the
// host's 127.0.0.1:<port> connects to them, and nothing inside the namespace can connect out.
// Plain JavaScript on purpose: it is started with the node binary alone, without the TypeScript loader.
import { chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const [dir, ...ports] = process.argv.slice(2);
let listening = 0;
for (const port of ports.map(Number)) {
  const socketPath = path.join(dir, `${port}.sock`);
  try {
    unlinkSync(socketPath);
  } catch {
    // no socket left by an earlier bridge
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  server.listen(socketPath, () => {
    // Only the platform's user may connect (the socket is the cluster's only way in).
    chmodSync(socketPath, 0o600);
    if (++listening === ports.length) process.stdout.write('ready\n');
  });
}
