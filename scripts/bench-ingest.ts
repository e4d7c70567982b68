import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

// `npm run bench:ingest`: Loki JSON pushes through the qryn gateway (auth, decode, validation, fingerprints, insert)
// at 1, 10 and 50 connections, next to the same rows inserted directly into the same ClickHouse server over its
// HTTP interface (TabSeparated), in the same run: the direct insert is the limit, and the gateway's ratio to it is
// printed. The platform runs in its own process (production mode, no demo data: the bench makes its own user,
// project and qryn instance) so the load generator does not share its event loop; on a 2-core machine they still
// share the CPU (and with ClickHouse), which the figures include. Each request carries LINES log lines.
//
// BENCH_SMOKE=1: one second per run (tests/bench/bench-smoke.test.ts keeps the script working).
// BENCH_PROFILE=1: the platform process records a CPU profile (node:inspector) over the gateway runs; it is written
// to BENCH_PROFILE_FILE (default ./bench-ingest.cpuprofile, opens in Chrome DevTools) and its top frames by self time
// are printed.
// BENCH_PHASES=1: after the runs, where one push's time goes at one connection: the whole push and the direct
// insert timed one after another from this process (no concurrency), then, inside the platform process, each phase
// of the same push done by the gateway's own functions (body read, JSON parse, decode with validation and
// fingerprints, RowBinary encoding, the writer's write with its queue and insert, and the insert alone). What the
// whole push takes beyond the phases is the HTTP server, authentication, admission and the answer. The platform
// itself records nothing for this: the measurement costs nothing when it is off.

const SMOKE = process.env.BENCH_SMOKE === '1';
const PROFILE = process.env.BENCH_PROFILE === '1';
const DURATION = Number(process.env.BENCH_DURATION ?? (SMOKE ? 1 : 5));
const LINES = Number(process.env.BENCH_LINES ?? 100);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
// The smoke run times the phases too (30 pushes), so that this mode keeps working (tests/bench/bench-smoke.test.ts).
const PHASES = process.env.BENCH_PHASES === '1' || SMOKE;
const PHASE_PUSHES = Number(process.env.BENCH_PHASE_PUSHES ?? (SMOKE ? 30 : 300));
const self = fileURLToPath(import.meta.url);

