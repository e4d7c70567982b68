import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { seedDemoData } from '../../server/db/seed';
import { findUserByEmail } from '../../server/db/repositories/users-repository';
import { createTokenMinter } from '../support/mint-token';
import { createFreshPostgresDatabase, databaseTargets } from '../support/postgres';
import { freePort } from '../support/free-port';

// kill -9 in the middle of a burst of writes: every write the platform answered 2xx must be there after a restart
// on the same data. The platform runs as a real child process (server/main.ts), killed without any chance to flush.

function startPlatformProcess(env: Record<string, string>): ChildProcess {
  // node --import tsx runs main.ts in this one process, so SIGKILL hits the server itself (no wrapper in between).
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, ...env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.resume();
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = (errors + chunk).slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) console.error(`[durability] platform exited with ${code ?? signal}: ${errors}`);
  });
  return child;
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`platform exited early with code ${child.exitCode}`);
    try {
      // The server listens before it is ready; a request in that window waits, so each attempt has a deadline.
      const response = await fetch(`${baseUrl}/api/stripe/config`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('platform did not become ready in time');
}

async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe.each(databaseTargets())('kill -9 durability ($kind)', (target) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('every write answered 2xx before SIGKILL is there after the restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'api-durability-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (target.kind === 'postgres') {
      const fresh = await createFreshPostgresDatabase(target.serverUrl);
      databaseUrl = fresh.url;
      cleanups.push(fresh.drop);
    }
    const log = (m: string) => process.env.DEBUG_DURABILITY && console.log(`[durability] ${m}`);
    const port = await freePort();
    // The stand-in on a free port: PORT + 1 may be any other socket's by the restart.
    const env: Record<string, string> = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SOCIAL_STAND_IN_PORT: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    const config = loadConfig(env);
    const baseUrl = config.publicUrl;

    // Prepare the data (migrations, demo users, signing key) and mint a token before the platform holds the database.
    const setup = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir });
    await seedDemoData(setup);
    const mint = await createTokenMinter(setup, config);
    const token = await mint((await findUserByEmail(setup, 'demo@example.com'))!, { expiresIn: 3600 });
    await setup.close();

    log("setup done");
    let child = startPlatformProcess(env);
    cleanups.push(() => killHard(child));
    await waitUntilReady(baseUrl, child);

    log("ready");
    const acknowledged: string[] = [];
    let killed = false;
    const KILL_AFTER = 40;
    const worker = async (w: number) => {
      for (let i = 0; i < 100 && !killed; i++) {
        const name = `Burst ${w}-${i}`;
        try {
          const response = await fetch(`${baseUrl}/api/projects/`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
            signal: AbortSignal.timeout(10_000),
          });
          if (response.status === 201) {
            await response.json();
            acknowledged.push(name);
            if (acknowledged.length >= KILL_AFTER && !killed) {
              killed = true;
              child.kill('SIGKILL');
            }
          }
        } catch {
          // The connection died with the server: this write was never acknowledged.
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    log(`burst done, ${acknowledged.length} acknowledged`);
    expect(killed).toBe(true);
    await killHard(child);
    expect(child.signalCode).toBe('SIGKILL');

    child = startPlatformProcess(env);
    await waitUntilReady(baseUrl, child);
    const response = await fetch(`${baseUrl}/api/projects/`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const names = new Set(((await response.json()) as { name: string }[]).map((p) => p.name));
    const lost = acknowledged.filter((name) => !names.has(name));
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(lost).toEqual([]);
    await killHard(child);
  }, 180_000);
});
