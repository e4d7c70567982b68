import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Owns the clickhouse-server processes of this platform. A process is spawned attached (detached: false, its own
// pid file in its folder); close() stops them all, and a hook on the platform's exit kills whatever is still
// running, so none outlives the platform. After a crash of the platform, start-up finds the pid files: a pid that
// is alive and runs this folder's config is adopted, anything else is started again.

export const CLICKHOUSE_SERVER_BIN = process.env.CLICKHOUSE_SERVER_BIN ?? '/usr/sbin/clickhouse-server';

const PID_FILE = 'server.pid';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether pid is a clickhouse-server running the config of this folder (not a recycled pid). */
function runsConfig(pid: number, configPath: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(configPath));
  } catch {
    return false;
  }
}

export interface SupervisedProcess {
  dir: string;
  pid: number;
  /** Set when this platform spawned it (not adopted). */
  child?: ChildProcess;
}

export class ProcessSupervisor {
  private readonly processes = new Map<string, SupervisedProcess>();
  private readonly onExit = () => {
    for (const p of this.processes.values()) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  constructor(private readonly log: (message: string) => void = () => undefined) {
    process.on('exit', this.onExit);
  }

  /** The running process of this folder: adopted from its pid file when alive, else started. */
  async ensureRunning(dir: string): Promise<SupervisedProcess> {
    const known = this.processes.get(dir);
    if (known && this.running(dir)) return known;
    const configPath = path.join(dir, 'config.xml');
    const pidFromFile = Number((await readFile(path.join(dir, PID_FILE), 'utf8').catch(() => '')).trim());
    if (pidFromFile > 0 && isAlive(pidFromFile) && runsConfig(pidFromFile, configPath)) {
      this.log(`[clickhouse] adopted server ${pidFromFile} of ${dir}`);
      const adopted = { dir, pid: pidFromFile };
      this.processes.set(dir, adopted);
      return adopted;
    }
    const out = openSync(path.join(dir, 'log', 'stdout.log'), 'a');
    let child: ChildProcess;
    try {
      child = spawn(CLICKHOUSE_SERVER_BIN, [`--config-file=${configPath}`], { cwd: dir, detached: false, stdio: ['ignore', out, out] });
    } finally {
      closeSync(out);
    }
    if (!child.pid) {
      const error = await new Promise<Error>((resolve) => child.once('error', resolve));
      throw new Error(`clickhouse-server could not be started: ${error.message}`);
    }
    child.on('error', () => undefined);
    const started = { dir, pid: child.pid, child };
    this.processes.set(dir, started);
    await writeFile(path.join(dir, PID_FILE), String(child.pid));
    return started;
  }

  /** True while the process of this folder runs. */
  running(dir: string): boolean {
    const p = this.processes.get(dir);
    if (!p) return false;
    if (p.child) return p.child.exitCode === null && p.child.signalCode === null;
    return isAlive(p.pid);
  }

  /**
   * Stops the process of this folder (and one left behind by an earlier platform, by its pid file). 'graceful' lets
   * the server finish (SIGTERM; 18.16 takes about 5 s); 'kill' is for a server whose data is about to be removed.
   */
  async stop(dir: string, mode: 'graceful' | 'kill' = 'graceful'): Promise<void> {
    const known = this.processes.get(dir);
    this.processes.delete(dir);
    const pids = new Set<number>();
    if (known) pids.add(known.pid);
    const fromFile = Number((await readFile(path.join(dir, PID_FILE), 'utf8').catch(() => '')).trim());
    if (fromFile > 0 && isAlive(fromFile) && runsConfig(fromFile, path.join(dir, 'config.xml'))) pids.add(fromFile);
    await Promise.all([...pids].map((pid) => stopPid(pid, mode === 'kill' ? 'SIGKILL' : 'SIGTERM')));
    await rm(path.join(dir, PID_FILE), { force: true });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.processes.keys()].map((dir) => this.stop(dir)));
  }

  close(): Promise<void> {
    process.off('exit', this.onExit);
    return this.stopAll();
  }
}

/** The signal, then SIGKILL after 5 s; resolves when the pid is gone. */
async function stopPid(pid: number, signal: NodeJS.Signals): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + 5_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
    while (isAlive(pid)) await new Promise((r) => setTimeout(r, 20));
  }
}
