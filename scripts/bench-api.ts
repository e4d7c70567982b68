import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startThrowawayPostgres } from './throwaway-postgres';

// `npm run bench:api`: an authenticated GET /api/projects/ against the real API (demo data, a minted owner token):
// the embedded database on disk with the read cache on (the default) and off (READ_CACHE=off), PostgreSQL (a fresh
// database on the server BENCH_DATABASE_URL or TEST_DATABASE_URL names, or on a throwaway server started for the
// run; the read cache is never used with PostgreSQL), then the same JSON from memory on a bare node:http server, and
// beside each database the floor (bare node:http with one read per request, no token), each for DURATION seconds at
// CONNECTIONS connections. Each server runs in its own process so the load generator does not steal
// its event loop; on a 2-core machine they still share the CPU, which the figures include.

// BENCH_SMOKE=1: every server for one second at 10 connections without warm-up, the budgets printed but not held
// (tests/bench/bench-smoke.test.ts keeps the script working; a smoke run on a busy machine says nothing of speed).
const SMOKE = process.env.BENCH_SMOKE === '1';
const DURATION = Number(process.env.BENCH_DURATION ?? (SMOKE ? 1 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? (SMOKE ? 10 : 200));
const self = fileURLToPath(import.meta.url);

interface Ready {
  port: number;
  path: string;
  token?: string;
  body?: string;
}

async function serveApi(): Promise<void> {
  const { loadConfig } = await import('../server/config');
  const { openDatabase } = await import('../server/db/database');
  const { seedDemoData } = await import('../server/db/seed');
  const { createApiHandler } = await import('../server/api/api-handler');
  const { createMailer } = await import('../server/adapters/mail/mailer');
  const { loadOrCreateSigningKeys } = await import('../server/identity/signing-keys');
  const { createAccessTokenVerifier } = await import('../server/identity/verify-access-token');
  const { findUserByEmail } = await import('../server/db/repositories/users-repository');
  const { createTokenMinter } = await import('../tests/support/mint-token');

  const dataDir = process.env.BENCH_DATA_DIR!;
  const db = process.env.BENCH_POSTGRES_URL ? await openDatabase({ url: process.env.BENCH_POSTGRES_URL }) : await openDatabase({ dataDir });
  await seedDemoData(db);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // READ_CACHE comes from the environment, as for `npm start`.
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, READ_CACHE: process.env.READ_CACHE });
  const { publicJwks } = await loadOrCreateSigningKeys(db);
  const verifyAccessToken = createAccessTokenVerifier({ issuer: config.issuer, audience: config.apiAudience, publicJwks });
  const handler = createApiHandler({ db, config, verifyAccessToken, mailer: createMailer(db, { from: config.mailFrom }) });
  server.on('request', (req, res) => void handler(req, res));
  // A clean exit on SIGTERM, so --cpu-prof (BENCH_PROFILE) writes its profile.
  process.once('SIGTERM', () => process.exit(0));
  const acme = (await db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  const mint = await createTokenMinter(db, config);
  const token = await mint((await findUserByEmail(db, 'demo@example.com'))!, { organizationId: acme, expiresIn: 3600 });
  const check = await fetch(`http://127.0.0.1:${port}/api/projects/`, { headers: { authorization: `Bearer ${token}` } });
  const body = await check.text();
  if (check.status !== 200) throw new Error(`GET /api/projects/ answered ${check.status}: ${body}`);
  answerCpuUsage();
  process.send!({ port, path: '/api/projects/', token, body } satisfies Ready);
}

// The floor of any handler that reads the database once per request: bare node:http that runs one indexed read
// (Acme's projects, the list the API answers) through the platform's database layer, prepared on PostgreSQL as the
// API's statements are, then sends the same JSON. No token, no authorization, no JSON building: what this row
// reaches, no uncached API on the same database can beat.
async function serveRawWithRead(): Promise<void> {
  const { openDatabase } = await import('../server/db/database');
  const body = process.env.BENCH_BODY!;
  const db = process.env.BENCH_POSTGRES_URL ? await openDatabase({ url: process.env.BENCH_POSTGRES_URL }) : await openDatabase({ dataDir: process.env.BENCH_DATA_DIR! });
  const acme = (await db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  const read = () => db.query('SELECT id, name, created_at FROM projects WHERE organization_id = $1 ORDER BY id', [acme]);
  await read(); // a read that fails here stops the run instead of filling the row with errors
  const server = createServer((_req, res) => {
    read().then(
      () => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.once('SIGTERM', () => process.exit(0));
  answerCpuUsage();
  process.send!({ port: (server.address() as AddressInfo).port, path: '/api/projects/' } satisfies Ready);
}

async function serveRaw(): Promise<void> {
  const body = process.env.BENCH_BODY!;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  answerCpuUsage();
  process.send!({ port: (server.address() as AddressInfo).port, path: '/api/projects/' } satisfies Ready);
}

// CPU time the server process spent (user + system), asked for before and after a run: divided by the requests
// served it is the cost of one request. Other work on the machine moves it too (a crowded CPU makes every request
// dearer), so compare the rows of one run. (PostgreSQL's own processes are not in it.)
function answerCpuUsage(): void {
  process.on('message', (message) => {
    if (message === 'cpu-usage') process.send!({ cpu: process.cpuUsage() });
  });
}

function cpuUsageOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      const cpu = (message as { cpu?: NodeJS.CpuUsage }).cpu;
      if (!cpu) return;
      child.off('message', onMessage);
      resolve((cpu.user + cpu.system) / 1000);
    };
    child.on('message', onMessage);
    child.send('cpu-usage');
  });
}

