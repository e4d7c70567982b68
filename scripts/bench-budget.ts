// What the browser benchmarks (bench:bundle, bench:routes, bench:lighthouse) share about their smoke form.
//
// BENCH_SMOKE=1 runs each for a moment after the test run's own build (scripts/test.sh, "Browser benchmarks, smoke
// form"), so that none breaks unnoticed. A smoke run on a shared CI machine says nothing of speed, and the landing is
// known to be over its budget (docs/testing.md), so a figure over budget is printed but does not fail it; a broken
// script does: an exception (a route that does not render, a platform that does not start), or no figures.
import { existsSync } from 'node:fs';
import path from 'node:path';

export function benchSmoke(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.BENCH_SMOKE === '1';
}

/** The built console the benchmarks measure: the platform serves dist/, the bundle figures read Vite's manifest. */
export function requireBuild(root: string = process.cwd()): string {
  const dist = path.join(root, 'dist');
  for (const file of ['index.html', path.join('.vite', 'manifest.json')]) {
    // Without it the platform would serve no console and the run would end in a sign-in timeout that says nothing.
    if (!existsSync(path.join(dist, file))) throw new Error(`${path.join(dist, file)} is missing: run npm run build first`);
  }
  return dist;
}

/**
 * The exit code a run ends with, given the one its budgets asked for (non-zero: a figure over budget): that code in
 * a full run; 0 in smoke form, with a line saying the figures over budget were reported only.
 */
export function budgetExitCode(code: number, smoke: boolean = benchSmoke(), log: (line: string) => void = console.log): number {
  if (code === 0 || !smoke) return code;
  log('\nSmoke form (BENCH_SMOKE=1): figures over budget are reported above but do not fail the run.');
  return 0;
}

/** A measurement that produced nothing is a broken benchmark, in either form: it throws, naming what is missing. */
export function requireFigures<T>(figures: readonly T[], what: string): readonly T[] {
  if (figures.length === 0) throw new Error(`no figures: ${what}`);
  return figures;
}
