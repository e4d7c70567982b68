import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { ServerSupervisor } from '../../../processes/server-supervisor';
import type { ClusterLayout } from './external-storage';
import type { InstanceReadLimits } from '../instances/read-limits';

// The platform's shared storage: one ClickHouse server process under DATA_DIR/storage, configured by the platform
// (Debian's clickhouse-server 18.16: config root <yandex>). It runs under the platform's server supervisor
// (server/processes/server-supervisor.ts): in a process group of its own, under a watchdog that stops it when the
// platform process is gone (even after SIGKILL), restarted with backoff on the same ports when it exits or stops
// answering. server.json records the ports and password, so a restart of the platform reuses them; a server left
// running by an earlier platform is stopped first (after checking it really is that server).

export const CLICKHOUSE_BINARY = process.env.CLICKHOUSE_SERVER_BIN ?? '/usr/sbin/clickhouse-server';

export interface StorageEndpoint {
  /** HTTP interface, e.g. http://127.0.0.1:41234 */
  url: string;
  user: string;
  password: string;
  /** Set when the storage is a ClickHouse cluster (external-storage.ts): the tables are sharded over its nodes. */
  cluster?: ClusterLayout;
  /**
   * The cluster's node URLs where `cluster` (which carries methods) cannot go: a query worker's copy of the endpoint.
   * A read stopped early is killed on each (storage-stream.ts).
   */
  nodeUrls?: string[];
  /** How long a statement may take before it is given up as unavailable (QRYN_CLICKHOUSE_*_TIMEOUT_S); default 60 s. */
  timeouts?: { readMs: number; insertMs: number };
  /** The instance's own read limits, where a read through this endpoint is one instance's (read-settings.ts). */
  readLimits?: InstanceReadLimits;
}

