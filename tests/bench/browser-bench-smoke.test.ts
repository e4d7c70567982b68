import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { benchSmoke, budgetExitCode, requireBuild, requireFigures } from '../../scripts/bench-budget';

// The browser benchmarks' smoke form runs after the build in scripts/test.sh ("Browser benchmarks, smoke form"); these
// tests hold what makes it fail or not: over budget is reported only, a missing build or no figures is an error.

const run = promisify(execFile);
const root = process.cwd();
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const made: string[] = [];

function emptyDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'browser-bench-smoke-'));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the browser benchmarks\' smoke form', () => {
  it('is on only for BENCH_SMOKE=1', () => {
    expect(benchSmoke({ BENCH_SMOKE: '1' })).toBe(true);
    expect(benchSmoke({ BENCH_SMOKE: '0' })).toBe(false);
    expect(benchSmoke({})).toBe(false);
  });

  it('reports a figure over budget without failing in smoke form, and fails a full run with it', () => {
    const lines: string[] = [];
    expect(budgetExitCode(1, true, (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toMatch(/over budget are reported above but do not fail/);
    expect(budgetExitCode(1, false, (line) => lines.push(line))).toBe(1);
    expect(budgetExitCode(0, false)).toBe(0);
    expect(budgetExitCode(0, true, (line) => lines.push(line))).toBe(0);
    expect(lines).toHaveLength(1);
  });

  it('throws when a measurement gave no figures', () => {
    expect(() => requireFigures([], 'no route change timed')).toThrow('no figures: no route change timed');
    expect(requireFigures([3], 'x')).toEqual([3]);
  });

  it('needs the built console: dist/index.html and Vite\'s manifest', () => {
    const dir = emptyDir();
    expect(() => requireBuild(dir)).toThrow(/dist\/index\.html is missing: run npm run build first/);
    mkdirSync(path.join(dir, 'dist', '.vite'), { recursive: true });
    writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html>');
    expect(() => requireBuild(dir)).toThrow(/dist\/\.vite\/manifest\.json is missing/);
    writeFileSync(path.join(dir, 'dist', '.vite', 'manifest.json'), '{}');
    expect(requireBuild(dir)).toBe(path.join(dir, 'dist'));
  });

  // Each script, started where there is no dist/, stops at once with the message and a non-zero exit (before any
  // platform or browser starts): in smoke form it must not build one of its own, nor time out signing in to nothing.
  it.each([
    ['bench:bundle', ['scripts/bench-bundle.ts']],
    ['bench:routes', ['scripts/bench-browser.ts', 'routes']],
    ['bench:lighthouse', ['scripts/bench-lighthouse.ts']],
  ])('%s in smoke form exits non-zero with a clear message when dist/ is missing', async (_name, [script, ...args]) => {
    const cwd = emptyDir();
    const outcome = await run(tsx, [path.join(root, script!), ...args], { cwd, env: { ...process.env, BENCH_SMOKE: '1' }, timeout: 60_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? '' }),
    );
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain(`${path.join(cwd, 'dist')}/index.html is missing: run npm run build first`);
  }, 90_000);
});
