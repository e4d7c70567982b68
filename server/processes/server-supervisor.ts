import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

// One supervisor for every server process the platform runs (the shared storage ClickHouse and the managed
// clusters' ClickHouse servers). Each server runs under a small shell watchdog, and the two of them form a session
// and process group of their own (setsid): ClickHouse 18.16 runs SYSTEM SHUTDOWN and SYSTEM KILL as kill(0, …),
// which signals its whole process group — in the platform's group that stopped the platform and every tenant.
//
// The watchdog stops the server when the platform process is gone (also after kill -9 of the platform), and exits
// when the server exits. Its exit is the supervisor's exit event: unless the server was being stopped on purpose,
// it is reported and the server started again with backoff. A liveness probe (when given) catches a server that
// runs but does not answer (paused with SIGSTOP, hung): after a few failed probes the group is killed and restarted.
//
// Before any signal the supervisor checks the target is still that server: its own child that has not exited yet,
// or, for a server left by an earlier platform, a pid whose start time and command line match the state file.
//
// The spawn seam: `wrap` is put in front of the server's command (e.g. ['ip', 'netns', 'exec', 'ch-12']), so the
// watchdog still watches the platform and signals the server from outside the wrapper.

export interface ExitReport {
  /** "exited with code 1", "was killed by SIGKILL", "did not answer its probe 3 times" … */
  reason: string;
  /** Consecutive failures so far (1 for the first). */
  attempt: number;
  /** Whether the supervisor will start it again (false: stopped on purpose, given up, or refused by beforeRestart). */
  restarting: boolean;
  /** Milliseconds until the restart. */
  delayMs: number;
}

export interface ServerSpec {
  /** For logs: "storage", "cluster 12 node 1". */
  name: string;
  /** The server's folder: the state file (supervisor.json) and stdout.log live there. */
  dir: string;
  command: string;
  args: readonly string[];
  /** A text that the server's command line contains (its config path): the identity checked before signals. */
  identity: string;
  /** Put in front of the command (network namespace, resource limits …). */
  wrap?: readonly string[];
  /** Answers whether the running server serves (readiness after a restart, liveness while up). */
  probe?: () => Promise<boolean>;
  /** Liveness: probe every intervalMs once up; kill and restart after `failures` failures in a row. 0 disables. */
  liveness?: { intervalMs?: number; failures?: number };
  restart?: {
    /** First backoff; doubled per consecutive failure up to maxDelayMs. */
    initialDelayMs?: number;
    maxDelayMs?: number;
    /** After this many consecutive failures the supervisor gives up (onGaveUp). */
    maxAttempts?: number;
    /** How long a restarted server may take to answer its probe. */
    readyTimeoutMs?: number;
    /** A server up this long has its failure count reset. */
    stableMs?: number;
  };
  /** Asked before each restart: false means the server's owner is gone (cluster deleted), so it is not started. */
  beforeRestart?: () => Promise<boolean>;
  onExit?: (report: ExitReport) => void | Promise<void>;
  /** A restarted server answers its probe again. */
  onRecovered?: (pid: number) => void | Promise<void>;
  onGaveUp?: (reason: string) => void | Promise<void>;
  /** A new server pid (first start and each restart). */
  onPid?: (pid: number) => void | Promise<void>;
}

interface Identity {
  pid: number;
  /** /proc/<pid>/stat field 22: ticks since boot; a reused pid has another one. */
  startTicks: number;
}

interface StateFile {
  watchdog: Identity;
  server: Identity;
  identity: string;
}

interface Entry {
  spec: ServerSpec;
  watchdog: ChildProcess;
  /** Server pid as printed by the watchdog. */
  pid: number;
  /** Set when stop() was asked: the exit is expected, nothing restarts. */
  stopping: boolean;
  attempt: number;
  spawnedAt: number;
  /** When it first answered its probe (or was spawned, without a probe); 0 until then. */
  upSince: number;
  /** Why the supervisor itself killed it (liveness, no answer after a restart). */
  killedBecause?: string;
  timers: Set<NodeJS.Timeout>;
  exited: Promise<void>;
  /** Liveness failures in a row. */
  misses: number;
  /** A restart is pending (between exit and the new spawn). */
  pending?: NodeJS.Timeout;
}

const STATE_FILE = 'supervisor.json';