/** qryn's shared storage: the embedded server (StorageServer) or an existing ClickHouse (external-storage.ts). */
export interface SharedStorage extends StorageEndpoint {
  /** The embedded server's pid; undefined for an existing ClickHouse that the platform does not run. */
  readonly pid: number | undefined;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StorageServer extends StorageEndpoint {
  /** The server's current pid (a new one after each restart). */
  readonly pid: number;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

interface StateFile {
  httpPort: number;
  tcpPort: number;
  password: string;
}

const USER = 'platform';
const START_TIMEOUT_MS = 60_000;

export interface StorageServerOptions {
  dir: string;
  log?: (message: string) => void;
  binary?: string;
  /** Restart backoff (tests shorten it). */
  restart?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Liveness probe interval (ms) and failures before a restart. */
  liveness?: { intervalMs?: number; failures?: number };
}

export async function startStorageServer(options: StorageServerOptions): Promise<StorageServer> {
  const dir = path.resolve(options.dir);
  const log = options.log ?? (() => undefined);
  await mkdir(dir, { recursive: true });
  const stateFile = path.join(dir, 'server.json');
  const binary = options.binary ?? CLICKHOUSE_BINARY;
  if (!existsSync(binary)) throw new Error(`ClickHouse server not found at ${binary} (scripts/install-clickhouse.sh installs it).`);
  const previous = await readState(stateFile);
  const password = previous?.password ?? randomBytes(18).toString('base64url');
  const [httpPort, tcpPort] = await freePorts(2);
  const state: StateFile = { httpPort, tcpPort, password };
  const configFile = await renderConfig(dir, state);
  await writeFile(stateFile, JSON.stringify(state), { mode: 0o600 });
  const endpoint = endpointOf(state);
  const supervisor = new ServerSupervisor(log);
  let lastError = '';
  const pid = await supervisor.start({
    name: 'storage server',
    dir,
    command: binary,
    args: [`--config-file=${configFile}`],
    identity: configFile,
    probe: () => pingWith(endpoint),
    liveness: options.liveness,
    restart: { ...options.restart, readyTimeoutMs: START_TIMEOUT_MS, maxAttempts: Number.MAX_SAFE_INTEGER, maxDelayMs: options.restart?.maxDelayMs ?? 30_000 },
    onExit: (report) => {
      lastError = report.reason;
    },
  });
  const until = Date.now() + START_TIMEOUT_MS;
  while (!(await pingWith(endpoint))) {
    if (!supervisor.running(dir) || Date.now() > until) {
      const detail = (await lastLogLines(dir)) || lastError;
      await supervisor.close();
      await rm(stateFile, { force: true });
      throw new Error(`ClickHouse server ${Date.now() > until ? `did not answer within ${START_TIMEOUT_MS / 1000} s` : 'exited while starting'}: ${detail}`);
    }
    await sleep(150);
  }
  supervisor.answered(dir);
  log(`[storage] ClickHouse server pid ${pid} on ${endpoint.url}`);
  let closing: Promise<void> | undefined;
  return {
    ...endpoint,
    get pid() {
      return supervisor.pid(dir) ?? pid;
    },
    ping: () => pingWith(endpoint),
    close() {
      closing ??= (async () => {
        await supervisor.close();
        await rm(stateFile, { force: true });
      })();
      return closing;
    },
  };
}

/** The last error lines of the server's own log and of its standard output (e.g. a config it cannot read). */
async function lastLogLines(dir: string): Promise<string> {
  const read = (file: string) => readFile(path.join(dir, file), 'utf8').catch(() => '');
  const text = `${await read('log/clickhouse-server.err.log')}\n${await read('stdout.log')}`;
  return text.trim().split('\n').slice(-5).join('\n').slice(-1_000);
}

function endpointOf(state: StateFile): StorageEndpoint {
  return { url: `http://127.0.0.1:${state.httpPort}`, user: USER, password: state.password };
}

async function pingWith(endpoint: StorageEndpoint): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint.url}/?query=SELECT%201`, {
      headers: { 'X-ClickHouse-User': endpoint.user, 'X-ClickHouse-Key': endpoint.password },
      signal: AbortSignal.timeout(2_000),
    });
    return response.ok && (await response.text()).trim() === '1';
  } catch {
    return false;
  }
}

async function readState(file: string): Promise<StateFile | undefined> {
  try {
    const state = JSON.parse(await readFile(file, 'utf8')) as StateFile;
    return typeof state.password === 'string' && state.password ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Ports the OS hands out as free now (held together so two calls never get the same one). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<import('node:net').Server>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as import('node:net').AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function renderConfig(dir: string, settings: { httpPort: number; tcpPort: number; password: string }): Promise<string> {
  const data = path.join(dir, 'data') + '/';
  await mkdir(path.join(dir, 'data', 'tmp'), { recursive: true });
  await mkdir(path.join(dir, 'data', 'user_files'), { recursive: true });
  await mkdir(path.join(dir, 'log'), { recursive: true });
  const hash = createHash('sha256').update(settings.password).digest('hex');
  const config = `<?xml version="1.0"?>
<!-- Rendered by the platform on every start; edits are overwritten. -->
<yandex>
  <logger>
    <level>warning</level>
    <log>${xml(path.join(dir, 'log', 'clickhouse-server.log'))}</log>
    <errorlog>${xml(path.join(dir, 'log', 'clickhouse-server.err.log'))}</errorlog>
    <size>10M</size>
    <count>2</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${settings.httpPort}</http_port>
  <tcp_port>${settings.tcpPort}</tcp_port>
  <max_connections>512</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <!-- Stop within about a second: acknowledged inserts are already written as parts. -->
  <shutdown_wait_unfinished>1</shutdown_wait_unfinished>
  <max_concurrent_queries>100</max_concurrent_queries>
  <mark_cache_size>268435456</mark_cache_size>
  <path>${xml(data)}</path>
  <tmp_path>${xml(path.join(dir, 'data', 'tmp'))}/</tmp_path>
  <user_files_path>${xml(path.join(dir, 'data', 'user_files'))}/</user_files_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
  <max_session_timeout>3600</max_session_timeout>
  <default_session_timeout>60</default_session_timeout>
</yandex>
`;
  const users = `<?xml version="1.0"?>
<yandex>
  <profiles>
    <default>
      <max_memory_usage>2000000000</max_memory_usage>
      <load_balancing>random</load_balancing>
      <allow_experimental_low_cardinality_type>1</allow_experimental_low_cardinality_type>
    </default>
  </profiles>
  <users>
    <${USER}>
      <password_sha256_hex>${hash}</password_sha256_hex>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </${USER}>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;
  await writeFile(path.join(dir, 'config.xml'), config, { mode: 0o600 });
  await writeFile(path.join(dir, 'users.xml'), users, { mode: 0o600 });
  return path.join(dir, 'config.xml');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
