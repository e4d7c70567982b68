import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import type { Queryable } from '../../db/database';
import { countAllProcesses, listNodes, listProcesses, replaceProcesses, setProcessPid, type ProcessRow } from '../../db/repositories/clickhouse-repository';
import { ServerSupervisor, type ExitReport } from '../../processes/server-supervisor';
import { answersSelectOne, clickhouseExec, ClickhouseError } from './clickhouse-http';
import type { ClusterPlan, ClusterProvisioner, NodeEndpoint, ProvisionOptions } from './provisioner';
import { ProvisionError } from './provisioner';
import { createClusterNetwork, isolationModeFrom, type IsolationMode } from './cluster-network';
import { renderConfigXml, renderUsersXml, serverLimits, type RemoteReplica } from './server-config';

// Managed clusters as real clickhouse-server processes on this machine, one per node up to a cap (see
// docs/clickhouse.md "Local cap"): a cluster gets at most maxProcessesPerCluster processes and the machine at most
// maxProcesses; nodes beyond the cap share a process and get their own database there, which remote_servers names
// as the node's default database. Every process has its own ports (chosen free, unique in clickhouse_processes),
// folder (DATA_DIR/clickhouse/<cluster id>/node-<n>) and config, and listens on 127.0.0.1 only.
//
// The servers run under the platform's server supervisor (server/processes/server-supervisor.ts): each in a
// process group of its own (a customer's SYSTEM SHUTDOWN stops only that server), under a watchdog that stops it
// when the platform is gone, restarted with backoff when it exits or stops answering. The events (down, back, given
// up) go to the back end, which records them on the cluster row.

export const CLICKHOUSE_SERVER_BIN = process.env.CLICKHOUSE_SERVER_BIN ?? '/usr/sbin/clickhouse-server';

export const LOCAL_HOST = '127.0.0.1';
/** What one server may hold in memory for all its queries on this machine at most (its plan may sell less). */
export const DEFAULT_SERVER_MEMORY_BYTES = 1024 ** 3;
export const DEFAULT_MAX_EXECUTION_SECONDS = 60;
/** The platform's own ClickHouse user on managed servers (loopback only). */
export const INTERNAL_USER = 'platform_internal';

export interface LocalProvisionerOptions {
  db: Queryable;
  /** DATA_DIR/clickhouse */
  root: string;
  maxProcessesPerCluster?: number;
  maxProcesses?: number;
  /** How long a server may take to answer after it was started. */
  startTimeoutMs?: number;
  log?: (message: string) => void;
  /** The spawn seam: put in front of a cluster's server command (e.g. ['ip', 'netns', 'exec', 'ch-12']). */
  wrap?: (clusterId: number) => readonly string[] | undefined;
  /**
   * What this machine gives one server at most (CLICKHOUSE_SERVER_MEMORY_BYTES, default 1 GiB) and how long a
   * customer's query may run (CLICKHOUSE_MAX_EXECUTION_SECONDS, default 60); the plan's machine bounds the rest.
   */
  limits?: { memoryCapBytes?: number; maxExecutionSeconds?: number };
  /** Network isolation of the servers (CLICKHOUSE_NETWORK_ISOLATION; default: a namespace per cluster when possible). */
  isolation?: IsolationMode;
  /** Supervision settings (tests shorten them). */
  restart?: { initialDelayMs?: number; maxDelayMs?: number; maxAttempts?: number };
  liveness?: { intervalMs?: number; failures?: number };
  events?: ServerEvents;
}

/** What the supervisor reports about a cluster's servers after they were started. */
export interface ServerEvents {
  /** A node's server exited or stopped answering; report.restarting says whether it is being started again. */
  down?(clusterId: number, node: number, report: ExitReport): Promise<void>;
  /** A restarted server answers again. */
  recovered?(clusterId: number, node: number): Promise<void>;
  /** Asked before a restart: false when the cluster no longer exists or should not run (then its folder goes). */
  shouldRun?(clusterId: number): Promise<boolean>;
}

