import { afterAll, beforeAll } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServerSupervisor } from '../../server/processes/server-supervisor';
import { CLICKHOUSE_BINARY } from '../../server/products/qryn/storage/storage-server';

// A ClickHouse cluster of local clickhouse-server 18.16 processes for tests: one shard per server, no replication
// (Distributed tables work without ZooKeeper). Each server listens on a loopback address of its own (127.0.0.2,
// 127.0.0.3, …) on the same two ports, as the nodes of a real cluster share theirs: the platform then finds the nodes'
// HTTP addresses from system.clusters (host name + the entry URL's port). None of those addresses is the loopback
// interface's own (127.0.0.1), so no server takes another's shard for itself. The servers run under the platform's
// server supervisor (own process group, a watchdog that stops them when the test process is gone), so nothing is
// left running even when the test run is killed.

export interface LocalClickhouseCluster {
  name: string;
  user: string;
  password: string;
  nodes: { host: string; url: string }[];
  /** The first node's HTTP URL: where the platform connects. */
  url: string;
  /** Stops a node's process with SIGSTOP (a hung server: its sockets accept, nothing answers); resume sends SIGCONT. */
  pause(node: number): void;
  resume(node: number): void;
  close(): Promise<void>;
}

const listenOn = (host: string, port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
const closeAll = (servers: Server[]) => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));

/** Two ports free on every host (tried a few times: a port free on the first may be taken on another). */
async function portsFreeOn(hosts: string[]): Promise<[number, number]> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const first = [await listenOn(hosts[0], 0), await listenOn(hosts[0], 0)];
    const ports = first.map((s) => (s.address() as { port: number }).port) as [number, number];
    const others: Server[] = [];
    try {
      for (const host of hosts.slice(1)) for (const port of ports) others.push(await listenOn(host, port));
      return ports;
    } catch {
      // Taken on another host: try other ports.
    } finally {
      await closeAll([...first, ...others]);
    }
  }
  throw new Error('No two ports free on every loopback address of the cluster.');
}

/**
 * `profile`: settings of the platform user's profile beyond a stock one (none by default: the platform must work with
 * what a newcomer's cluster has).
 */
