// Demo data only when asked for (issue 16, item 2) and developer pages only on loopback (item 3): a production start
// writes no demo accounts and refuses to run with them present unless SEED_DEMO_DATA=true says it is on purpose.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config';
import { startPlatform, type RunningPlatform } from '../../server/platform';
import { authenticateUser } from '../../server/db/repositories/users-repository';
import { DEMO_PASSWORD } from '../../server/db/seed';

const folders: string[] = [];
const running: RunningPlatform[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
  while (folders.length) await rm(folders.pop()!, { recursive: true, force: true });
  vi.restoreAllMocks();
});

async function start(env: Record<string, string>, dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'production-start-')));
  if (!dataDir) folders.push(dir);
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, ...env });
  const platform = await startPlatform(config, { quiet: true });
  running.push(platform);
  return { platform, dir };
}

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://console.example.com' };

describe('demo data and production', () => {
  it('settings: demo data on for a local start, off in production; dev pages only on loopback unless named', () => {
    expect(loadConfig({}).seedDemoData).toBe(true);
    expect(loadConfig(PRODUCTION).seedDemoData).toBe(false);
    expect(loadConfig({ ...PRODUCTION, SEED_DEMO_DATA: 'true' }).seedDemoData).toBe(true);
    expect(loadConfig({ SEED_DEMO_DATA: 'false' }).seedDemoData).toBe(false);
    expect(loadConfig({ HOST: '127.0.0.1' }).devPages).toBe(true);
    expect(loadConfig({ HOST: '::1' }).devPages).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0' }).devPages).toBe(false);
    expect(loadConfig({ HOST: '192.168.1.10' }).devPages).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', DEV_PAGES: 'true' }).devPages).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).devPages).toBe(false);
  });

  it('a production start has no demo accounts', async () => {
    const { platform } = await start(PRODUCTION);
    expect(await platform.db.query("SELECT email FROM users WHERE email LIKE '%@example.com'")).toEqual([]);
    expect(await authenticateUser(platform.db, 'demo@example.com', DEMO_PASSWORD)).toBeUndefined();
    expect(await platform.db.query('SELECT id FROM organizations')).toEqual([]);
  });

  it('a production start with the demo accounts present refuses; SEED_DEMO_DATA=true runs with a loud warning', async () => {
    const local = await start({});
    expect(await authenticateUser(local.platform.db, 'demo@example.com', DEMO_PASSWORD)).toBeDefined();
    await running.pop()!.close();

    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: local.dir, ...PRODUCTION });
    await expect(startPlatform(config, { quiet: true })).rejects.toThrow(/Refusing to start in production: the demo accounts demo@example.com, .* exist/);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await start({ ...PRODUCTION, SEED_DEMO_DATA: 'true' }, local.dir);
    expect(warn.mock.calls.flat().join(' ')).toMatch(/WARNING: NODE_ENV=production with the demo accounts/);
  });
});
