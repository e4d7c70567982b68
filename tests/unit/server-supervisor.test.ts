import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, ServerSupervisor, startTicks, type ExitReport } from '../../server/processes/server-supervisor';

// The supervisor with a stand-in server (sleep with a distinctive argument as its identity): its own process
// group, the wrap seam, restart with a report, no restart after stop(), and no signal to a pid that is no longer
// the recorded process.

const dirs: string[] = [];
const freshDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'supervisor-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const waitFor = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return check();
};
const pgid = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]);

describe('the server supervisor', () => {
  it('runs the server in a process group of its own, through the wrap seam, and restarts it with a report when it dies', async () => {
    const dir = await freshDir();
    const identity = `${86_400 + Math.floor(Math.random() * 10_000)}`;
    const reports: ExitReport[] = [];
    const pids: number[] = [];
    const supervisor = new ServerSupervisor();
    try {
      const pid = await supervisor.start({
        name: 'stand-in',
        dir,
        command: 'sleep',
        args: [identity],
        identity,
        wrap: ['env', 'SUPERVISED_BY=platform'],
        restart: { initialDelayMs: 50 },
        onExit: (report) => void reports.push(report),
        onPid: (p) => void pids.push(p),
      });
      expect(pgid(pid)).not.toBe(pgid(process.pid));
      // The wrapper (env) sets the variable and then execs the server: its environ shows it only after the exec.
      expect(await waitFor(() => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep')).toBe(true);
      expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain('SUPERVISED_BY=platform');
      process.kill(pid, 'SIGKILL');
      expect(await waitFor(() => pids.length === 2 && supervisor.running(dir))).toBe(true);
      expect(reports).toEqual([expect.objectContaining({ attempt: 1, restarting: true, reason: 'was killed by signal 9' })]);
      const second = pids[1];
      await supervisor.stop(dir);
      expect(isAlive(second) && startTicks(second) !== undefined).toBe(false);
      await new Promise((r) => setTimeout(r, 300));
      expect(pids).toHaveLength(2);
      expect(reports).toHaveLength(1);
    } finally {
      await supervisor.close();
    }
  });

  it('counts a server that hangs right after its start as hung once the starter saw it answer', async () => {
    const dir = await freshDir();
    const identity = `${76_400 + Math.floor(Math.random() * 10_000)}`;
    const pids: number[] = [];
    const supervisor = new ServerSupervisor();
    // The stand-in answers while it is not paused (a paused process is state T in /proc/<pid>/stat).
    const answers = () => {
      const pid = supervisor.pid(dir);
      try {
        return pid !== undefined && readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] !== 'T';
      } catch {
        return false;
      }
    };
    try {
      const first = await supervisor.start({
        name: 'stand-in',
        dir,
        command: 'sleep',
        args: [identity],
        identity,
        probe: async () => answers(),
        liveness: { intervalMs: 100, failures: 3 },
        restart: { initialDelayMs: 50 },
        onPid: (p) => void pids.push(p),
      });
      expect(await waitFor(() => answers())).toBe(true);
      supervisor.answered(dir);
      // Paused before any liveness tick could see it answer: only the starter's word makes the misses count.
      process.kill(first, 'SIGSTOP');
      expect(await waitFor(() => pids.length === 2 && supervisor.running(dir), 15_000)).toBe(true);
      expect(isAlive(first) && startTicks(first) !== undefined).toBe(false);
    } finally {
      await supervisor.close();
    }
  });

  it('signals no pid that is not the recorded process any more (another start time)', async () => {
    const dir = await freshDir();
    const identity = `${96_400 + Math.floor(Math.random() * 10_000)}`;
    const bystander = spawn('sleep', [identity], { stdio: 'ignore' });
    try {
      const ticks = startTicks(bystander.pid!)!;
      // A record from an earlier platform whose pid was since reused by an unrelated process with the same text.
      await writeFile(path.join(dir, 'supervisor.json'), JSON.stringify({ watchdog: { pid: bystander.pid, startTicks: ticks - 1 }, server: { pid: bystander.pid, startTicks: ticks - 1 }, identity }));
      const supervisor = new ServerSupervisor();
      await supervisor.stop(dir);
      await supervisor.close();
      expect(bystander.exitCode).toBeNull();
      expect(startTicks(bystander.pid!)).toBe(ticks);
    } finally {
      bystander.kill('SIGKILL');
    }
  });
});