// $0 is the platform's pid, "$@" the server's command (its output goes to stdout.log). Prints the server's pid, then polls: when the platform is
// gone, or a TERM/INT/HUP arrives (SYSTEM SHUTDOWN signals the group), stops the server (TERM, KILL after 15 s).
// Exits with the server's status (128+n for a signal), or 143 when it stopped the server itself.
const WATCHDOG = `
"$@" >&2 &
server=$!
echo "$server"
stop() {
  trap '' TERM INT HUP
  kill -TERM "$server" 2>/dev/null
  i=0
  while kill -0 "$server" 2>/dev/null && [ "$i" -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
  kill -KILL "$server" 2>/dev/null
  exit "$1"
}
trap 'stop 143' TERM INT HUP
while kill -0 "$0" 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 1 & wait $!; done
if kill -0 "$0" 2>/dev/null; then
  wait "$server"
  exit $?
fi
stop 0
`;

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The start time of a pid (ticks since boot), or undefined when it is gone. */
export function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie (Z) or dead (X) process no longer runs: it counts as gone.
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return Number(fields[19]);
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** True when pid is still the process recorded (same start time) and its command line names the identity. */
export function isSameProcess(id: Identity, identity: string): boolean {
  return id.pid > 0 && startTicks(id.pid) === id.startTicks && commandLine(id.pid).includes(identity);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `its watchdog was killed by ${signal}`;
  if (code === 143) return 'was stopped by a signal to its process group (SYSTEM SHUTDOWN or a TERM)';
  if (code !== null && code > 128) return `was killed by signal ${code - 128}`;
  return `exited with code ${code}`;
}

