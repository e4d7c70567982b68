import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

// The HEP benchmark (npm run bench:hep) in its short mode, so that it keeps running as the code changes: a platform
// in its own process, 20 TCP connections, then one rate (2,000 packets/s) for one second over UDP beside the bare
// counting socket. The script exits non-zero when a rate stored nothing. Its figures are not asserted: performance
// is read from the full run's printout (docs/hepic.md).

it('runs the HEP benchmark in smoke mode', () => {
  const run = spawnSync('npx', ['tsx', 'scripts/bench-hep.ts'], { env: { ...process.env, BENCH_SMOKE: '1' }, encoding: 'utf8', timeout: 240_000 });
  expect(run.stderr + run.stdout).not.toMatch(/Error/);
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('HEP TCP connections: 30 attempted');
  const row = run.stdout.split('\n').find((line) => line.startsWith('| 2000 |'));
  expect(row).toBeDefined();
  // sent, stored: the columns are there and the platform stored packets.
  const cells = row!.split('|').map((c) => c.trim());
  expect(Number(cells[2])).toBe(2000);
  expect(Number(cells[5])).toBeGreaterThan(0);
  expect(run.stdout).toMatch(/Highest rate without loss: \d+ packets\/s/);
}, 270_000);
