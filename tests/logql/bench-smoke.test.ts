import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The LogQL benchmark in its smoke mode (20,000 lines, one run), so that the script cannot rot. Figures are not
// asserted: the benchmark prints them.

const run = promisify(execFile);

describe('bench:query (LogQL) smoke mode', () => {
  it('loads the lines, answers both queries and prints the ratios to a direct ClickHouse scan', async () => {
    const { stdout } = await run('npx', ['tsx', 'scripts/bench-query-logql.ts'], { env: { ...process.env, BENCH_SMOKE: '1' }, timeout: 120_000 });
    expect(stdout).toMatch(/loaded 20,000 lines/);
    expect(stdout).toMatch(/sum by \(level\) \(count_over_time\(\{app="x"\} \| json \[1m\]\)\)\n {2}engine \d+ ms \(4 results\), ClickHouse scan \d+ ms, ratio [\d.]+×/);
    expect(stdout).toMatch(/\{app="x"\} \|= "needle"\n {2}engine \d+ ms \(\d+ results\), ClickHouse scan \d+ ms, ratio [\d.]+×/);
  }, 150_000);
});