interface Ready {
  pushUrl: string;
  authorization: string;
  storageUrl: string;
  storageUser: string;
  storagePassword: string;
  database: string;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

async function servePlatform(): Promise<void> {
  const { loadConfig } = await import('../server/config');
  const { startPlatform } = await import('../server/platform');
  const { enableQryn } = await import('../tests/support/qryn');
  const { createUser } = await import('../server/db/repositories/users-repository');
  const { createProject } = await import('../server/db/repositories/projects-repository');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const platform = await startPlatform(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', DEV_PAGES: 'false', SEED_DEMO_DATA: 'false', HEP_PORT: '0' }),
    { quiet: true },
  );
  // Production starts without demo data: a user with a personal project of its own to enable qryn for.
  const user = await createUser(platform.db, { email: 'bench@example.com', givenName: 'Bench', familyName: 'Ingest', emailVerified: true });
  const project = await createProject(platform.db, { name: 'Ingest benchmark', organizationId: null, userId: user.id, billingAccountId: null });
  const qryn = await enableQryn(platform, project.id, user.id, null);
  const storage = qryn.backend.storageServer()!;
  const ready: Ready = {
    pushUrl: `${qryn.url}/loki/api/v1/push`,
    authorization: qryn.basic,
    storageUrl: storage.url,
    storageUser: storage.user,
    storagePassword: storage.password,
    database: `qryn_${qryn.instanceId}`,
  };
  const inspector = PROFILE ? await import('node:inspector/promises') : undefined;
  const session = inspector ? new inspector.Session() : undefined;
  session?.connect();
  process.on('message', async (message) => {
    if (message === 'profile:start' && session) {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      process.send!('profile:started');
    }
    if (message === 'profile:stop' && session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(process.env.BENCH_PROFILE_FILE!, JSON.stringify(profile));
      process.send!('profile:stopped');
    }
    if (isPhasesMessage(message)) {
      process.send!({ phases: await measurePhases(platform.db, qryn.backend, qryn.instanceId, Buffer.from(message.phases)) });
    }
    if (message === 'stop') {
      await platform.close();
      process.exit(0);
    }
  });
  process.send!(ready);
}

const isPhasesMessage = (m: unknown): m is { phases: string } => typeof m === 'object' && m !== null && 'phases' in m;

type Timings = Record<string, number[]>;

/** Times `fn` into `timings[name]` (milliseconds). */
async function timed<T>(timings: Timings, name: string, fn: () => T | Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  (timings[name] ??= []).push(performance.now() - start);
  return result;
}

/** In the platform process: each phase of one Loki JSON push, by the functions the gateway uses, one push at a time. */
async function measurePhases(db: import('../server/db/database').Database, backend: import('../server/products/qryn/qryn-backend').QrynBackend, instanceId: string, body: Buffer): Promise<Timings> {
  const { readBody, parseJsonBody } = await import('../server/products/qryn/http/gateway-http');
  const { decodeLokiJson } = await import('../server/products/qryn/ingest/loki');
  const { Batch } = await import('../server/products/qryn/ingest/batch');
  const { logSamplesRowBinary } = await import('../server/products/qryn/ingest/writer');
  const { findInstance } = await import('../server/products/qryn/instances/qryn-repository');
  const instance = (await findInstance(db, instanceId))!;
  const client = await backend.storageOf(instance);
  const target = { id: instance.id, database: instance.database_name, client, fingerprintLimit: instance.fingerprint_limit };
  const timings: Timings = {};
  for (let i = 0; i < PHASE_PUSHES + 20; i++) {
    const t: Timings = i < 20 ? {} : timings; // the first pushes warm up (JIT, connections) and are not counted
    const req = Object.assign(Readable.from([body]), { headers: { 'content-length': String(body.length), 'content-type': 'application/json' } });
    const raw = await timed(t, 'body read', () => readBody(req as unknown as import('node:http').IncomingMessage));
    const json = await timed(t, 'JSON parse', () => parseJsonBody(raw));
    const batch = new Batch();
    await timed(t, 'decode, validate, fingerprint', () => decodeLokiJson(json, batch));
    const rows = await timed(t, 'RowBinary encoding', () => logSamplesRowBinary(batch.logs));
    await timed(t, "writer.write (series check, encoding, group-commit queue, insert)", () => backend.writer.write(target, batch));
    await timed(t, 'the insert alone (same rows, one ClickHouse round trip)', () => client.insertRowBinary(`${instance.database_name}.log_samples`, ['date', 'fingerprint', 'timestamp_ns', 'line'], rows));
  }
  return timings;
}

/** From this process: one request at a time over a kept-alive connection, `count` times (after a warm-up). */
async function sequential(url: string, headers: Record<string, string>, body: string, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const payload = Buffer.from(body);
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': payload.length } }, (res) => {
        res.resume();
        res.once('end', () => ((res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`${url.slice(0, 60)} answered ${res.statusCode}`))));
      });
      req.once('error', reject);
      req.end(payload);
    });
  const times: number[] = [];
  for (let i = 0; i < count + 20; i++) {
    const start = performance.now();
    await once();
    if (i >= 20) times.push(performance.now() - start);
  }
  agent.destroy();
  return times;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function phaseTable(timings: Timings): string {
  const lines = ['| phase of one push | mean ms | median ms | p90 ms |', '| --- | ---: | ---: | ---: |'];
  for (const [name, values] of Object.entries(timings)) {
    lines.push(`| ${name} | ${mean(values).toFixed(3)} | ${quantile(values, 0.5).toFixed(3)} | ${quantile(values, 0.9).toFixed(3)} |`);
  }
  return lines.join('\n');
}

