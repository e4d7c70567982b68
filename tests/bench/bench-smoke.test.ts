import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Every benchmark (the bench:* scripts of package.json) runs for about a second in its smoke form (BENCH_SMOKE=1), so
// that none breaks unnoticed: it must exit 0 and print its figures. The figures are not judged here (a smoke run on
// a shared machine says nothing of speed); the full runs print them for docs/*.md.
// Covered elsewhere: bench:query (tests/qryn/bench-smoke.test.ts, tests/logql/bench-smoke.test.ts) and bench:hep
// (its own test). Not here: bench:bundle, bench:routes and bench:lighthouse need the built console, which the vitest
// stage runs beside rather than after: scripts/test.sh runs their smoke form after the build ("Browser benchmarks,
// smoke form"), and tests/bench/browser-bench-smoke.test.ts holds when it fails.

const run = promisify(execFile);

async function smoke(script: string, timeout = 150_000): Promise<string> {
  const { stdout } = await run('npx', ['tsx', script], { env: { ...process.env, BENCH_SMOKE: '1' }, timeout, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

describe('benchmarks in their smoke form', () => {
  it('bench:ingest pushes through the gateway and inserts directly at 1, 10 and 50 connections, prints the ratios, and cleans up', async () => {
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('bench-ingest-'));
    const stdout = await smoke('scripts/bench-ingest.ts');
    for (const connections of [1, 10, 50]) expect(stdout).toMatch(new RegExp(`\\| ${connections} \\| [1-9]\\d* \\| [1-9]\\d* \\| [\\d.]+× \\|`));
    const [, acknowledged, stored] = /lines acknowledged by the gateway: (\d+), stored: (\d+)/.exec(stdout)!;
    expect(Number(stored)).toBeGreaterThanOrEqual(Number(acknowledged));
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('bench-ingest-') && !before.includes(f))).toEqual([]);
  }, 180_000);

  it('bench:api serves GET /api/projects/ from the API and a raw server and prints the table', async () => {
    const stdout = await smoke('scripts/bench-api.ts');
    expect(stdout).toMatch(/API, PGlite, read cache on \(default\).*\d+/);
    expect(stdout).toMatch(/raw node:http, same JSON/);
    expect(stdout).toMatch(/Little's law \(requests\/s [1-9]\d*\)/);
  }, 180_000);

  it('bench:promql-engine times each query', async () => {
    const stdout = await smoke('scripts/bench-promql-engine.ts');
    expect(stdout).toMatch(/\d+ ms {2}sum\(rate\(http_requests_total\[5m\]\)\) {2}\(500 series/);
    expect(stdout.match(/ ms {2}/g)).toHaveLength(4);
  }, 180_000);

  it('bench:tempo searches traces and times the live tail', async () => {
    const stdout = await smoke('scripts/bench-tempo-tail.ts');
    expect(stdout).toMatch(/search over 100 traces × 5 spans/);
    expect(stdout).toMatch(/\| `\{ resource\.service\.name = "svc-3" \}` \| [1-9]\d* \| \d+ \| \d+ \|/);
    expect(stdout).toMatch(/\| `\{ kind = server \} > \{ status = error \}` \| [1-9]\d* \| \d+ \| \d+ \|/);
    expect(stdout).toMatch(/\| `\{ \} \| rate\(\) by \(resource\.service\.name\)` \| [1-9]\d* \| \d+ \| \d+ \| \d+ \|/);
    expect(stdout).toMatch(/live tail, 2 lines pushed one at a time: push answered → line received, median \d+ ms, max \d+ ms/);
  }, 180_000);

  it('bench:trace-read reads one trace with and without span events, in JSON and protobuf', async () => {
    const stdout = await smoke('scripts/bench-trace-read.ts');
    expect(stdout).toMatch(/trace read of one trace of 200 spans, 2 runs each/);
    for (const row of [/\| no events \| json \| \d+ \| \d+ \| [1-9]\d* \|/, /\| 3 events per span \| protobuf \| \d+ \| \d+ \| [1-9]\d* \|/]) expect(stdout).toMatch(row);
  }, 180_000);

  it('bench:clickhouse creates and deletes a 1 x 1 cluster and times its recovery from kill -9', async () => {
    const stdout = await smoke('scripts/bench-clickhouse.ts');
    expect(stdout).toMatch(/1 x 1\s+\d+\s+[\d.]+ s\s+[\d.]+ s/);
    expect(stdout).toMatch(/kill -9 of the server\s+[\d.]+ s/);
  }, 180_000);
});
