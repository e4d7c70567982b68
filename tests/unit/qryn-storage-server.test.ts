import { afterAll, describe, expect, it } from 'vitest';
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStorageServer } from '../../server/products/qryn/storage/storage-server';

// The shared storage server: started as a child with a rendered <yandex> config, stopped on close, never left behind
// by a killed platform, and replaced on the next start when one is found from an earlier platform.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const waitFor = async (check: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return check();
};

const dirs: string[] = [];
const freshDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the shared storage server', () => {
  it('starts with the platform-rendered config, answers with its credentials only, and stops on close', async () => {
    const dir = await freshDir();
    const server = await startStorageServer({ dir });
    try {
      expect(await readFile(path.join(dir, 'config.xml'), 'utf8')).toMatch(/^<\?xml[^>]*>\s*<!--[^>]*-->\s*<yandex>/);
      expect(JSON.parse(await readFile(path.join(dir, 'supervisor.json'), 'utf8')).server.pid).toBe(server.pid);
      const answer = await fetch(`${server.url}/?query=SELECT%20version()`, { headers: { 'X-ClickHouse-User': server.user, 'X-ClickHouse-Key': server.password } });
      expect((await answer.text()).trim()).toMatch(/^\d+\.\d+/);
      const wrong = await fetch(`${server.url}/?query=SELECT%201`, { headers: { 'X-ClickHouse-User': server.user, 'X-ClickHouse-Key': 'wrong' } });
      expect(wrong.status).not.toBe(200);
    } finally {
      await server.close();
    }
    expect(alive(server.pid)).toBe(false);
    expect(await server.ping()).toBe(false);
  });

  it('a platform killed with SIGKILL does not leave its server running', async () => {
    const dir = await freshDir();
    const child = fork(path.join(import.meta.dirname, '../support/storage-server-child.ts'), [dir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { pid: number }).pid));
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    expect(alive(pid)).toBe(true);
    child.kill('SIGKILL');
    expect(await waitFor(() => !alive(pid), 20_000)).toBe(true);
  });

  it('a start that finds a server from an earlier platform stops it and starts a fresh one on the same data', async () => {
    const dir = await freshDir();
    const first = await startStorageServer({ dir });
    // Simulate a platform that vanished without closing: a second start on the same folder.
    const second = await startStorageServer({ dir });
    try {
      expect(second.pid).not.toBe(first.pid);
      expect(await waitFor(() => !alive(first.pid), 5_000)).toBe(true);
      expect(await second.ping()).toBe(true);
      // The first platform's supervisor does not start it again on the folder the second one runs.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await second.ping()).toBe(true);
      expect(JSON.parse(await readFile(path.join(dir, 'supervisor.json'), 'utf8')).server.pid).toBe(second.pid);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('the storage server under the supervisor (fault injection)', () => {
  const pingAs = (endpoint: { url: string; user: string; password: string }) =>
    fetch(`${endpoint.url}/?query=SELECT%201`, { headers: { 'X-ClickHouse-User': endpoint.user, 'X-ClickHouse-Key': endpoint.password }, signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.ok,
      () => false,
    );
  const waitForAsync = async (check: () => Promise<boolean>, ms: number) => {
    const until = Date.now() + ms;
    while (!(await check()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    return check();
  };

  it('a storage server killed with SIGKILL is back within seconds, on the same endpoint', async () => {
    const dir = await freshDir();
    const server = await startStorageServer({ dir, restart: { initialDelayMs: 200 } });
    try {
      const before = server.pid;
      process.kill(before, 'SIGKILL');
      const started = Date.now();
      expect(await waitForAsync(async () => server.pid !== before && (await server.ping()), 20_000)).toBe(true);
      console.log(`[measure] storage server back ${Date.now() - started} ms after SIGKILL`);
      expect(alive(before)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a paused (SIGSTOP) storage server is killed and restarted by the liveness probe', async () => {
    const dir = await freshDir();
    const server = await startStorageServer({ dir, restart: { initialDelayMs: 200 }, liveness: { intervalMs: 300, failures: 3 } });
    try {
      const before = server.pid;
      // Paused at once: the start's own readiness check counts as the server's first answer, so no probe tick has to
      // have answered before the pause for it to be noticed.
      process.kill(before, 'SIGSTOP');
      expect(await waitForAsync(async () => server.pid !== before && (await server.ping()), 30_000)).toBe(true);
      expect(await waitFor(() => !alive(before), 5_000)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('SYSTEM SHUTDOWN on the storage server leaves the platform process running, and the server comes back', async () => {
    const dir = await freshDir();
    // A process group of its own: a fault that reached the group would stop that stand-in, never the test runner.
    const child = fork(path.join(import.meta.dirname, '../support/storage-server-child.ts'), [dir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
    let exited = false;
    child.once('exit', () => (exited = true));
    try {
      const started = await new Promise<{ pid: number; url: string; user: string; password: string }>((resolve, reject) => {
        child.once('message', (m) => resolve(m as { pid: number; url: string; user: string; password: string }));
        child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
      });
      // ClickHouse 18.16 answers SYSTEM SHUTDOWN with kill(0, SIGTERM): its whole process group.
      await fetch(`${started.url}/`, { method: 'POST', body: 'SYSTEM SHUTDOWN', headers: { 'X-ClickHouse-User': started.user, 'X-ClickHouse-Key': started.password } }).catch(() => undefined);
      expect(await waitFor(() => !alive(started.pid), 20_000)).toBe(true);
      expect(exited).toBe(false);
      const pong = await new Promise<{ pid: number }>((resolve, reject) => {
        child.once('message', (m) => resolve(m as { pid: number }));
        child.send('ping');
        setTimeout(() => reject(new Error('no answer from the platform process')), 5_000);
      });
      expect(pong.pid).toBeGreaterThan(0);
      expect(await waitForAsync(() => pingAs(started), 20_000)).toBe(true);
    } finally {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
    }
  });
});

describe('without a ClickHouse binary', () => {
  it('start fails with a message naming the install script', async () => {
    const dir = await freshDir();
    await expect(startStorageServer({ dir, binary: path.join(dir, 'no-such-clickhouse') })).rejects.toThrow(/install-clickhouse\.sh/);
  });
});
