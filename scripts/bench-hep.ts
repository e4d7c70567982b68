import { fork } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run bench:hep`: the HEP endpoint of a real platform (its own process, real ClickHouse), in two parts.
//
// 1. Connections (bounded load test): the HEP port is filled to its maximum of TCP connections (from several
//    loopback addresses, each under the per-address cap, each having sent one packet so that it is held for the
//    idle time), more connections are attempted beyond it, and meanwhile the console, the API, the identity server
//    and the qryn gateway are asked in turn: their status and latency are printed next to the same calls before the
//    load. Numbers, not assertions.
// 2. Line rate: hep-js packets over UDP at rising rates, each for BENCH_STEP_S seconds; per rate the packets sent,
//    stored (counted in ClickHouse) and lost, and the highest rate without loss; next to a bare UDP socket in its own
//    process that only counts what it receives (with the same receive buffer), in the same run.
//
// BENCH_SMOKE=1: 20 connections, one rate (2,000/s) for one second; it exits non-zero when nothing was stored
// (tests/hepic/bench-smoke.test.ts runs it so that the script cannot rot). Figures are in docs/hepic.md.

const self = fileURLToPath(import.meta.url);
const SMOKE = process.env.BENCH_SMOKE === '1';
const MAX_CONNECTIONS = Number(process.env.BENCH_HEP_CONNECTIONS ?? (SMOKE ? 20 : 1000));
const OVER_CAP = SMOKE ? 10 : 500;
const PROBES = SMOKE ? 3 : 20;
const PER_ADDRESS = SMOKE ? 10 : 50;
const STEP_S = Number(process.env.BENCH_STEP_S ?? (SMOKE ? 1 : 3));
const RATES = (process.env.BENCH_RATES ?? (SMOKE ? '2000' : '2000,5000,10000,20000,30000,40000')).split(',').map(Number);

interface Ready {
  origin: string;
  apiToken: string;
  projectId: number;
  gatewayReady: string;
  hepPort: number;
  hepKey: string;
  storageUrl: string;
  storageUser: string;
  storagePassword: string;
  table: string;
  udpReceiveBufferBytes: number;
}

async function servePlatform(): Promise<void> {
  const { loadConfig } = await import('../server/config');
  const { startPlatform } = await import('../server/platform');
  const { enableQrynOnSeededProject } = await import('../tests/support/qryn');
  const { enableHepic } = await import('../tests/support/hepic');
  const { findUserByEmail } = await import('../server/db/repositories/users-repository');
  const platform = await startPlatform(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', HEP_PORT: '0', DATA_DIR: process.env.BENCH_DATA_DIR!, NODE_ENV: 'production', DEV_PAGES: 'false', SEED_DEMO_DATA: 'true' }),
    { quiet: true },
  );
  const { qryn, ownerToken, projectId } = await enableQrynOnSeededProject(platform, 'Acme Production');
  const demo = (await findUserByEmail(platform.db, 'demo@example.com'))!;
  const acme = (await platform.db.query<{ id: number }>("SELECT id FROM organizations WHERE name = 'Acme'"))[0].id;
  const staging = (await platform.db.query<{ id: number }>("SELECT id FROM projects WHERE name = 'Acme Staging'"))[0].id;
  const hepic = await enableHepic(platform, staging, demo.id, acme);
  const storage = qryn.backend.storageServer()!;
  const ready: Ready = {
    origin: platform.url,
    apiToken: ownerToken,
    projectId,
    gatewayReady: `${qryn.url}/ready`,
    hepPort: hepic.port,
    hepKey: hepic.apiKey,
    storageUrl: storage.url,
    storageUser: storage.user,
    storagePassword: storage.password,
    table: `${hepic.instance.database_name}.hep_packets`,
    udpReceiveBufferBytes: hepic.backend.listener()!.udpReceiveBufferBytes,
  };
  process.send!(ready);
  process.on('message', async (message) => {
    if (message === 'counters') process.send!({ counters: hepic.backend.listener()!.counters, tenant: hepic.backend.listener()!.tenant(hepic.instance.id) });
    if (message === 'stop') {
      await platform.close();
      process.exit(0);
    }
  });
}

/** A bare UDP socket that only counts datagrams (the kernel-and-socket floor of the line rate). */
async function serveCounter(): Promise<void> {
  const { listenerLimits } = await import('../server/products/hepic/hep-listener');
  // The listener's receive buffer, so that the two differ only in what happens after the read.
  const socket = createSocket({ type: 'udp4', recvBufferSize: listenerLimits(process.env).udpReceiveBufferBytes });
  let count = 0;
  socket.on('message', () => count++);
  socket.bind(0, '127.0.0.1', () => process.send!({ port: socket.address().port, receiveBufferBytes: socket.getRecvBufferSize() }));
  process.on('message', (message) => {
    if (message === 'count') process.send!({ count });
    if (message === 'stop') {
      socket.close();
      process.exit(0);
    }
  });
}

async function timed(url: string, headers: Record<string, string> = {}): Promise<{ status: number | string; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch (error) {
    return { status: error instanceof Error ? error.name : 'error', ms: performance.now() - started };
  }
}

async function probe(ready: Ready, label: string) {
  const targets: [string, string, Record<string, string>][] = [
    ['console (GET /)', `${ready.origin}/`, {}],
    ['API (GET /api/integrations/status)', `${ready.origin}/api/integrations/status`, { authorization: `Bearer ${ready.apiToken}` }],
    ['identity server (discovery)', `${ready.origin}/realms/observability/.well-known/openid-configuration`, {}],
    ['qryn gateway (/ready)', ready.gatewayReady, {}],
  ];
  const rows: string[] = [];
  for (const [name, url, headers] of targets) {
    const results = [];
    for (let i = 0; i < PROBES; i++) results.push(await timed(url, headers));
    const ms = results.map((r) => r.ms).sort((a, b) => a - b);
    const statuses = [...new Set(results.map((r) => String(r.status)))].join(',');
    rows.push(`| ${label} | ${name} | ${statuses} | ${ms[Math.floor(ms.length / 2)].toFixed(1)} | ${ms[ms.length - 1].toFixed(1)} |`);
  }
  return rows;
}

async function holdConnections(ready: Ready, packet: Buffer): Promise<{ sockets: Socket[]; held: () => number; attempted: number }> {
  const sockets: Socket[] = [];
  const attempted = MAX_CONNECTIONS + OVER_CAP;
  const opens: Promise<void>[] = [];
  for (let i = 0; i < attempted; i++) {
    const localAddress = `127.0.${1 + Math.floor(i / PER_ADDRESS / 250)}.${1 + (Math.floor(i / PER_ADDRESS) % 250)}`;
    opens.push(
      new Promise<void>((resolve) => {
        const socket = connect({ port: ready.hepPort, host: '127.0.0.1', localAddress });
        sockets.push(socket);
        socket.on('error', () => resolve());
        socket.on('connect', () => {
          socket.write(packet);
          resolve();
        });
        socket.on('close', () => resolve());
      }),
    );
    if (i % 100 === 99) await Promise.all(opens.splice(0));
  }
  await Promise.all(opens);
  await new Promise((r) => setTimeout(r, 500));
  return { sockets, held: () => sockets.filter((s) => !s.destroyed && s.readyState === 'open').length, attempted };
}

async function storedCount(ready: Ready): Promise<number> {
  const response = await fetch(`${ready.storageUrl}/?query=${encodeURIComponent(`SELECT count() FROM ${ready.table} WHERE transport = 'udp'`)}`, {
    headers: { 'x-clickhouse-user': ready.storageUser, 'x-clickhouse-key': ready.storagePassword },
  });
  return Number((await response.text()).trim());
}

/**
 * Sends `rate` packets per second for STEP_S seconds, in slices of about a millisecond; returns what was sent. The
 * socket is connected (no address handling per packet) and a slice waits for its sends only once, so that the
 * sender itself, on the same two cores, costs as little as it can.
 */
async function sendAt(port: number, packets: Buffer[], rate: number): Promise<{ sent: number; seconds: number }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', () => resolve()));
  const total = rate * STEP_S;
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    if (due > sent) {
      let pending = due - sent;
      const slice = new Promise<void>((resolve) => {
        const done = () => {
          if (--pending === 0) resolve();
        };
        for (; sent < due; sent++) socket.send(packets[sent % packets.length], done);
      });
      await slice;
    }
    await new Promise((r) => setImmediate(r));
  }
  const seconds = (performance.now() - started) / 1000;
  socket.close();
  return { sent, seconds };
}

async function main(): Promise<void> {
  const { hepPacket, sipInvite } = await import('../tests/support/hepic');
  const startedAt = performance.now();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-hep-'));
  const child = fork(self, [], {
    env: { ...process.env, BENCH_ROLE: 'platform', BENCH_DATA_DIR: dataDir, HEP_TCP_MAX_CONNECTIONS: String(MAX_CONNECTIONS), HEP_TCP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS) },
    execArgv: ['--import', 'tsx'],
  });
  const counter = fork(self, [], { env: { ...process.env, BENCH_ROLE: 'counter' }, execArgv: ['--import', 'tsx'] });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`The platform exited (${code}).`)));
    });
    console.log(`The platform answered in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (its own process, ClickHouse, Hepic enabled).`);
    const { port: counterPort, receiveBufferBytes: counterBuffer } = await new Promise<{ port: number; receiveBufferBytes: number }>((resolve) =>
      counter.once('message', (m) => resolve(m as { port: number; receiveBufferBytes: number })),
    );

    // Part 1: connections.
    const before = await probe(ready, 'before');
    const packet = hepPacket(sipInvite('bench-connection'), ready.hepKey);
    const load = await holdConnections(ready, packet);
    const held = load.held();
    const during = await probe(ready, `HEP port holding ${held} connections`);
    console.log(`\nHEP TCP connections: ${load.attempted} attempted from ${Math.ceil(load.attempted / PER_ADDRESS)} addresses, ${held} held (cap ${MAX_CONNECTIONS}, ${PER_ADDRESS} per address)\n`);
    console.log('| when | call | statuses | p50 ms | max ms |');
    console.log('| --- | --- | --- | ---: | ---: |');
    for (const row of [...before, ...during]) console.log(row);
    console.log("\n(Without `npm run build` the console's file server answers 503 'The console is not built': it answers all the same.)");
    for (const socket of load.sockets) socket.destroy();
    await new Promise((r) => setTimeout(r, 1000));

    // Part 2: line rate over UDP.
    const packets = Array.from({ length: 1000 }, (_, i) => hepPacket(sipInvite(`bench-${i}`), ready.hepKey));
    const rmemMax = await readFile('/proc/sys/net/core/rmem_max', 'utf8').then((t) => t.trim(), () => 'unknown');
    console.log(`\nHEP over UDP, ${STEP_S} s per rate (${cpus().length} cores shared by the sender, the platform and ClickHouse)`);
    console.log(
      `UDP receive buffer as the kernel reports it (twice the granted size): listener ${ready.udpReceiveBufferBytes} bytes, bare socket ${counterBuffer} bytes; net.core.rmem_max ${rmemMax}\n`,
    );
    // Read but not stored: shed because the instance's queue was full (the storage behind), or because decoding
    // was behind (the backlog between the UDP threads full).
    console.log('| target rate/s | sent | achieved rate/s | read by the listener | stored by the platform | lost | of which shed: queue full / decoding behind | bare socket received | bare socket lost |');
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    let lossless = 0;
    let storedAny = true;
    const listenerCounters = () =>
      new Promise<{ counters: { received: number; shed: number; backlogShed: number }; tenant: { queued: number; shed: number } }>((resolve) => {
        child.once('message', (m) => resolve(m as never));
        child.send('counters');
      });
    let counted = (await listenerCounters()).counters;
    for (const rate of RATES) {
      const storedBefore = await storedCount(ready);
      const platformRun = await sendAt(ready.hepPort, packets, rate);
      // Let the listener write what it holds: until its queue is empty and the stored count stops moving.
      let stored = 0;
      for (let i = 0, last = -1, still = 0; i < 60; i++) {
        await new Promise((r) => setTimeout(r, 500));
        stored = (await storedCount(ready)) - storedBefore;
        const { tenant } = await listenerCounters();
        still = stored === last && tenant.queued === 0 ? still + 1 : 0;
        if (still >= 2 || stored >= platformRun.sent) break;
        last = stored;
      }
      const { counters } = await listenerCounters();
      const received = counters.received - counted.received;
      const shed = counters.shed - counted.shed;
      const backlogShed = counters.backlogShed - counted.backlogShed;
      counted = counters;
      const countBefore = await new Promise<number>((resolve) => {
        counter.once('message', (m) => resolve((m as { count: number }).count));
        counter.send('count');
      });
      const bareRun = await sendAt(counterPort, packets, rate);
      await new Promise((r) => setTimeout(r, 300));
      const countAfter = await new Promise<number>((resolve) => {
        counter.once('message', (m) => resolve((m as { count: number }).count));
        counter.send('count');
      });
      const bare = countAfter - countBefore;
      const lost = platformRun.sent - stored;
      if (stored === 0) storedAny = false;
      if (lost === 0) lossless = Math.max(lossless, Math.round(platformRun.sent / platformRun.seconds));
      console.log(
        `| ${rate} | ${platformRun.sent} | ${Math.round(platformRun.sent / platformRun.seconds)} | ${received} | ${stored} | ${lost} | ${shed} / ${backlogShed} | ${bare} | ${bareRun.sent - bare} |`,
      );
    }
    console.log(`\nHighest rate without loss: ${lossless} packets/s`);
    if (!storedAny) {
      console.error('Error: a rate stored no packet at all: the HEP endpoint is broken.');
      process.exitCode = 1;
    }
  } finally {
    child.send('stop');
    counter.send('stop');
    await Promise.all([new Promise((resolve) => child.once('exit', resolve)), new Promise((resolve) => counter.once('exit', resolve))]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ROLE === 'platform') await servePlatform();
else if (process.env.BENCH_ROLE === 'counter') await serveCounter();
else await main();
