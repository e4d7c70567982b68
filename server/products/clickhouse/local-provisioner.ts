import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Queryable } from '../../db/database';
import { countAllProcesses, listNodes, listProcesses, replaceProcesses, setProcessPid, type ProcessRow } from '../../db/repositories/clickhouse-repository';
import { answersSelectOne, clickhouseExec } from './clickhouse-http';
import { ProcessSupervisor } from './process-supervisor';
import type { ClusterPlan, ClusterProvisioner, NodeEndpoint, ProvisionOptions } from './provisioner';
import { ProvisionError } from './provisioner';
import { renderConfigXml, renderUsersXml, type RemoteReplica } from './server-config';

// Managed clusters as real clickhouse-server processes on this machine, one per node up to a cap (see
// docs/clickhouse.md "Local cap"): a cluster gets at most maxProcessesPerCluster processes and the machine at most
// maxProcesses; nodes beyond the cap share a process and get their own database there, which remote_servers names
// as the node's default database. Every process has its own ports (chosen free), folder
// (DATA_DIR/clickhouse/<cluster id>/node-<n>) and config, and listens on 127.0.0.1 only.

export const LOCAL_HOST = '127.0.0.1';
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
}

export interface LocalProvisioner extends ClusterProvisioner {
  readonly maxProcessesPerCluster: number;
  readonly maxProcesses: number;
  /** Platform start: restarts (or adopts) the servers of these clusters; answers which ones did not come up. */
  restore(plans: readonly ClusterPlan[]): Promise<{ clusterId: number; reason: string }[]>;
  /** Stops and removes the folders of clusters that no longer exist (e.g. their project was deleted). */
  removeOrphans(knownClusterIds: ReadonlySet<number>): Promise<void>;
  /** Whether every server process of the cluster answers. */
  healthy(clusterId: number): Promise<boolean>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, LOCAL_HOST, () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
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
  const supervisor = new ProcessSupervisor(log);

  const internalPassword = (clusterId: number) => readInternalSecret(root, clusterId);

  /**
   * Replaces a config file in one step. ClickHouse 18.16 notices a changed file by its modification time in whole
   * seconds, so a second change within the same second would go unseen: the new file's time is moved past the old
   * one's second when needed.
   */
  async function writeAtomic(file: string, text: string): Promise<void> {
    const before = await stat(file).catch(() => undefined);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, file);
    if (before) {
      const oldSecond = Math.floor(before.mtimeMs / 1000);
      if (Math.floor((await stat(file)).mtimeMs / 1000) <= oldSecond) await utimes(file, new Date(), new Date((oldSecond + 1) * 1000));
    }
  }

  async function renderAll(plan: ClusterPlan, processes: readonly ProcessRow[]): Promise<void> {
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

  /** Starts (or adopts) one process and waits until it answers SELECT 1. */
  async function startProcess(clusterId: number, p: ProcessRow, credentials: { user: string; password: string }, signal?: AbortSignal): Promise<void> {
    const running = await supervisor.ensureRunning(p.data_dir);
    await setProcessPid(db, clusterId, p.idx, running.pid);
    const endpoint = { host: LOCAL_HOST, port: p.http_port, ...credentials };
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
        for (let idx = 0; idx < count; idx++) {
          rows.push({ idx, http_port: await freePort(), tcp_port: await freePort(), data_dir: path.join(clusterDir(root, plan.clusterId), `node-${idx + 1}`), pid: null });
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
      const credentials = opts.adminPassword ? { user: plan.adminUser, password: opts.adminPassword } : { user: INTERNAL_USER, password: await internalPassword(plan.clusterId) };
      let done = 0;
      await opts.progress?.(0, processes.length);
      // One at a time: the machine has few cores, and a start is under a second when it is not contended.
      for (const p of processes) {
        await startProcess(plan.clusterId, p, credentials, opts.signal);
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
    },

    async destroy(clusterId) {
      await provisioner.stop(clusterId);
      await rm(clusterDir(root, clusterId), { recursive: true, force: true });
    },

    nodes: endpoints,

    async platformCredentials(clusterId) {
      return { user: INTERNAL_USER, password: await internalPassword(clusterId) };
    },

    async restore(plans) {
      const failures: { clusterId: number; reason: string }[] = [];
      for (const plan of plans) {
        try {
          const processes = await listProcesses(db, plan.clusterId);
          await renderAll(plan, processes);
          const internal = { user: INTERNAL_USER, password: await internalPassword(plan.clusterId) };
          for (const p of processes) await startProcess(plan.clusterId, p, internal);
        } catch (error) {
          failures.push({ clusterId: plan.clusterId, reason: error instanceof Error ? error.message : String(error) });
        }
      }
      return failures;
    },

    async removeOrphans(known) {
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

    close: () => supervisor.close(),
  };
  return provisioner;
}
