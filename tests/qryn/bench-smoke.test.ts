import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

// The PromQL benchmark (npm run bench:query) in its short mode, so that it keeps running as the code changes: a few
// hundred series, one run per query, every query must answer a non-empty result (the script exits non-zero if not).
// Its figures are not asserted: performance is read from the full run's printout (docs/qryn.md).

it('runs the PromQL benchmark in smoke mode', () => {
  const run = spawnSync('npx', ['tsx', 'scripts/bench-query-promql.ts'], { env: { ...process.env, BENCH_SMOKE: '1' }, encoding: 'utf8', timeout: 120_000 });
  expect(run.stderr + run.stdout).not.toMatch(/Error/);
  expect(run.status).toBe(0);
  for (const query of ['sum(rate(bench_requests_total[5m]))', 'histogram_quantile(0.99', 'topk(10']) expect(run.stdout).toContain(query);
  expect(run.stdout).toMatch(/×/);
}, 150_000);
