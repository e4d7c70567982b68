import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ServerSupervisor } from '../../processes/server-supervisor';

// Each managed cluster's servers in a network namespace of their own (Linux, root): inside it there is only a
// loopback interface, so url(), remote(), mysql() … of a customer's query reach the cluster's own servers and nothing
// else: not the platform (/dev pages, API), not the qryn storage, not another tenant's cluster, not the internet.
// The platform reaches the servers' HTTP and native ports through a forwarder: a bridge process inside the namespace
// (server/net/netns-bridge.mjs, supervised like the servers) listens on unix sockets in the cluster's folder and
// connects to 127.0.0.1:<port> there; in the platform, a TCP listener on the host's 127.0.0.1:<port> pipes each
// connection to that socket. No IP address is given to anything: no veth, no routes.

const run = promisify(execFile);
const IP = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((candidate) => existsSync(candidate)) ?? 'ip';
const BRIDGE = fileURLToPath(new URL('../../net/netns-bridge.mjs', import.meta.url));

export type IsolationMode = 'netns' | 'off';

// The host's forwarders, one per port in this process, shared by every provisioner of the process that asks for the
// same socket (a provisioner made again after a restart in tests, before the first one is closed).
const FORWARDERS = new Map<number, { server: net.Server; socketPath: string; users: number; sockets: Set<net.Socket> }>();

async function openForwarder(port: number, socketPath: string): Promise<void> {
  const known = FORWARDERS.get(port);
  if (known && known.socketPath === socketPath) {
    known.users += 1;
    return;
  }
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    const upstream = net.connect(socketPath);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(Object.assign(error, { port })));
    server.listen(port, '127.0.0.1', () => resolve());
  });
  FORWARDERS.set(port, { server, socketPath, users: 1, sockets });
}

async function closeForwarder(port: number): Promise<void> {
  const known = FORWARDERS.get(port);
  if (!known || --known.users > 0) return;
  FORWARDERS.delete(port);
  // close() waits for open connections (an HTTP client's idle keep-alive sockets): they go with the cluster.
  const closed = new Promise((resolve) => known.server.close(resolve));
  for (const socket of known.sockets) socket.destroy();
  await closed;
}

/** CLICKHOUSE_NETWORK_ISOLATION: netns (refuse to start without it), off, or auto (default: netns when root and ip exist). */
export function isolationModeFrom(value: string | undefined): IsolationMode {
  const asked = (value ?? 'auto').trim().toLowerCase() || 'auto';
  const available = process.platform === 'linux' && process.getuid?.() === 0 && existsSync(IP);
  if (asked === 'off') return 'off';
  if (asked === 'netns') {
    if (!available) throw new Error('CLICKHOUSE_NETWORK_ISOLATION=netns needs Linux, root and iproute2 (ip): run scripts/install-clickhouse.sh as root, or set it to off.');
    return 'netns';
  }
  if (asked !== 'auto') throw new Error(`CLICKHOUSE_NETWORK_ISOLATION must be auto, netns or off (got "${value}").`);
  return available ? 'netns' : 'off';
}

export interface ClusterNetwork {
  readonly mode: IsolationMode;
  /** Put in front of a server's command, so it starts inside the cluster's namespace. */
  wrap(clusterId: number): readonly string[] | undefined;
  /** Creates the namespace, starts the bridge and the host's forwarders for these ports (idempotent). */
  prepare(clusterId: number, ports: readonly number[]): Promise<void>;
  /** Stops the forwarders and the bridge and deletes the namespace. */
  release(clusterId: number): Promise<void>;
  /** Deletes namespaces this platform left for clusters that are gone. */
  removeOrphans(known: ReadonlySet<number>): Promise<void>;
  close(): Promise<void>;
}

export function createClusterNetwork(options: { mode: IsolationMode; root: string; supervisor: ServerSupervisor; log: (message: string) => void }): ClusterNetwork {
  const { root, supervisor, log } = options;
  // Names are per data folder, so two platforms on one machine (tests, several installations) never share one.
  const prefix = `ch${createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 8)}-`;
  const nameOf = (clusterId: number) => `${prefix}${clusterId}`;
  const bridgeDir = (clusterId: number) => path.join(root, String(clusterId), 'net');
  /** The ports this network opened forwarders for, per cluster. */
  const forwarders = new Map<number, readonly number[]>();

  async function ensureNamespace(name: string): Promise<void> {
    const existing = (await run(IP, ['netns', 'list'])).stdout.split('\n').map((line) => line.split(' ')[0]);
    if (!existing.includes(name)) await run(IP, ['netns', 'add', name]);
    await run(IP, ['-n', name, 'link', 'set', 'lo', 'up']);
  }

  function connectable(socketPath: string): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = net.connect(socketPath);
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  }

  const network: ClusterNetwork = {
    mode: options.mode,
    wrap: (clusterId) => (options.mode === 'netns' ? [IP, 'netns', 'exec', nameOf(clusterId)] : undefined),

    async prepare(clusterId, ports) {
      if (options.mode !== 'netns') return;
      const name = nameOf(clusterId);
      const dir = bridgeDir(clusterId);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await ensureNamespace(name);
      const first = path.join(dir, `${ports[0]}.sock`);
      await supervisor.start({
        name: `cluster ${clusterId} network bridge`,
        dir,
        command: process.execPath,
        args: [BRIDGE, dir, ...ports.map(String)],
        identity: dir,
        wrap: [IP, 'netns', 'exec', name],
        probe: () => connectable(first),
        liveness: { intervalMs: 5_000, failures: 3 },
      });
      const deadline = Date.now() + 10_000;
      while (!(await connectable(first))) {
        if (Date.now() > deadline) throw new Error(`The network bridge of cluster ${clusterId} did not start.`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      supervisor.answered(dir);
      if (!forwarders.has(clusterId)) {
        const opened: number[] = [];
        try {
          for (const port of ports) {
            await openForwarder(port, path.join(dir, `${port}.sock`));
            opened.push(port);
          }
        } catch (error) {
          await Promise.all(opened.map(closeForwarder));
          throw error;
        }
        forwarders.set(clusterId, opened);
      }
    },

    async release(clusterId) {
      const ports = forwarders.get(clusterId) ?? [];
      forwarders.delete(clusterId);
      await Promise.all(ports.map(closeForwarder));
      if (options.mode !== 'netns') return;
      await supervisor.stop(bridgeDir(clusterId), 'kill');
      await run(IP, ['netns', 'delete', nameOf(clusterId)]).catch(() => undefined);
    },

    async removeOrphans(known) {
      if (options.mode !== 'netns') return;
      const names = (await run(IP, ['netns', 'list'])).stdout.split('\n').map((line) => line.split(' ')[0]);
      for (const name of names) {
        if (!name.startsWith(prefix)) continue;
        const id = Number(name.slice(prefix.length));
        if (Number.isInteger(id) && !known.has(id)) {
          log(`[clickhouse] removing the network namespace of cluster ${id}, which no longer exists`);
          await run(IP, ['netns', 'delete', name]).catch(() => undefined);
        }
      }
    },

    async close() {
      // Called after the supervisor stopped every server and bridge: the namespaces are empty, and a platform start
      // makes them again for the clusters it restores. None is left behind when the data folder goes (tests).
      for (const [id, ports] of [...forwarders]) {
        forwarders.delete(id);
        await Promise.all(ports.map(closeForwarder));
        if (options.mode === 'netns') await run(IP, ['netns', 'delete', nameOf(id)]).catch(() => undefined);
      }
    },
  };
  return network;
}
