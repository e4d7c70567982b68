import { afterAll, describe, expect, it } from 'vitest';
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStorageServer } from '../../server/products/qryn/storage-server';

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
      expect(JSON.parse(await readFile(path.join(dir, 'server.json'), 'utf8')).pid).toBe(server.pid);
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
      expect(alive(first.pid)).toBe(false);
      expect(await second.ping()).toBe(true);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('without a ClickHouse binary', () => {
  it('start fails with a message naming the install script', async () => {
    const dir = await freshDir();
    await expect(startStorageServer({ dir, binary: path.join(dir, 'no-such-clickhouse') })).rejects.toThrow(/install-clickhouse\.sh/);
  });
});
