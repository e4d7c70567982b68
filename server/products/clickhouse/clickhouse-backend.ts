import type { Queryable } from '../../db/database';
import {
  deleteClusterRow,
  findCluster,
  listClustersWithStatus,
  listProjectClusters,
  setClusterStatus,
  type ClusterRow,
} from '../../db/repositories/clickhouse-repository';
import type { ProductBackend } from '../../route-kit/product-backend';
import type { ProductFactory, ProductPlatform } from '../product-factory';
import { loadCredentialBox, type CredentialBox } from './credentials';
import { registerClickhouseRoutes } from './clickhouse-routes';
import { CLICKHOUSE_SERVER_BIN, clustersRoot, createLocalProvisioner, type LocalProvisioner } from './local-provisioner';
import { localClickhouseVersions } from './clickhouse-versions';
import type { ClickhouseVersion } from '../../../contract/clickhouse';
import { ProvisionError } from './provisioner';
import { clusterSubject, DELETE_JOB, planOf, PROVISION_JOB } from './cluster-records';

// The ClickHouse product: clusters of a project, managed (servers run by the provisioner) or external. Creating and
// deleting a managed cluster are jobs worked by the platform (kinds below); the request only records the intent.

export interface ClickhouseBackend extends ProductBackend {
  readonly provisioner: LocalProvisioner;
  credentials(): Promise<CredentialBox>;
  /** Marks a managed cluster deleting and enqueues its deletion (on `db`, e.g. the caller's transaction). */
  scheduleDeletion(db: Queryable, row: ClusterRow): Promise<void>;
  /** Resolves when the start-up restore of the clusters' servers has finished. */
  restored(): Promise<void>;
  /**
   * Runs changes of one cluster's settings one after the other (read the row, write it, render the servers' files):
   * concurrent IP safe list changes then leave the database and users.xml equal. The servers run on this machine
   * only, so a lock in this process is the one that matters.
   */
  serialize<T>(clusterId: number, change: () => Promise<T>): Promise<T>;
  /** The versions this back end can run (GET clickhouse-versions, and the create call's check). */
  versions(): Promise<readonly ClickhouseVersion[]>;
}

export interface ClickhouseBackendOptions {
  maxProcessesPerCluster?: number;
  maxProcesses?: number;
  /** Where the offered versions come from; defaults to the package of the local clickhouse-server binary. */
  versions?: () => Promise<readonly ClickhouseVersion[]>;
}