export interface LocalProvisioner extends ClusterProvisioner {
  readonly maxProcessesPerCluster: number;
  readonly maxProcesses: number;
  /**
   * Platform start: starts the servers of these clusters again (a server left running by an earlier platform is
   * stopped first), `concurrency` clusters at a time; answers which ones did not come up.
   */
  restore(plans: readonly ClusterPlan[], concurrency?: number): Promise<{ clusterId: number; reason: string }[]>;
  /** Whether the supervisor currently runs every server process of the cluster. */
  running(clusterId: number): Promise<boolean>;
  /** Stops and removes the folders of clusters that no longer exist (e.g. their project was deleted). */
  removeOrphans(knownClusterIds: ReadonlySet<number>): Promise<void>;
  /** Whether every server process of the cluster answers. */
  healthy(clusterId: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * `count` ports the OS hands out as free, held together while they are chosen (so HTTP and TCP never get the same
 * one) and none of them already recorded for another server in clickhouse_processes (a stopped server keeps its
 * ports; unique indexes guard the rest, migration 1700). A port can still be taken by an unrelated program between
 * this choice and the server's bind: the server then fails to start with "Address already in use", which is the
 * reason the cluster reports.
 */
async function freePorts(db: Queryable, count: number): Promise<number[]> {
  const used = new Set((await db.query<{ port: number }>('SELECT http_port AS port FROM clickhouse_processes UNION SELECT tcp_port FROM clickhouse_processes')).map((r) => r.port));
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < count) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, LOCAL_HOST, () => resolve());
      });
      held.push(server);
      const port = (server.address() as { port: number }).port;
      if (!used.has(port)) ports.push(port);
      if (held.length > count + 50) throw new Error('No free ports for a ClickHouse server.');
    }
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
  return ports;
}

/** Where managed clusters keep their folders: DATA_DIR/clickhouse. */
export const clustersRoot = (dataDir: string) => path.join(dataDir, 'clickhouse');
const clusterDir = (root: string, clusterId: number) => path.join(root, String(clusterId));

/**
 * The password of the platform's own user on a managed cluster's servers (kept in the cluster's folder, created on
 * first use). Whoever holds it reaches the servers from this machine only (the user is loopback only).
 */
export async function readInternalSecret(root: string, clusterId: number): Promise<string> {
  const file = path.join(clusterDir(root, clusterId), 'internal.secret');
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (existing) return existing.trim();
  const secret = randomBytes(24).toString('hex');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
  return (await readFile(file, 'utf8')).trim();
}