async function run(title: string, options: autocannon.Options) {
  const result = await autocannon({ ...options, duration: DURATION });
  const ok = result['2xx'];
  const failed = result.non2xx + result.errors + result.timeouts;
  return { title, lines: ok * LINES, linesPerSecond: Math.round((ok * LINES) / DURATION), requestsPerSecond: Math.round(ok / DURATION), p99: result.latency.p99, failed };
}

/** The frames with the most self time (samples), as a table: where the platform process spent its CPU. */
function topFrames(file: string, count = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; startTime: number; endTime: number };
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const byFrame = new Map<string, number>();
  for (const node of profile.nodes) {
    const n = hits.get(node.id) ?? 0;
    if (n === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFrame.set(key, (byFrame.get(key) ?? 0) + n);
  }
  const total = profile.samples.length;
  const busy = total - (byFrame.get('(idle)') ?? 0);
  const lines = [`CPU profile of the platform process over the gateway runs: ${total} samples, ${((busy / total) * 100).toFixed(0)}% not idle; top ${count} frames by self time (% of the non-idle samples):`];
  for (const [frame, n] of [...byFrame].filter(([f]) => f !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, count)) {
    lines.push(`  ${((n / busy) * 100).toFixed(1).padStart(5)}%  ${frame}`);
  }
  return lines.join('\n');
}