export function createClickhouseBackend(platform: ProductPlatform, options: ClickhouseBackendOptions = {}): ClickhouseBackend {
  let versionsRead: Promise<readonly ClickhouseVersion[]> | undefined;
  const envNumber = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const provisioner = createLocalProvisioner({
    db: platform.db,
    root: clustersRoot(platform.config.dataDir),
    maxProcessesPerCluster: options.maxProcessesPerCluster ?? envNumber('CLICKHOUSE_MAX_PROCESSES_PER_CLUSTER'),
    maxProcesses: options.maxProcesses ?? envNumber('CLICKHOUSE_MAX_PROCESSES'),
    limits: { memoryCapBytes: envNumber('CLICKHOUSE_SERVER_MEMORY_BYTES'), maxExecutionSeconds: envNumber('CLICKHOUSE_MAX_EXECUTION_SECONDS') },
    log: platform.log,
    events: {
      // A node went down after its cluster was running: the row says so (stopped while the supervisor restarts it,
      // failed when it gave up), and comes back to active when every node answers again.
      async down(clusterId, node, report) {
        const reason = report.restarting
          ? `Node ${node} ${report.reason}; the platform is starting it again.`
          : `Node ${node} ${report.reason}; it did not come back after ${report.attempt - 1} restarts.`;
        await platform.db
          .query("UPDATE clickhouse_clusters SET status = $2, status_reason = $3 WHERE id = $1 AND status IN ('active', 'stopped')", [clusterId, report.restarting ? 'stopped' : 'failed', reason])
          .catch(() => undefined);
      },
      async recovered(clusterId) {
        if (!(await provisioner.running(clusterId)) || !(await provisioner.healthy(clusterId))) return;
        await platform.db.query("UPDATE clickhouse_clusters SET status = 'active', status_reason = NULL WHERE id = $1 AND status = 'stopped'", [clusterId]).catch(() => undefined);
      },
      // A server whose cluster row is gone (project deleted meanwhile) is not started again, and its folder goes.
      async shouldRun(clusterId) {
        const row = await findCluster(platform.db, clusterId);
        if (!row) {
          setImmediate(() => void provisioner.destroy(clusterId).catch(() => undefined));
          return false;
        }
        return row.status === 'active' || row.status === 'stopped';
      },
    },
  });
  let restoring: Promise<void> | undefined;
  const changes = new Map<number, Promise<unknown>>();
  let closed = false;
  let box: Promise<CredentialBox> | undefined;
  const credentials = () => (box ??= loadCredentialBox(platform.db).catch((error) => {
    box = undefined;
    throw error;
  }));

  async function provisionJob(clusterId: number, signal: AbortSignal, progress: (c: number, m: number) => Promise<void>) {
    const row = await findCluster(platform.db, clusterId);
    if (!row || row.status !== 'creating') return { skipped: true };
    // Everything after this point ends the row as active or failed: a cluster never stays `creating` because a step
    // before the servers (reading the sealed password, the folder) failed.
    try {
      const adminPassword = row.pending_admin_secret ? (await credentials()).open<{ password: string }>(row.pending_admin_secret).password : undefined;
      const nodes = await provisioner.provision(planOf(row), { signal, progress, adminPassword });
      await setClusterStatus(platform.db, clusterId, 'active', null, { host: nodes[0].host, http_port: nodes[0].httpPort, tcp_port: nodes[0].tcpPort, clearSecret: true });
      return { nodes: nodes.length };
    } catch (error) {
      if (signal.aborted) throw error; // shutdown or cancel: the job is handed back and resumes
      const reason = error instanceof ProvisionError ? error.message : 'The cluster could not be created because of an internal error.';
      if (!(error instanceof ProvisionError)) platform.log(`[clickhouse] cluster ${clusterId} could not be created: ${error instanceof Error ? error.stack : String(error)}`);
      // No server of a failed cluster keeps running; its folder stays until the cluster is deleted.
      await provisioner.stop(clusterId).catch(() => undefined);
      await setClusterStatus(platform.db, clusterId, 'failed', reason, { clearSecret: true });
      return { failed: reason };
    }
  }

  // The servers and folder go whether the row is still there or not: a project deletion removes the cluster rows
  // (ON DELETE CASCADE) in the same transaction that enqueued this job, so a missing row is no reason to keep them.
  async function deleteJob(clusterId: number) {
    await provisioner.destroy(clusterId);
    const row = await findCluster(platform.db, clusterId);
    if (!row) return { gone: true, destroyed: clusterId };
    await deleteClusterRow(platform.db, clusterId);
    return { deleted: clusterId };
  }

  /** Platform start, off the request path: the active clusters' servers start again, a few clusters at a time. */
  async function restoreClusters() {
    const active = await listClustersWithStatus(platform.db, ['active', 'stopped']);
    const failures = await provisioner.restore(active.map(planOf));
    for (const failure of failures) {
      if (closed) return;
      platform.log(`[clickhouse] cluster ${failure.clusterId} did not come back: ${failure.reason}`);
      await provisioner.stop(failure.clusterId).catch(() => undefined);
      await setClusterStatus(platform.db, failure.clusterId, 'failed', `The servers did not start again after a platform restart: ${failure.reason}`);
    }
    for (const row of active) {
      if (row.status === 'stopped' && !failures.some((f) => f.clusterId === row.id)) {
        await platform.db.query("UPDATE clickhouse_clusters SET status = 'active', status_reason = NULL WHERE id = $1 AND status = 'stopped'", [row.id]);
      }
    }
  }

  const backend: ClickhouseBackend = {
    slug: 'clickhouse',
    provisioner,
    credentials,

    // Enabled directly (spec §2): clusters are created afterwards with POST integrations/clickhouse/clusters.
    async enable() {
      return {};
    },

    async release(tx, integration) {
      for (const row of await listProjectClusters(tx, integration.projectId)) {
        if (row.is_external) await deleteClusterRow(tx, row.id);
        else if (row.status !== 'deleting') await backend.scheduleDeletion(tx, row);
      }
    },

    async scheduleDeletion(db, row) {
      await setClusterStatus(db, row.id, 'deleting', null);
      await platform.jobs.enqueue(db, DELETE_JOB, { subject: clusterSubject(row.id), payload: { clusterId: row.id }, maxAttempts: 5 });
    },

    registerRoutes(router, ctx) {
      registerClickhouseRoutes(router, ctx, backend);
    },

    async start() {
      platform.jobs.register(PROVISION_JOB, async ({ job, signal, progress }) => provisionJob(Number((job.payload as { clusterId: number }).clusterId), signal, progress));
      platform.jobs.register(DELETE_JOB, async ({ job }) => deleteJob(Number((job.payload as { clusterId: number }).clusterId)));
      platform.services.register({ slug: 'clickhouse', name: 'ClickHouse' }, 'Managed clusters', async () => {
        const active = await listClustersWithStatus(platform.db, ['active']);
        const answers = await Promise.all(active.map((row) => provisioner.healthy(row.id)));
        return answers.every(Boolean);
      });
      // Servers of clusters that no longer exist (their project was deleted meanwhile) are stopped and removed;
      // the active ones are started again in the background, so requests are served meanwhile.
      const all = await platform.db.query<{ id: number }>('SELECT id FROM clickhouse_clusters WHERE NOT is_external');
      await provisioner.removeOrphans(new Set(all.map((r) => r.id)));
      restoring = restoreClusters().catch((error) => platform.log(`[clickhouse] restoring the clusters failed: ${error instanceof Error ? error.message : String(error)}`));
    },

    versions() {
      // Read once: the installed package does not change while the platform runs (a failed read is tried again).
      versionsRead ??= (options.versions ?? (() => localClickhouseVersions(CLICKHOUSE_SERVER_BIN)))().then((list) => {
        if (list.length === 0) versionsRead = undefined;
        return list;
      });
      return versionsRead;
    },

    serialize(clusterId, change) {
      const next = (changes.get(clusterId) ?? Promise.resolve()).catch(() => undefined).then(change);
      changes.set(clusterId, next);
      void next.finally(() => {
        if (changes.get(clusterId) === next) changes.delete(clusterId);
      }).catch(() => undefined);
      return next;
    },

    /** Resolves when the start-up restore of the clusters has finished (tests, benchmarks). */
    restored: () => restoring ?? Promise.resolve(),

    async close() {
      closed = true;
      await provisioner.close();
      await restoring;
    },
  };
  return backend;
}

export const clickhouseFactory: ProductFactory = (platform) => createClickhouseBackend(platform);
