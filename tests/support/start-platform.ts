import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type PlatformConfig } from '../../server/config';
import { startPlatform, type RunningPlatform, type StartPlatformOptions } from '../../server/platform';
import { createFreshPostgresDatabase } from './postgres';

export interface TestPlatformOptions {
  /** Write the demo data. Default true. */
  seed?: boolean;
  /** Extra environment for loadConfig (e.g. ACCESS_TOKEN_TTL). PORT and DATA_DIR are chosen here. */
  env?: Record<string, string>;
  /** Reuse this data folder (to test a restart); it is then not removed by stop(). */
  dataDir?: string;
  /** Reuse this PostgreSQL database URL (to test a restart against TEST_DATABASE_URL). */
  databaseUrl?: string;
  /** A fixed port (to restart on the same origin); default a free one. */
  port?: number;
  quiet?: boolean;
  /** Product back ends besides the installation's (a recording test product). */
  extraProducts?: StartPlatformOptions['extraProducts'];
  lifecycleIntervalMs?: number;
  /** Also write the demo states of `npm start` (server/products/demo-states.ts). Default false. */
  demoStates?: boolean;
  /** Use the embedded database even when TEST_DATABASE_URL names a server (tests that run on both). */
  embedded?: boolean;
}

export interface TestPlatform extends RunningPlatform {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Stops the platform and deletes the data it created (temp folder or test database). */
  stop(): Promise<void>;
  /** Stops the platform but keeps its data, for a restart on the same data. */
  stopKeepingData(): Promise<void>;
}

/**
 * A real platform on a free port with its own empty data: a temp folder for the embedded database, or, when
 * TEST_DATABASE_URL names a PostgreSQL server, a fresh database created for this run and dropped by stop().
 */
export async function startTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const ownsDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'platform-test-')));
  let databaseUrl = options.databaseUrl;
  let dropDatabase: (() => Promise<void>) | undefined;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl && serverUrl && !options.embedded) {
    const created = await createFreshPostgresDatabase(serverUrl);
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const config: PlatformConfig = loadConfig({
    NODE_ENV: 'test',
    DEV_PAGES: 'true',
    // The social sign-in stand-in on a free port of its own: beside a fixed PORT (a restart on the same origin) it
    // would otherwise take PORT + 1, which any other socket on the machine may hold by then (EADDRINUSE in CI).
    SOCIAL_STAND_IN_PORT: '0',
    ...options.env,
    PORT: String(options.port ?? 0),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  let platform: RunningPlatform;
  try {
    platform = await startPlatform(config, {
      seed: options.seed,
      demoStates: options.demoStates,
      quiet: options.quiet ?? true,
      extraProducts: options.extraProducts,
      lifecycleIntervalMs: options.lifecycleIntervalMs,
    });
  } catch (error) {
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    await dropDatabase?.();
    throw error;
  }
  let stopped = false;
  const stopKeepingData = async () => {
    if (stopped) return;
    stopped = true;
    await platform.close();
  };
  return {
    ...platform,
    dataDir,
    databaseUrl,
    stopKeepingData,
    async stop() {
      await stopKeepingData();
      if (ownsDir) await rm(dataDir, { recursive: true, force: true });
      await dropDatabase?.();
    },
  };
}