function ask(child: ChildProcess, message: string, answer: string): Promise<void> {
  return new Promise((resolve) => {
    const listen = (m: unknown) => {
      if (m !== answer) return;
      child.off('message', listen);
      resolve();
    };
    child.on('message', listen);
    child.send(message);
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-ingest-'));
  const profileFile = path.resolve(process.env.BENCH_PROFILE_FILE ?? 'bench-ingest.cpuprofile');
  const child = fork(self, [], {
    // The per-instance sample rate limit (50,000/s by default) would cap the gateway below what it can do.
    env: { QRYN_SAMPLES_PER_SECOND: '100000000', QRYN_SAMPLES_BURST: '100000000', ...process.env, BENCH_ROLE: 'platform', BENCH_DATA_DIR: dataDir, BENCH_PROFILE_FILE: profileFile },
    execArgv: ['--import', 'tsx'],
  });
  // The temporary data folder goes on any exit: success, failure, Ctrl-C.
  let exited = false;
  child.once('exit', () => (exited = true));
  const cleanUp = () => {
    if (!exited) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', cleanUp);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`The platform exited (${code}) before it was ready.`)));
    });
    const now = Date.now();
    const values = Array.from({ length: LINES }, (_, i) => [`${now}${String(i).padStart(6, '0')}`, `level=info msg="request served" path=/api/items/${i} status=200 duration_ms=${i % 50}`]);
    const lokiBody = JSON.stringify({ streams: [{ stream: { job: 'bench', env: 'prod' }, values }] });
    const day = new Date(now).toISOString().slice(0, 10);
    const tsv = values.map(([ts, line]) => `${day}\t12345\t${ts}\t${line}`).join('\n') + '\n';
    const insert = `INSERT INTO ${ready.database}.log_samples (date, fingerprint, timestamp_ns, line) FORMAT TabSeparated`;
    const rows: { connections: number; gateway: Awaited<ReturnType<typeof run>>; direct: Awaited<ReturnType<typeof run>> }[] = [];
    for (const connections of CONNECTIONS) {
      if (PROFILE) await ask(child, 'profile:start', 'profile:started');
      const gateway = await run(`gateway, ${connections} conn`, {
        url: ready.pushUrl,
        method: 'POST',
        connections,
        headers: { authorization: ready.authorization, 'content-type': 'application/json' },
        body: lokiBody,
      });
      if (PROFILE) await ask(child, 'profile:stop', 'profile:stopped');
      const direct = await run(`direct, ${connections} conn`, {
        url: `${ready.storageUrl}/?query=${encodeURIComponent(insert)}`,
        method: 'POST',
        connections,
        headers: { 'x-clickhouse-user': ready.storageUser, 'x-clickhouse-key': ready.storagePassword },
        body: tsv,
      });
      rows.push({ connections, gateway, direct });
    }
    const stored = await fetch(`${ready.storageUrl}/?query=${encodeURIComponent(`SELECT count() FROM ${ready.database}.log_samples WHERE fingerprint != 12345`)}`, {
      headers: { 'x-clickhouse-user': ready.storageUser, 'x-clickhouse-key': ready.storagePassword },
    }).then((r) => r.text());
    const acknowledged = rows.reduce((sum, r) => sum + r.gateway.lines, 0);
    console.log(`\nLoki JSON push, ${LINES} lines per request, ${DURATION} s per run (2 cores shared by the load generator, the platform and ClickHouse)\n`);
    console.log('| connections | gateway lines/s | direct insert lines/s (the limit) | ratio | gateway p99 ms | direct p99 ms | failed (gateway / direct) |');
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const r of rows) {
      const ratio = r.direct.linesPerSecond > 0 ? (r.gateway.linesPerSecond / r.direct.linesPerSecond).toFixed(2) : '–';
      console.log(`| ${r.connections} | ${r.gateway.linesPerSecond} | ${r.direct.linesPerSecond} | ${ratio}× | ${r.gateway.p99} | ${r.direct.p99} | ${r.gateway.failed} / ${r.direct.failed} |`);
    }
    console.log(`\nlines acknowledged by the gateway: ${acknowledged}, stored: ${Number(stored)}`);
    if (PROFILE) console.log(`\n${topFrames(profileFile)}\n(profile written to ${profileFile})`);
    if (PHASES) {
      // After the stored-lines check: the rows written here are not part of what the runs acknowledged.
      const whole = await sequential(ready.pushUrl, { authorization: ready.authorization, 'content-type': 'application/json' }, lokiBody, PHASE_PUSHES);
      const direct = await sequential(`${ready.storageUrl}/?query=${encodeURIComponent(insert)}`, { 'x-clickhouse-user': ready.storageUser, 'x-clickhouse-key': ready.storagePassword }, tsv, PHASE_PUSHES);
      const inside = await new Promise<Timings>((resolve) => {
        const listen = (m: unknown) => {
          if (typeof m !== 'object' || m === null || !('phases' in m)) return;
          child.off('message', listen);
          resolve((m as { phases: Timings }).phases);
        };
        child.on('message', listen);
        child.send({ phases: lokiBody });
      });
      const timings: Timings = { 'the whole push (client → gateway → ClickHouse → answer)': whole, 'the direct insert (client → ClickHouse)': direct, ...inside };
      const inProcess = ['body read', 'JSON parse', 'decode, validate, fingerprint', 'writer.write (series check, encoding, group-commit queue, insert)'].reduce((sum, k) => sum + mean(inside[k]), 0);
      console.log(`\nOne push at a time, ${PHASE_PUSHES} pushes of ${LINES} lines (the first 20 not counted):\n`);
      console.log(phaseTable(timings));
      console.log(`\nthe whole push beyond its in-process phases (HTTP server, authentication, admission, answer, the client): ${(mean(whole) - inProcess).toFixed(3)} ms mean`);
      console.log(`writer.write beyond encoding and the insert alone (series check, queue): ${(mean(inside["writer.write (series check, encoding, group-commit queue, insert)"]) - mean(inside['RowBinary encoding']) - mean(inside['the insert alone (same rows, one ClickHouse round trip)'])).toFixed(3)} ms mean`);
    }
    const failed = rows.some((r) => r.gateway.linesPerSecond === 0 || r.direct.linesPerSecond === 0 || r.gateway.failed > 0) || Number(stored) < acknowledged;
    if (failed) {
      console.error('The benchmark failed: a run stored nothing, a push was refused, or acknowledged lines are missing.');
      process.exitCode = 1;
    }
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    }
    cleanUp();
  }
}

if (process.env.BENCH_ROLE === 'platform') await servePlatform();
else await main();
