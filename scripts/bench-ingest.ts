import { fork, type ChildProcess } from 'node:child_process';
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

const SMOKE = process.env.BENCH_SMOKE === '1';
const PROFILE = process.env.BENCH_PROFILE === '1';
const DURATION = Number(process.env.BENCH_DURATION ?? (SMOKE ? 1 : 5));
const LINES = Number(process.env.BENCH_LINES ?? 100);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
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
    if (message === 'stop') {
      await platform.close();
      process.exit(0);
    }
  });
  process.send!(ready);
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