export function createLocalProvisioner(options: LocalProvisionerOptions): LocalProvisioner {
  const { db, root } = options;
  const log = options.log ?? (() => undefined);
  const maxProcessesPerCluster = options.maxProcessesPerCluster ?? 4;
  const maxProcesses = options.maxProcesses ?? 12;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const supervisor = new ServerSupervisor(log);
  const network = createClusterNetwork({ mode: options.isolation ?? isolationModeFrom(process.env.CLICKHOUSE_NETWORK_ISOLATION), root, supervisor, log });
  if (network.mode === 'off') log('[clickhouse] managed servers run WITHOUT network isolation: their url() and remote() reach this machine (docs/clickhouse.md)');
  async function preparePorts(clusterId: number, processes: readonly ProcessRow[]): Promise<void> {
    try {
      await network.prepare(clusterId, processes.flatMap((p) => [p.http_port, p.tcp_port]));
    } catch (error) {
      // The host's side of the forwarder could not listen: the same failure a server outside a namespace reports.
      const code = (error as NodeJS.ErrnoException).code;
      const port = (error as { port?: number }).port;
      await network.release(clusterId).catch(() => undefined);
      if (code === 'EADDRINUSE') throw new ProvisionError(`Port ${port ?? ''} of this cluster cannot be opened on this machine: Address already in use.`);
      throw new ProvisionError(`The cluster's network could not be set up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const events = options.events ?? {};
  /** Renders of one cluster's files run one after the other (concurrent safe-list changes). */
  const renderQueue = new Map<number, Promise<unknown>>();

  const internalPassword = (clusterId: number) => readInternalSecret(root, clusterId);

  /**
   * Replaces a config file in one step. ClickHouse 18.16 notices a changed file by its modification time in whole
   * seconds, so a second change within the same second would go unseen: the new file's time is moved past the old
   * one's second when needed.
   */
  async function writeAtomic(file: string, text: string): Promise<void> {
    const before = await stat(file).catch(() => undefined);
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, file);
    if (before) {
      const oldSecond = Math.floor(before.mtimeMs / 1000);
      if (Math.floor((await stat(file)).mtimeMs / 1000) <= oldSecond) await utimes(file, new Date(), new Date((oldSecond + 1) * 1000));
    }
  }

  function renderAll(plan: ClusterPlan, processes: readonly ProcessRow[]): Promise<void> {
    const previous = renderQueue.get(plan.clusterId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => renderNow(plan, processes));
    renderQueue.set(plan.clusterId, next);
    void next.finally(() => {
      if (renderQueue.get(plan.clusterId) === next) renderQueue.delete(plan.clusterId);
    }).catch(() => undefined);
    return next;
  }

  async function renderNow(plan: ClusterPlan, processes: readonly ProcessRow[]): Promise<void> {
    if (processes.length === 0) return;
    const nodes = await listNodes(db, plan.clusterId);
    const byIdx = new Map(processes.map((p) => [p.idx, p]));
    const shards: RemoteReplica[][] = [];
    for (const node of nodes) {
      const p = byIdx.get(node.process_idx)!;
      (shards[node.shard - 1] ??= []).push({ host: LOCAL_HOST, tcpPort: p.tcp_port, database: node.database });
    }
    const secret = await internalPassword(plan.clusterId);
    for (const p of processes) {
      for (const sub of ['log', 'data', 'tmp', 'user_files', 'format_schemas']) await mkdir(path.join(p.data_dir, sub), { recursive: true });
      const input = {
        dir: p.data_dir,
        httpPort: p.http_port,
        tcpPort: p.tcp_port,
        clusterName: plan.name,
        shards,
        adminUser: plan.adminUser,
        adminPasswordSha256: plan.adminPasswordSha256,
        ipSafeList: plan.ipSafeList,
        internalUser: INTERNAL_USER,
        internalPassword: secret,
        limits: serverLimits(plan.machine, {
          memoryCapBytes: options.limits?.memoryCapBytes ?? DEFAULT_SERVER_MEMORY_BYTES,
          maxExecutionSeconds: options.limits?.maxExecutionSeconds ?? DEFAULT_MAX_EXECUTION_SECONDS,
        }),
      };
      await writeAtomic(path.join(p.data_dir, 'users.xml'), renderUsersXml(input));
      await writeAtomic(path.join(p.data_dir, 'config.xml'), renderConfigXml(input));
    }
  }

  /** The server's last logged error ("<Error> Application: Net Exception: Address already in use: …"). */
  async function lastErrorLines(dir: string): Promise<string> {
    const text = await readFile(path.join(dir, 'log', 'error.log'), 'utf8').catch(() => '');
    const errors = text.split('\n').filter((l) => /<(Error|Fatal)>/.test(l));
    const last = errors.at(-1) ?? '';
    return last.replace(/^.*?<(Error|Fatal)>\s*/, '').split(', Stack trace')[0].split(', e.what()')[0].slice(0, 300);
  }

  /** The supervisor's description of one server process of a cluster. */
  function specOf(clusterId: number, p: ProcessRow, internal: { user: string; password: string }) {
    const configPath = path.join(p.data_dir, 'config.xml');
    const endpoint = { host: LOCAL_HOST, port: p.http_port, ...internal };
    return {
      name: `cluster ${clusterId} node ${p.idx + 1}`,
      dir: p.data_dir,
      command: CLICKHOUSE_SERVER_BIN,
      args: [`--config-file=${configPath}`],
      identity: configPath,
      wrap: options.wrap?.(clusterId) ?? network.wrap(clusterId),
      probe: () => answersSelectOne(endpoint, 1_000),
      liveness: options.liveness,
      restart: { readyTimeoutMs: startTimeoutMs, ...options.restart },
      onPid: (pid: number) => setProcessPid(db, clusterId, p.idx, pid).catch(() => undefined),
      onExit: (report: ExitReport) => events.down?.(clusterId, p.idx + 1, report),
      onRecovered: () => events.recovered?.(clusterId, p.idx + 1),
      beforeRestart: async () => (events.shouldRun ? events.shouldRun(clusterId) : true),
    };
  }

  /**
   * Starts one process under the supervisor and waits until it answers SELECT 1 as the platform's own user (from
   * 127.0.0.1, whatever the customer's IP safe list). Then, when the admin password is known, checks it once: a
   * wrong one fails the cluster; a refusal of this machine's address by the safe list is no failure.
   */
  async function startProcess(clusterId: number, p: ProcessRow, admin: { user: string; password: string } | undefined, signal?: AbortSignal): Promise<void> {
    const internal = { user: INTERNAL_USER, password: await internalPassword(clusterId) };
    await supervisor.start(specOf(clusterId, p, internal));
    const endpoint = { host: LOCAL_HOST, port: p.http_port, ...internal };
    const deadline = Date.now() + startTimeoutMs;
    while (!(await answersSelectOne(endpoint, 1_000))) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      if (!supervisor.running(p.data_dir)) {
        const detail = await lastErrorLines(p.data_dir);
        throw new ProvisionError(`Node ${p.idx + 1} (port ${p.http_port}) stopped while starting${detail ? `: ${detail}` : '.'}`);
      }
      if (Date.now() > deadline) {
        throw new ProvisionError(`Node ${p.idx + 1} (port ${p.http_port}) did not answer SELECT 1 within ${Math.round(startTimeoutMs / 1000)} s.`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    supervisor.answered(p.data_dir);
    if (!admin) return;
    try {
      await clickhouseExec({ host: LOCAL_HOST, port: p.http_port, ...admin }, 'SELECT 1');
    } catch (error) {
      if (!(error instanceof ClickhouseError)) throw error;
      // 195: the IP safe list does not admit this machine's address; the admin's password cannot be tried from here.
      if (error.code === 195) {
        log(`[clickhouse] cluster ${clusterId} node ${p.idx + 1}: the IP safe list refuses 127.0.0.1, the admin password was not tried`);
        return;
      }
      if (error.code === 193 || error.code === 192 || error.code === 516) throw new ProvisionError(`Node ${p.idx + 1} (port ${p.http_port}) does not accept the admin user's credentials.`);
      throw new ProvisionError(`Node ${p.idx + 1} (port ${p.http_port}) refused the admin user: code ${error.code}.`);
    }
  }

  async function endpoints(clusterId: number): Promise<NodeEndpoint[]> {
    const processes = new Map((await listProcesses(db, clusterId)).map((p) => [p.idx, p]));
    return (await listNodes(db, clusterId)).map((n) => {
      const p = processes.get(n.process_idx)!;
      return { shard: n.shard, replica: n.replica, host: LOCAL_HOST, httpPort: p.http_port, tcpPort: p.tcp_port, database: n.database, dataDir: p.data_dir };
    });
  }

  const provisioner: LocalProvisioner = {
    kind: 'local-processes',
    maxProcessesPerCluster,
    maxProcesses,

    async provision(plan: ClusterPlan, opts: ProvisionOptions = {}) {
      let processes = await listProcesses(db, plan.clusterId);
      if (processes.length === 0) {
        const nodeCount = plan.shards * plan.replicas;
        const others = await countAllProcesses(db, plan.clusterId);
        const count = Math.min(nodeCount, maxProcessesPerCluster, maxProcesses - others);
        if (count < 1) throw new ProvisionError(`This machine already runs its maximum of ${maxProcesses} ClickHouse servers; delete a cluster first.`);
        const rows: Omit<ProcessRow, 'cluster_id'>[] = [];
        const ports = await freePorts(db, 2 * count);
        for (let idx = 0; idx < count; idx++) {
          rows.push({ idx, http_port: ports[2 * idx], tcp_port: ports[2 * idx + 1], data_dir: path.join(clusterDir(root, plan.clusterId), `node-${idx + 1}`), pid: null });
        }
        const nodes = [];
        for (let s = 1; s <= plan.shards; s++) {
          for (let r = 1; r <= plan.replicas; r++) {
            const k = (s - 1) * plan.replicas + (r - 1);
            nodes.push({ shard: s, replica: r, process_idx: k % count, database: count < nodeCount ? `shard${s}_replica${r}` : null });
          }
        }
        await replaceProcesses(db, plan.clusterId, rows, nodes);
        processes = await listProcesses(db, plan.clusterId);
      }
      await renderAll(plan, processes);
      await preparePorts(plan.clusterId, processes);
      const admin = opts.adminPassword ? { user: plan.adminUser, password: opts.adminPassword } : undefined;
      let done = 0;
      await opts.progress?.(0, processes.length);
      // One at a time: the machine has few cores, and a start is under a second when it is not contended.
      for (const p of processes) {
        await startProcess(plan.clusterId, p, admin, opts.signal);
        await opts.progress?.(++done, processes.length);
      }
      const nodes = await endpoints(plan.clusterId);
      const internal = { user: INTERNAL_USER, password: await internalPassword(plan.clusterId) };
      for (const node of nodes) {
        if (node.database) await clickhouseExec({ host: node.host, port: node.httpPort, ...internal }, `CREATE DATABASE IF NOT EXISTS ${node.database}`);
      }
      return nodes;
    },

    async applyIpSafeList(plan) {
      await renderAll(plan, await listProcesses(db, plan.clusterId));
    },

    async stop(clusterId) {
      const dir = clusterDir(root, clusterId);
      const names = await readdir(dir).catch(() => [] as string[]);
      await Promise.all(names.filter((n) => n.startsWith('node-')).map((n) => supervisor.stop(path.join(dir, n), 'kill')));
      await network.release(clusterId);
    },

    async running(clusterId) {
      const processes = await listProcesses(db, clusterId);
      return processes.length > 0 && processes.every((p) => supervisor.running(p.data_dir));
    },

    async destroy(clusterId) {
      await provisioner.stop(clusterId);
      await rm(clusterDir(root, clusterId), { recursive: true, force: true });
    },

    nodes: endpoints,

    async platformCredentials(clusterId) {
      return { user: INTERNAL_USER, password: await internalPassword(clusterId) };
    },

    async restore(plans, concurrency = 3) {
      const failures: { clusterId: number; reason: string }[] = [];
      const queue = [...plans];
      const worker = async () => {
        for (let plan = queue.shift(); plan; plan = queue.shift()) {
          try {
            const processes = await listProcesses(db, plan.clusterId);
            await renderAll(plan, processes);
            await preparePorts(plan.clusterId, processes);
            for (const p of processes) await startProcess(plan.clusterId, p, undefined);
          } catch (error) {
            failures.push({ clusterId: plan.clusterId, reason: error instanceof Error ? error.message : String(error) });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
      return failures;
    },

    async removeOrphans(known) {
      await network.removeOrphans(known);
      const names = await readdir(root).catch(() => [] as string[]);
      for (const name of names) {
        const id = Number(name);
        if (!Number.isInteger(id) || known.has(id)) continue;
        log(`[clickhouse] removing the servers of cluster ${id}, which no longer exists`);
        await provisioner.destroy(id);
      }
    },

    async healthy(clusterId) {
      const processes = await listProcesses(db, clusterId);
      if (processes.length === 0) return false;
      const internal = { user: INTERNAL_USER, password: await internalPassword(clusterId) };
      const answers = await Promise.all(processes.map((p) => answersSelectOne({ host: LOCAL_HOST, port: p.http_port, ...internal })));
      return answers.every(Boolean);
    },

    async close() {
      await supervisor.close();
      await network.close();
    },
  };
  return provisioner;
}