export class ServerSupervisor {
  private readonly entries = new Map<string, Entry>();
  private closed = false;
  // Last resort when the platform exits without close(): the watchdogs would stop their servers within a second
  // anyway; this makes it immediate.
  private readonly onPlatformExit = () => {
    for (const entry of this.entries.values()) {
      if (this.ownsGroup(entry)) {
        try {
          process.kill(-entry.watchdog.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  };

  constructor(private readonly log: (message: string) => void = () => undefined) {
    process.on('exit', this.onPlatformExit);
  }

  /**
   * Starts the server of spec.dir under its watchdog (stopping one left there by an earlier platform first) and
   * supervises it from then on. Resolves with the server's pid once spawned; readiness is the caller's to wait for.
   */
  async start(spec: ServerSpec): Promise<number> {
    if (this.closed) throw new Error('The supervisor is closed.');
    const known = this.entries.get(spec.dir);
    if (known && !known.stopping && this.ownsGroup(known)) return known.pid;
    if (known) await this.stop(spec.dir);
    await stopLeftover(spec.dir, spec.identity, this.log);
    const entry = await this.spawn(spec, 0);
    return entry.pid;
  }

  /** True while the supervised server of this folder runs (not during a pending restart). */
  running(dir: string): boolean {
    const entry = this.entries.get(dir);
    return !!entry && this.ownsGroup(entry) && startTicks(entry.pid) !== undefined;
  }

  /** The pid of the server of this folder, when it runs. */
  pid(dir: string): number | undefined {
    const entry = this.entries.get(dir);
    return entry && this.ownsGroup(entry) ? entry.pid : undefined;
  }

  /**
   * The starter saw the server answer (its own readiness check): from now on the liveness probe counts misses. Without
   * this, a server that hung before the first probe tick answered would never be counted as hung.
   */
  answered(dir: string): void {
    const entry = this.entries.get(dir);
    if (entry && this.ownsGroup(entry)) entry.upSince ||= Date.now();
  }

  supervised(dir: string): boolean {
    return this.entries.has(dir);
  }

  /**
   * Stops the server of this folder and forgets it (no restart). 'graceful' lets the server finish (the watchdog
   * sends TERM, KILL after 15 s); 'kill' is for a server whose data is about to be removed. Also stops a server left
   * in that folder by an earlier platform.
   */
  async stop(dir: string, mode: 'graceful' | 'kill' = 'graceful'): Promise<void> {
    const entry = this.entries.get(dir);
    if (entry) {
      entry.stopping = true;
      if (entry.pending) clearTimeout(entry.pending);
      for (const timer of entry.timers) clearTimeout(timer);
      if (this.ownsGroup(entry)) {
        const group = -entry.watchdog.pid!;
        try {
          process.kill(mode === 'kill' ? group : entry.watchdog.pid!, mode === 'kill' ? 'SIGKILL' : 'SIGTERM');
        } catch {
          // exited meanwhile
        }
        const escalate = setTimeout(() => {
          if (this.ownsGroup(entry)) process.kill(group, 'SIGKILL');
        }, 20_000);
        await entry.exited;
        clearTimeout(escalate);
      }
      // The server may outlive a watchdog killed on its own (SIGKILL to the watchdog only); and its data may be
      // removed next, so stop() returns once it no longer runs.
      if (startTicks(entry.pid) !== undefined && commandLine(entry.pid).includes(entry.spec.identity)) await killPid(entry.pid);
      this.entries.delete(dir);
      // Only our own record: a newer platform may have taken the folder over meanwhile.
      if ((await readState(dir))?.watchdog.pid === entry.watchdog.pid) await rm(path.join(dir, STATE_FILE), { force: true });
    } else {
      await stopLeftover(dir, '', this.log);
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((dir) => this.stop(dir)));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopAll();
    process.off('exit', this.onPlatformExit);
  }

  /** Our child, not yet exited: its pid (and group id) cannot have been reused. */
  private ownsGroup(entry: Entry): boolean {
    return entry.watchdog.pid !== undefined && entry.watchdog.exitCode === null && entry.watchdog.signalCode === null;
  }

  private async spawn(spec: ServerSpec, attempt: number): Promise<Entry> {
    const out = openSync(path.join(spec.dir, 'stdout.log'), 'a');
    let watchdog: ChildProcess;
    try {
      const command = [...(spec.wrap ?? []), spec.command, ...spec.args];
      // detached: setsid, a session and process group of its own; the platform's group signals never reach it.
      watchdog = spawn('/bin/sh', ['-c', WATCHDOG, String(process.pid), ...command], { cwd: spec.dir, detached: true, stdio: ['ignore', 'pipe', out] });
    } finally {
      closeSync(out);
    }
    watchdog.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
    // The exit handler is in place before anything is awaited: a server that dies at once is still seen.
    let entry: Entry | undefined;
    let early: [number | null, NodeJS.Signals | null] | undefined;
    watchdog.once('exit', (code, signal) => {
      if (entry) void this.exited(entry, code, signal);
      else early = [code, signal];
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let text = '';
      watchdog.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const line = /^(\d+)\n/.exec(text);
        if (line) resolve(Number(line[1]));
      });
      watchdog.once('exit', (code) => reject(new Error(`${spec.name}: the server could not be started (watchdog exit ${code}).`)));
      watchdog.once('error', (error) => reject(new Error(`${spec.name}: the server could not be started: ${error.message}`)));
    });
    // The watchdog's stdout is no longer needed; keep it drained.
    watchdog.stdout!.resume();
    entry = { spec, watchdog, pid, stopping: false, attempt, spawnedAt: Date.now(), upSince: spec.probe ? 0 : Date.now(), timers: new Set(), exited, misses: 0 };
    this.entries.set(spec.dir, entry);
    const state: StateFile = {
      watchdog: { pid: watchdog.pid!, startTicks: startTicks(watchdog.pid!) ?? -1 },
      server: { pid, startTicks: startTicks(pid) ?? -1 },
      identity: spec.identity,
    };
    await writeFile(path.join(spec.dir, STATE_FILE), JSON.stringify(state));
    if (early) void this.exited(entry, ...early);
    await spec.onPid?.(pid);
    this.scheduleLiveness(entry);
    return entry;
  }

  private scheduleLiveness(entry: Entry): void {
    const { probe, liveness } = entry.spec;
    const interval = liveness?.intervalMs ?? 5_000;
    const failures = liveness?.failures ?? 3;
    if (!probe || interval <= 0 || failures <= 0) return;
    const tick = async () => {
      if (entry.stopping || !this.ownsGroup(entry) || this.entries.get(entry.spec.dir) !== entry) return;
      const ok = await probe().catch(() => false);
      if (entry.stopping || !this.ownsGroup(entry)) return;
      // Readiness after a (re)start is the starter's to judge: misses count once the server has answered once.
      if (ok) {
        entry.misses = 0;
        entry.upSince ||= Date.now();
      } else if (entry.upSince > 0) {
        entry.misses++;
      }
      if (entry.misses >= failures) {
        this.log(`[supervisor] ${entry.spec.name} (pid ${entry.pid}) did not answer ${failures} probes in a row: killing it to restart it`);
        entry.killedBecause = `did not answer ${failures} probes in a row (hung or paused)`;
        try {
          process.kill(-entry.watchdog.pid!, 'SIGKILL');
        } catch {
          // exited meanwhile
        }
        return;
      }
      schedule();
    };
    const schedule = () => {
      const timer = setTimeout(() => {
        entry.timers.delete(timer);
        void tick();
      }, interval);
      timer.unref();
      entry.timers.add(timer);
    };
    schedule();
  }

  private async exited(entry: Entry, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    for (const timer of entry.timers) clearTimeout(timer);
    if (entry.stopping || this.closed || this.entries.get(entry.spec.dir) !== entry) return;
    // The server may still run when only its watchdog was killed: it is stopped, the pair starts again together.
    if (isAlive(entry.pid) && commandLine(entry.pid).includes(entry.spec.identity)) await killPid(entry.pid);
    const stableMs = entry.spec.restart?.stableMs ?? 60_000;
    const stable = entry.upSince > 0 && Date.now() - entry.upSince >= stableMs;
    await this.failed(entry, entry.killedBecause ?? describeExit(code, signal), stable ? 1 : entry.attempt + 1);
  }

  /** Reports a failure and schedules the next start (or gives up). */
  private async failed(entry: Entry, reason: string, attempt: number): Promise<void> {
    const { spec } = entry;
    const maxAttempts = spec.restart?.maxAttempts ?? 10;
    const initial = spec.restart?.initialDelayMs ?? 500;
    const delayMs = Math.min(initial * 2 ** (attempt - 1), spec.restart?.maxDelayMs ?? 30_000);
    const restarting = attempt <= maxAttempts;
    this.log(`[supervisor] ${spec.name} (pid ${entry.pid}) ${reason}; ${restarting ? `restarting in ${delayMs} ms (attempt ${attempt})` : 'giving up'}`);
    await Promise.resolve(spec.onExit?.({ reason, attempt, restarting, delayMs })).catch(() => undefined);
    if (entry.stopping || this.closed || this.entries.get(spec.dir) !== entry) return;
    if (!restarting) {
      this.entries.delete(spec.dir);
      await Promise.resolve(spec.onGaveUp?.(`${spec.name} ${reason}; ${attempt - 1} restarts did not help`)).catch(() => undefined);
      return;
    }
    entry.pending = setTimeout(() => void this.restart(entry, attempt), delayMs);
  }

  private async restart(entry: Entry, attempt: number): Promise<void> {
    const { spec } = entry;
    entry.pending = undefined;
    if (entry.stopping || this.closed || this.entries.get(spec.dir) !== entry) return;
    // Another supervisor (a newer platform on the same data) has taken the folder over: it runs the server now.
    const state = await readState(spec.dir);
    if (state?.watchdog.pid !== entry.watchdog.pid) {
      this.log(`[supervisor] ${spec.name}: not restarted, another platform runs it now`);
      this.entries.delete(spec.dir);
      return;
    }
    if (spec.beforeRestart && !(await spec.beforeRestart().catch(() => true))) {
      this.log(`[supervisor] ${spec.name}: not restarted, its owner is gone`);
      this.entries.delete(spec.dir);
      return;
    }
    if (entry.stopping || this.closed || this.entries.get(spec.dir) !== entry) return;
    let next: Entry;
    try {
      next = await this.spawn(spec, attempt);
    } catch (error) {
      return this.failed(entry, `could not be started (${error instanceof Error ? error.message : String(error)})`, attempt + 1);
    }
    if (!spec.probe) {
      await Promise.resolve(spec.onRecovered?.(next.pid)).catch(() => undefined);
      return;
    }
    const deadline = Date.now() + (spec.restart?.readyTimeoutMs ?? 30_000);
    while (!next.stopping && this.ownsGroup(next)) {
      if (await spec.probe().catch(() => false)) {
        next.upSince ||= Date.now();
        this.log(`[supervisor] ${spec.name} is back (pid ${next.pid})`);
        await Promise.resolve(spec.onRecovered?.(next.pid)).catch(() => undefined);
        return;
      }
      if (Date.now() > deadline) {
        next.killedBecause = 'did not answer after its restart';
        try {
          process.kill(-next.watchdog.pid!, 'SIGKILL');
        } catch {
          // exited meanwhile
        }
        return;
      }
      await sleep(150);
    }
  }
}

/** Stops a server (and its watchdog) recorded in the folder's state file, when they still are those processes. */
async function readState(dir: string): Promise<StateFile | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, STATE_FILE), 'utf8')) as StateFile;
  } catch {
    return undefined;
  }
}

async function stopLeftover(dir: string, identity: string, log: (message: string) => void): Promise<void> {
  const state = await readState(dir);
  if (!state) return;
  const id = identity || state.identity;
  if (isSameProcess(state.watchdog, id)) {
    try {
      process.kill(state.watchdog.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  if (isSameProcess(state.server, id)) {
    log(`[supervisor] stopping the server left in ${dir} by an earlier platform (pid ${state.server.pid})`);
    await killPid(state.server.pid, 'SIGTERM');
  }
  await rm(path.join(dir, STATE_FILE), { force: true });
}

/** The signal, then SIGKILL after 15 s; resolves when the pid is gone. */
async function killPid(pid: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const ticks = startTicks(pid);
  const same = () => ticks !== undefined && startTicks(pid) === ticks;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + 15_000;
  while (same() && Date.now() < deadline) await sleep(50);
  if (same()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
    while (same()) await sleep(20);
  }
}
