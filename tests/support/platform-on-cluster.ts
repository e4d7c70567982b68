import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/database';
import { seedDemoData } from '../../server/db/seed';
import type { LocalClickhouseCluster } from './clickhouse-cluster';
import { startTestPlatform, type TestPlatform } from './start-platform';

/** The QRYN_CLICKHOUSE_* settings of a platform that stores on the cluster. */
export const clusterEnv = (cluster: LocalClickhouseCluster, extra: Record<string, string> = {}): Record<string, string> => ({
  QRYN_CLICKHOUSE_URL: cluster.url,
  QRYN_CLICKHOUSE_USER: cluster.user,
  QRYN_CLICKHOUSE_PASSWORD: cluster.password,
  QRYN_CLICKHOUSE_CLUSTER: cluster.name,
  ...extra,
});

/**
 * A platform on the embedded database that stores qryn on the cluster, with the demo data seeded beforehand (so it
 * provisions no demo products of its own); stop() also removes its data folder.
 */
export async function startPlatformOnCluster(cluster: LocalClickhouseCluster, extra: Record<string, string> = {}): Promise<TestPlatform> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'platform-on-cluster-'));
  try {
    const setup = await openDatabase({ dataDir });
    await seedDemoData(setup);
    await setup.close();
    const platform = await startTestPlatform({ embedded: true, dataDir, seed: false, env: clusterEnv(cluster, extra) });
    return {
      ...platform,
      async stop() {
        await platform.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