function startChild(role: string, env: Record<string, string>): Promise<{ child: ChildProcess; ready: Ready }> {
  // BENCH_PROFILE=<dir>: each API server writes a V8 CPU profile there (open it in Chrome's DevTools).
  const profile = role === '--serve-api' && process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const child = fork(self, [role], { execArgv: ['--import', 'tsx', ...profile], env: { ...process.env, ...env }, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as Ready }));
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
  });
}

async function measure(label: string, ready: Ready, child: ChildProcess) {
  const cpuBefore = await cpuUsageOf(child);
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}${ready.path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: ready.token ? { authorization: `Bearer ${ready.token}` } : {},
  });
  const row = {
    server: label,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'max ms': result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    'server CPU ms/request': Number((((await cpuUsageOf(child)) - cpuBefore) / Math.max(1, result.requests.total)).toFixed(3)),
  };
  return row;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-api-'));
  const children: ChildProcess[] = [];
  const loadAtStart = loadavg().map((n) => n.toFixed(2)).join(' ');
  try {
    console.log(`Each run: ${SMOKE ? 'no' : '2 s'} warm-up, then ${DURATION} s at ${CONNECTIONS} connections against GET /api/projects/ ...`);
    // One server in its own process: started, warmed up for 2 s, measured, stopped.
    const runServer = async (role: '--serve-api' | '--serve-raw-read', label: string, env: Record<string, string>) => {
      const server = await startChild(role, env);
      children.push(server.child);
      const headers = server.ready.token ? { authorization: `Bearer ${server.ready.token}` } : {};
      if (!SMOKE) await autocannon({ url: `http://127.0.0.1:${server.ready.port}${server.ready.path}`, connections: 10, duration: 2, headers });
      const row = await measure(label, server.ready, server.child);
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
      return { row, ready: server.ready };
    };
    const runApi = (label: string, env: Record<string, string>) => runServer('--serve-api', label, { BENCH_DATA_DIR: dataDir, ...env });
    const runFloor = async (label: string, env: Record<string, string>) => (await runServer('--serve-raw-read', label, { BENCH_BODY: api.ready.body!, ...env })).row;
    const api = await runApi('API, PGlite, read cache on (default)', { READ_CACHE: 'on' });
    const rows = [api.row];
    const floors: (typeof api.row)[] = [];
    // The smoke run stops at the first API server and the raw one (every other run starts a server the same way).
    if (!SMOKE) rows.push((await runApi('API, PGlite, READ_CACHE=off', { READ_CACHE: 'off' })).row);
    // Floors: what a bare server gets with one database read per request (not held to the budget).
    if (!SMOKE) floors.push(await runFloor('floor: node:http + one PGlite read', { BENCH_DATA_DIR: dataDir }));
    // PostgreSQL: the server named by BENCH_DATABASE_URL or TEST_DATABASE_URL, or one started for this run.
    const named = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    const own = named || SMOKE ? undefined : await startThrowawayPostgres();
    if (!SMOKE) try {
      const { createFreshPostgresDatabase } = await import('../tests/support/postgres');
      const fresh = await createFreshPostgresDatabase(named ?? own!.url);
      try {
        // The read cache is only ever on for the embedded database (other instances may write to a shared server).
        rows.push((await runApi(`API, PostgreSQL${own ? ' (throwaway server)' : ''}, no read cache`, { BENCH_POSTGRES_URL: fresh.url })).row);
        floors.push(await runFloor('floor: node:http + one PostgreSQL read', { BENCH_POSTGRES_URL: fresh.url }));
      } finally {
        await fresh.drop();
      }
    } finally {
      await own?.stop();
    }
    const raw = await startChild('--serve-raw', { BENCH_BODY: api.ready.body! });
    children.push(raw.child);
    const rawRow = await measure('raw node:http, same JSON', raw.ready, raw.child);
    const share = (row: { 'requests/s': number }) => Math.round((row['requests/s'] / Math.max(1, rawRow['requests/s'])) * 100);
    console.table([...rows, ...floors, rawRow].map((row) => ({ ...row, '% of raw': share(row) })));
    let over = false;
    for (const row of rows) {
      const met = row['p99 ms'] <= 20 && share(row) >= 50 && row.errors === 0;
      over ||= !met;
      console.log(`${row.server}: p99 ${row['p99 ms']} ms (budget 20), ${share(row)}% of raw node's requests/s (budget 50%), ${row.errors} errors: ${met ? 'met' : 'NOT met'}`);
    }
    for (const floor of floors) console.log(`${floor.server}: p99 ${floor['p99 ms']} ms, ${share(floor)}% of raw node's requests/s (the best an uncached handler on that database can do here)`);
    // Little's law: at C connections, a mean latency of L needs C / L requests per second; the raw row shows what
    // this machine can serve at all, so a p99 budget below C / (raw requests/s) cannot be met by any handler here.
    console.log(`Raw node:http at ${CONNECTIONS} connections: mean latency ${(CONNECTIONS / Math.max(1, rawRow['requests/s']) * 1000).toFixed(1)} ms by Little's law (requests/s ${rawRow['requests/s']}).`);
    console.log(`Load average (1/5/15 min) at the start: ${loadAtStart}; at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}. Other work on the machine lowers every row alike.`);
    if (SMOKE) {
      // Only that every server answered, without errors.
      if ([...rows, ...floors, rawRow].some((row) => row['requests/s'] === 0 || row.errors > 0 || row.non2xx > 0)) process.exitCode = 1;
    } else if (over) process.exitCode = 1;
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}

const role = process.argv[2];
if (role === '--serve-api') await serveApi();
else if (role === '--serve-raw') await serveRaw();
else if (role === '--serve-raw-read') await serveRawWithRead();
else await main();
