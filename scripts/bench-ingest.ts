import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

// `npm run bench:ingest`: Loki JSON pushes through the qryn gateway (auth, decode, validation, fingerprints, insert)
// at 1, 10 and 50 connections, next to the same rows inserted directly into the same ClickHouse server over its
// HTTP interface (TabSeparated), in the same run. The platform runs in its own process so the load generator does
// not share its event loop; on a 2-core machine they still share the CPU (and with ClickHouse), which the figures
// include. Each request carries LINES log lines.

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const LINES = Number(process.env.BENCH_LINES ?? 100);
const CONNECTIONS = [1, 10, 50];
const self = fileURLToPath(import.meta.url);

interface Ready {
  pushUrl: string;
  authorization: string;
  storageUrl: string;
  storageUser: string;
  storagePassword: string;
  database: string;
}

async function servePlatform(): Promise<void> {
  const { loadConfig } = await import('../server/config');
  const { startPlatform } = await import('../server/platform');
  const { enableQryn } = await import('../tests/support/qryn');
  const { findUserByEmail } = await import('../server/db/repositories/users-repository');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', DEV_PAGES: 'false' }), { quiet: true });
  const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
  const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  const projectId = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Production'"))[0].id;
  const qryn = await enableQryn(platform, projectId, demo.id, acme);
  const storage = qryn.backend.storageServer()!;
  const ready: Ready = {
    pushUrl: `${qryn.url}/loki/api/v1/push`,
    authorization: qryn.basic,
    storageUrl: storage.url,
    storageUser: storage.user,
    storagePassword: storage.password,
    database: `qryn_${qryn.instanceId}`,
  };
  process.send!(ready);
  process.on('message', async (message) => {
    if (message === 'stop') {
      await platform.close();
      process.exit(0);
    }
  });
}

async function run(title: string, options: autocannon.Options) {
  const result = await autocannon({ ...options, duration: DURATION });
  const ok = result['2xx'];
  const failed = result.non2xx + result.errors + result.timeouts;
  return {
    title,
    linesPerSecond: Math.round((ok * LINES) / DURATION),
    requestsPerSecond: Math.round(ok / DURATION),
    p99: result.latency.p99,
    failed,
  };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-ingest-'));
  const child = fork(self, [], { env: { ...process.env, BENCH_ROLE: 'platform', BENCH_DATA_DIR: dataDir }, execArgv: ['--import', 'tsx'] });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`The platform exited (${code}).`)));
    });
    const now = Date.now();
    const values = Array.from({ length: LINES }, (_, i) => [`${now}${String(i).padStart(6, '0')}`, `level=info msg="request served" path=/api/items/${i} status=200 duration_ms=${i % 50}`]);
    const lokiBody = JSON.stringify({ streams: [{ stream: { job: 'bench', env: 'prod' }, values }] });
    const day = new Date(now).toISOString().slice(0, 10);
    const tsv = values.map(([ts, line]) => `${day}\t12345\t${ts}\t${line}`).join('\n') + '\n';
    const insert = `INSERT INTO ${ready.database}.log_samples (date, fingerprint, timestamp_ns, line) FORMAT TabSeparated`;
    const rows: Awaited<ReturnType<typeof run>>[] = [];
    for (const connections of CONNECTIONS) {
      rows.push(
        await run(`gateway Loki JSON push, ${connections} conn`, {
          url: ready.pushUrl,
          method: 'POST',
          connections,
          headers: { authorization: ready.authorization, 'content-type': 'application/json' },
          body: lokiBody,
        }),
      );
      rows.push(
        await run(`direct ClickHouse insert, ${connections} conn`, {
          url: `${ready.storageUrl}/?query=${encodeURIComponent(insert)}`,
          method: 'POST',
          connections,
          headers: { 'x-clickhouse-user': ready.storageUser, 'x-clickhouse-key': ready.storagePassword },
          body: tsv,
        }),
      );
    }
    console.log(`\nLoki JSON push, ${LINES} lines per request, ${DURATION} s per run (2 cores shared by the load generator, the platform and ClickHouse)\n`);
    console.log('| run | log lines/s | requests/s | p99 ms | failed |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const r of rows) console.log(`| ${r.title} | ${r.linesPerSecond} | ${r.requestsPerSecond} | ${r.p99} | ${r.failed} |`);
  } finally {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ROLE === 'platform') await servePlatform();
else await main();
