import type { Queryable } from '../../db/database';
import {
  deleteClusterRow,
  findCluster,
  listClustersWithStatus,
  listProjectClusters,
  setClusterStatus,
  type ClusterRow,
} from '../../db/repositories/clickhouse-repository';
import type { ProductBackend, ProductFactory, ProductPlatform } from '../product-backend';
import { loadCredentialBox, type CredentialBox } from './credentials';
import { registerClickhouseRoutes } from './clickhouse-routes';
import { clustersRoot, createLocalProvisioner, type LocalProvisioner } from './local-provisioner';
import { ProvisionError } from './provisioner';
import { clusterSubject, DELETE_JOB, planOf, PROVISION_JOB } from './cluster-records';

// The ClickHouse product: clusters of a project, managed (servers run by the provisioner) or external. Creating and
// deleting a managed cluster are jobs worked by the platform (kinds below); the request only records the intent.

export interface ClickhouseBackend extends ProductBackend {
  readonly provisioner: LocalProvisioner;
  credentials(): Promise<CredentialBox>;
  /** Marks a managed cluster deleting and enqueues its deletion (on `db`, e.g. the caller's transaction). */
  scheduleDeletion(db: Queryable, row: ClusterRow): Promise<void>;
}

export interface ClickhouseBackendOptions {
  maxProcessesPerCluster?: number;
  maxProcesses?: number;
}

export function createClickhouseBackend(platform: ProductPlatform, options: ClickhouseBackendOptions = {}): ClickhouseBackend {
  const envNumber = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const provisioner = createLocalProvisioner({
    db: platform.db,
    root: clustersRoot(platform.config.dataDir),
    maxProcessesPerCluster: options.maxProcessesPerCluster ?? envNumber('CLICKHOUSE_MAX_PROCESSES_PER_CLUSTER'),
    maxProcesses: options.maxProcesses ?? envNumber('CLICKHOUSE_MAX_PROCESSES'),
    log: platform.log,
  });
  let box: Promise<CredentialBox> | undefined;
  const credentials = () => (box ??= loadCredentialBox(platform.db).catch((error) => {
    box = undefined;
    throw error;
  }));

  async function provisionJob(clusterId: number, signal: AbortSignal, progress: (c: number, m: number) => Promise<void>) {
    const row = await findCluster(platform.db, clusterId);
    if (!row || row.status !== 'creating') return { skipped: true };
    const adminPassword = row.pending_admin_secret ? (await credentials()).open<{ password: string }>(row.pending_admin_secret).password : undefined;
    try {
      const nodes = await provisioner.provision(planOf(row), { signal, progress, adminPassword });
      await setClusterStatus(platform.db, clusterId, 'active', null, { host: nodes[0].host, http_port: nodes[0].httpPort, tcp_port: nodes[0].tcpPort, clearSecret: true });
      return { nodes: nodes.length };
    } catch (error) {
      if (signal.aborted) throw error; // shutdown or cancel: the job is handed back and resumes
      const reason = error instanceof ProvisionError ? error.message : `The cluster could not be created: ${error instanceof Error ? error.message : String(error)}`;
      // No server of a failed cluster keeps running; its folder stays until the cluster is deleted.
      await provisioner.stop(clusterId).catch(() => undefined);
      await setClusterStatus(platform.db, clusterId, 'failed', reason, { clearSecret: true });
      return { failed: reason };
    }
  }

  async function deleteJob(clusterId: number) {
    const row = await findCluster(platform.db, clusterId);
    if (!row) return { gone: true };
    await provisioner.destroy(clusterId);
    await deleteClusterRow(platform.db, clusterId);
    return { deleted: clusterId };
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
      // the active ones are adopted or started again.
      const all = await platform.db.query<{ id: number }>('SELECT id FROM clickhouse_clusters WHERE NOT is_external');
      await provisioner.removeOrphans(new Set(all.map((r) => r.id)));
      const active = await listClustersWithStatus(platform.db, ['active']);
      const failures = await provisioner.restore(active.map(planOf));
      for (const failure of failures) {
        platform.log(`[clickhouse] cluster ${failure.clusterId} did not come back: ${failure.reason}`);
        await setClusterStatus(platform.db, failure.clusterId, 'failed', `The servers did not start again after a platform restart: ${failure.reason}`);
      }
    },

    close: () => provisioner.close(),
  };
  return backend;
}

export const clickhouseFactory: ProductFactory = (platform) => createClickhouseBackend(platform);