export async function startLocalClickhouseCluster(options: { shards?: number; name?: string; profile?: Record<string, string | number>; documented?: boolean } = {}): Promise<LocalClickhouseCluster> {
  // `documented`: the nodes run the files of docs/qryn.md's worked example (tests/fixtures/clickhouse-two-nodes), with
  // only the example's addresses, ports and network replaced by this machine's.
  const documented = options.documented ?? false;
  const shards = documented ? 2 : (options.shards ?? 2);
  const name = documented ? 'qryn_pair' : (options.name ?? 'test_pair');
  const user = documented ? 'qryn' : 'platform';
  const password = documented ? 'change-me' : `pw-${Math.random().toString(36).slice(2)}`;
  const hosts = Array.from({ length: shards }, (_, i) => `127.0.0.${i + 2}`);
  const [httpPort, tcpPort] = await portsFreeOn(hosts);
  const root = await mkdtemp(path.join(tmpdir(), 'ch-cluster-'));
  const supervisor = new ServerSupervisor();
  const remoteServers = hosts
    .map((host) => `<shard><replica><host>${host}</host><port>${tcpPort}</port><user>${user}</user><password>${password}</password></replica></shard>`)
    .join('');
  const users = `<?xml version="1.0"?>
<yandex>
  <profiles><default>${Object.entries(options.profile ?? {}).map(([key, value]) => `<${key}>${value}</${key}>`).join('')}</default></profiles>
  ${documented ? '' : `<users><${user}><password_sha256_hex>${createHash('sha256').update(password).digest('hex')}</password_sha256_hex><networks><ip>127.0.0.0/8</ip></networks><profile>default</profile><quota>default</quota></${user}></users>`}
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;
  const ping = async (url: string) => {
    try {
      const response = await fetch(`${url}/?query=SELECT%201`, { headers: { 'X-ClickHouse-User': user, 'X-ClickHouse-Key': password }, signal: AbortSignal.timeout(2_000) });
      return response.ok;
    } catch {
      return false;
    }
  };
  const nodes = hosts.map((host) => ({ host, url: `http://${host}:${httpPort}` }));
  try {
    await Promise.all(
      hosts.map(async (host, i) => {
        const dir = path.join(root, `node-${i + 1}`);
        for (const sub of ['data/tmp', 'data/user_files', 'log']) await mkdir(path.join(dir, sub), { recursive: true });
        const config = `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/log/server.log</log><errorlog>${dir}/log/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  ${documented ? '' : `<listen_host>${host}</listen_host>`}
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <keep_alive_timeout>3</keep_alive_timeout>
  <shutdown_wait_unfinished>1</shutdown_wait_unfinished>
  <mark_cache_size>268435456</mark_cache_size>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/data/tmp/</tmp_path>
  <user_files_path>${dir}/data/user_files/</user_files_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  ${documented ? '' : `<remote_servers><${name}>${remoteServers}</${name}></remote_servers>`}
</yandex>
`;
        await writeFile(path.join(dir, 'config.xml'), config);
        await writeFile(path.join(dir, 'users.xml'), users);
        if (documented) await writeDocumentedFiles(dir, host, hosts, tcpPort);
        await supervisor.start({
          name: `test cluster node ${i + 1}`,
          dir,
          command: CLICKHOUSE_BINARY,
          args: [`--config-file=${path.join(dir, 'config.xml')}`],
          identity: path.join(dir, 'config.xml'),
          probe: () => ping(nodes[i].url),
          liveness: { intervalMs: 0 },
          restart: { maxAttempts: 1 },
        });
        const until = Date.now() + 30_000;
        while (!(await ping(nodes[i].url))) {
          if (Date.now() > until || !supervisor.running(dir)) throw new Error(`ClickHouse node ${host} did not start (see ${dir}/log)`);
          await new Promise((r) => setTimeout(r, 150));
        }
      }),
    );
  } catch (error) {
    await supervisor.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const paused = new Set<number>();
  return {
    name,
    user,
    password,
    nodes,
    url: nodes[0].url,
    pause(node) {
      process.kill(supervisor.pid(path.join(root, `node-${node + 1}`))!, 'SIGSTOP');
      paused.add(node);
    },
    resume(node) {
      process.kill(supervisor.pid(path.join(root, `node-${node + 1}`))!, 'SIGCONT');
      paused.delete(node);
    },
    async close() {
      // A stopped process would not stop on TERM.
      for (const node of paused) process.kill(supervisor.pid(path.join(root, `node-${node + 1}`))!, 'SIGCONT');
      await supervisor.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

const FIXTURE = path.resolve(__dirname, '../fixtures/clickhouse-two-nodes');

/** docs/qryn.md's example files for one node, on the loopback addresses and ports of this cluster. */
async function writeDocumentedFiles(dir: string, host: string, hosts: string[], tcpPort: number): Promise<void> {
  const config = (await readFile(path.join(FIXTURE, 'config.d/qryn-cluster.xml'), 'utf8'))
    .replace('<listen_host>0.0.0.0</listen_host>', `<listen_host>${host}</listen_host>`)
    .replace('<host>10.0.0.11</host>', `<host>${hosts[0]}</host>`)
    .replace('<host>10.0.0.12</host>', `<host>${hosts[1]}</host>`)
    .replaceAll('<port>9000</port>', `<port>${tcpPort}</port>`);
  const users = (await readFile(path.join(FIXTURE, 'users.d/qryn.xml'), 'utf8')).replace('<ip>10.0.0.0/24</ip>', '<ip>127.0.0.0/8</ip>');
  for (const [folder, file, text] of [['config.d', 'qryn-cluster.xml', config], ['users.d', 'qryn.xml', users]]) {
    await mkdir(path.join(dir, folder), { recursive: true });
    await writeFile(path.join(dir, folder, file), text);
  }
}

/** A statement on one node, answered as text (tests look at each shard's local tables). */
export async function queryNode(cluster: LocalClickhouseCluster, node: number, sql: string): Promise<string> {
  const response = await fetch(`${cluster.nodes[node].url}/`, {
    method: 'POST',
    headers: { 'X-ClickHouse-User': cluster.user, 'X-ClickHouse-Key': cluster.password },
    body: sql,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(text);
  return text.trim();
}

/** A cluster for a whole test file: started before its tests, stopped after them; the getter reads it in a test. */
export function clusterForFile(options: Parameters<typeof startLocalClickhouseCluster>[0] = {}): () => LocalClickhouseCluster {
  let cluster: LocalClickhouseCluster | undefined;
  beforeAll(async () => {
    cluster = await startLocalClickhouseCluster(options);
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });
  return () => cluster!;
}
