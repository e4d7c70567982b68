import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

// `npm run bench:tenants`: qryn's reads of two tenants on one platform (started here, with its own ClickHouse, on
// loopback). Tenant B's small reads (a Loki query_range of a stream's last lines and a Prometheus instant query, in
// turn) alone, then while tenant A floods the read side with BENCH_CLIENTS clients (default 20) of an expensive
// LogQL query that parses every one of BENCH_LINES JSON lines (default 100,000): B's p50/p99 and the ratio, B's
// failures, what A got (answered, refused 429), and the process's RSS before, at its peak and after. Then a
// dashboard refresh: a 6 h range query, and the same query with its window shifted by 30 s, against the first run.
// Bounded: BENCH_READS reads of B per phase (default 40), the flood stops when they are done.

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const READS = Number(process.env.BENCH_READS ?? 40);
const MB = 1024 * 1024;

async function main() {
  const { loadConfig } = await import('../server/config');
  const { startPlatform } = await import('../server/platform');
  const { readScheduler } = await import('../server/products/qryn/query/read-scheduler');
  const tenantReads = await import('../tests/support/tenant-reads');
  const { enableTwoTenants, flood, percentile, pushFloodLines, pushSmallData, smallReads, timedGet } = tenantReads;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-tenants-'));
  const platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', DEV_PAGES: 'false' }), { quiet: true, seed: true });
  try {
    const { a, b } = await enableTwoTenants(platform);
    await pushFloodLines(a, LINES, 55 * 60_000);
    await pushSmallData(b);
    // The inserts are asynchronous: wait until A's lines are all readable, and warm the workers up.
    const countUrl = `${a.url}/loki/api/v1/query?${new URLSearchParams({ query: 'sum(count_over_time({app="flood"}[1h]))' })}`;
    for (let tries = 0; ; tries++) {
      const response = await fetch(countUrl, { headers: { authorization: a.basic } });
      const body = (await response.json()) as { data: { result: { value: [number, string] }[] } };
      if (Number(body.data.result[0]?.value[1] ?? 0) >= LINES) break;
      if (tries > 60) throw new Error('the flood lines did not become readable');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await smallReads(b, 6);

    const stats = (ms: number[]) => ({ p50: percentile(ms, 50), p99: percentile(ms, 99) });
    const rssBefore = process.memoryUsage().rss;
    const alone = await smallReads(b, READS);

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
    const flooding = flood(a, CLIENTS);
    // The flood is on when A's share is running and reads of A wait behind it.
    const until = Date.now() + 60_000;
    while (readScheduler().counters(a.instanceId).queued < Math.min(10, CLIENTS - 2) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    const loadDuring = loadavg()[0];
    const under = await smallReads(b, READS);
    const floodAnswers = await flooding.stop();
    clearInterval(sampler);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfter = process.memoryUsage().rss;

    const aloneStats = stats(alone.map((r) => r.ms));
    const underStats = stats(under.map((r) => r.ms));
    const bErrors = under.filter((r) => r.status !== 200).length + alone.filter((r) => r.status !== 200).length;
    const aAnswered = floodAnswers.filter((r) => r.status === 200).length;
    const aRefused = floodAnswers.filter((r) => r.status === 429);
    const aOther = floodAnswers.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.status);

    console.log(`two tenants: B's small reads (${READS} per phase) alone and under A's ${CLIENTS}-client flood over ${LINES.toLocaleString('en-US')} lines; load average during the flood ${loadDuring.toFixed(1)}`);
    console.log('| tenant B | p50 ms | p99 ms | errors |');
    console.log('| --- | ---: | ---: | ---: |');
    console.log(`| alone | ${aloneStats.p50.toFixed(0)} | ${aloneStats.p99.toFixed(0)} | ${alone.filter((r) => r.status !== 200).length} |`);
    console.log(`| under the flood | ${underStats.p50.toFixed(0)} | ${underStats.p99.toFixed(0)} | ${under.filter((r) => r.status !== 200).length} |`);
    console.log(`ratio under/alone: p50 ${(underStats.p50 / aloneStats.p50).toFixed(1)}×, p99 ${(underStats.p99 / aloneStats.p99).toFixed(1)}×`);
    console.log(`tenant A: ${aAnswered} answered, ${aRefused.length} refused 429 (Retry-After ${[...new Set(aRefused.map((r) => r.retryAfter))].join(', ') || '-'} s), other answers: ${aOther.length ? aOther.join(', ') : 'none'}`);
    console.log(`RSS: before ${(rssBefore / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB, after ${(rssAfter / MB).toFixed(0)} MB (growth at peak ${((peak - rssBefore) / MB).toFixed(0)} MB)`);

    // A dashboard refresh: the same 6 h range query with its window 30 s later, as a dashboard re-runs it.
    const refresh = async (tenant: typeof a, apiPath: string, query: string) => {
      const endMs = Date.now();
      const run = (shiftMs: number) => {
        const startS = (endMs - 6 * 3_600_000 + shiftMs) / 1000;
        const endS = (endMs + shiftMs) / 1000;
        return timedGet(`${tenant.url}${apiPath}?${new URLSearchParams({ query, start: String(startS), end: String(endS), step: '60' })}`, tenant.basic);
      };
      const first = await run(0);
      const again = await run(30_000);
      if (first.status !== 200 || again.status !== 200) throw new Error(`refresh answered ${first.status}, ${again.status}`);
      return { first: first.ms, again: again.ms };
    };
    const logql = await refresh(a, '/loki/api/v1/query_range', 'sum by (level) (count_over_time({app="flood"} | json [5m]))');
    const promql = await refresh(b, '/api/v1/query_range', 'sum(rate(shop_requests_total[5m]))');
    console.log('| dashboard refresh (6 h, step 60 s) | first ms | shifted 30 s ms | ratio |');
    console.log('| --- | ---: | ---: | ---: |');
    for (const [label, r] of [['LogQL, A', logql], ['PromQL, B', promql]] as const) console.log(`| ${label} | ${r.first.toFixed(0)} | ${r.again.toFixed(0)} | ${(r.again / r.first).toFixed(2)} |`);

    const goals = [
      [`B's p50 under the flood ≤ 5× alone`, underStats.p50 <= 5 * aloneStats.p50],
      [`B's p99 under the flood ≤ 3 s`, underStats.p99 <= 3000],
      [`B: 0 errors`, bErrors === 0],
      [`RSS growth < 1 GB`, peak - rssBefore < 1024 * MB],
    ] as const;
    for (const [goal, met] of goals) console.log(`${met ? 'met' : 'NOT met'}: ${goal}`);
  } finally {
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
