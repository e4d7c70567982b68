import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

// The platform's shared storage: one ClickHouse server process under DATA_DIR/storage, configured by the platform
// (Debian's clickhouse-server 18.16: config root <yandex>), started as a child of the platform and stopped with it.
// The server runs under a small shell watchdog that stops it when the platform process is gone, even when the
// platform was killed with SIGKILL, so it never outlives the platform. A pid file records the server: a start that
// finds a server left running by an earlier platform (its watchdog killed too) stops it and starts a fresh one on
// the same data.

export const CLICKHOUSE_BINARY = process.env.CLICKHOUSE_SERVER_BIN ?? '/usr/sbin/clickhouse-server';

export interface StorageEndpoint {
  /** HTTP interface, e.g. http://127.0.0.1:41234 */
  url: string;
  user: string;
  password: string;
}

export interface StorageServer extends StorageEndpoint {
  pid: number;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

interface StateFile {
  pid: number;
  httpPort: number;
  tcpPort: number;
  password: string;
}

const USER = 'platform';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export async function startStorageServer(options: { dir: string; log?: (message: string) => void; binary?: string }): Promise<StorageServer> {
  const dir = path.resolve(options.dir);
  const log = options.log ?? (() => undefined);
  await mkdir(dir, { recursive: true });
  const stateFile = path.join(dir, 'server.json');
  const previous = await readState(stateFile);
  // Only a process that really is this folder's server (a pid can be reused by anything after a reboot).
  if (previous && isAlive(previous.pid) && (await commandLine(previous.pid)).includes(path.join(dir, 'config.xml'))) {
    log(`[storage] stopping the ClickHouse server left by an earlier platform (pid ${previous.pid})`);
    await stopPid(previous.pid);
  }
  const binary = options.binary ?? CLICKHOUSE_BINARY;
  if (!existsSync(binary)) throw new Error(`ClickHouse server not found at ${binary} (scripts/install-clickhouse.sh installs it).`);
  const password = previous?.password ?? randomBytes(18).toString('base64url');
  const [httpPort, tcpPort] = await freePorts(2);
  const configFile = await renderConfig(dir, { httpPort, tcpPort, password });
  const child = spawn('/bin/sh', ['-c', WATCHDOG, binary, `--config-file=${configFile}`, String(process.pid)], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  let early: number | null | undefined;
  child.once('exit', (code) => (early = code));
  // The watchdog prints the server's pid first.
  const pid = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(\d+)\n/.exec(out);
      if (line) resolve(Number(line[1]));
    });
    child.once('exit', (code) => reject(new Error(`ClickHouse server could not be started (code ${code}): ${stderr.trim().slice(-1_000)}`)));
  });
  const state: StateFile = { pid, httpPort, tcpPort, password };
  await writeFile(stateFile, JSON.stringify(state), { mode: 0o600 });
  const endpoint = endpointOf(state);
  const until = Date.now() + START_TIMEOUT_MS;
  while (!(await pingWith(endpoint))) {
    if (early !== undefined) {
      await rm(stateFile, { force: true });
      throw new Error(`ClickHouse server exited while starting (code ${early}): ${stderr.trim().slice(-1_000)}`);
    }
    if (Date.now() > until) {
      child.kill('SIGTERM');
      await rm(stateFile, { force: true });
      throw new Error(`ClickHouse server did not answer within ${START_TIMEOUT_MS / 1000} s: ${stderr.trim().slice(-1_000)}`);
    }
    await sleep(150);
  }
  log(`[storage] ClickHouse server pid ${pid} on ${endpoint.url}`);
  return handle(endpoint, pid, child, stateFile);
}

function handle(endpoint: StorageEndpoint, pid: number, watchdog: ChildProcess, stateFile: string): StorageServer {
  let closing: Promise<void> | undefined;
  return {
    ...endpoint,
    pid,
    ping: () => pingWith(endpoint),
    close() {
      closing ??= (async () => {
        if (watchdog.exitCode === null && watchdog.signalCode === null) {
          const gone = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
          // The watchdog stops the server (SIGTERM, then SIGKILL after 15 s) and exits.
          watchdog.kill('SIGTERM');
          const timer = setTimeout(() => watchdog.kill('SIGKILL'), STOP_TIMEOUT_MS + 5_000);
          await gone;
          clearTimeout(timer);
        }
        await stopPid(pid);
        await rm(stateFile, { force: true });
      })();
      return closing;
    },
  };
}

// $0 is the server binary, $1 its config argument, $2 the platform's pid. Prints the server's pid, then waits:
// when the platform is gone or a TERM arrives, stops the server; exits when the server has exited.
const WATCHDOG = `
"$0" "$1" &
server=$!
echo "$server"
stop() {
  kill -TERM "$server" 2>/dev/null
  i=0
  while kill -0 "$server" 2>/dev/null && [ "$i" -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
  kill -KILL "$server" 2>/dev/null
  exit 0
}
trap stop TERM INT HUP
while kill -0 "$2" 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 1 & wait $!; done
stop
`;

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
    return Number.isInteger(state.pid) && state.pid > 0 ? state : undefined;
  } catch {
    return undefined;
  }
}

async function commandLine(pid: number): Promise<string> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopPid(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const until = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid) && Date.now() < until) await sleep(100);
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
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
