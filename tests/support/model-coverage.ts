// Model coverage across test files: each model test writes .tmp/model-coverage/<machine>.json when it ends, and
// this file, used as vitest's globalSetup, clears the folder before the run and prints one table after it. Files
// run in separate workers, so the file system is the simplest place where their results meet.
// `npx tsx tests/support/model-coverage.ts` prints the table of the last run again (scripts/test.sh does).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface MachineCoverage {
  machine: string;
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
  paths: { generated: number; machine: number; view: number };
}

// Relative to the working directory, not import.meta.url: under vitest's jsdom environment that URL is not a file
// URL. vitest, scripts/test.sh and the CLI below all run from the repository root.
const coverageDir = resolve(process.cwd(), '.tmp', 'model-coverage');

function fileName(machine: string): string {
  return `${machine.replace(/[^a-zA-Z0-9._-]+/g, '-')}.json`;
}

export function writeCoverage(coverage: MachineCoverage): void {
  mkdirSync(coverageDir, { recursive: true });
  writeFileSync(join(coverageDir, fileName(coverage.machine)), `${JSON.stringify(coverage, null, 2)}\n`);
}

export function readCoverage(dir = coverageDir): MachineCoverage[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as MachineCoverage)
    .sort((a, b) => a.machine.localeCompare(b.machine));
}

function percent(covered: number, total: number): string {
  return total === 0 ? '-' : `${Math.floor((covered / total) * 100)}%`;
}

export function formatCoverageTable(rows: MachineCoverage[]): string {
  if (rows.length === 0) return 'Model coverage: no model-based test wrote coverage.';
  const header = ['machine', 'states', 'transitions', 'paths (machine / view)'];
  const body = rows.map((row) => [
    row.machine,
    `${row.states.covered}/${row.states.total} ${percent(row.states.covered, row.states.total)}`,
    `${row.transitions.covered}/${row.transitions.total} ${percent(row.transitions.covered, row.transitions.total)}`,
    `${row.paths.machine} / ${row.paths.view} of ${row.paths.generated}`,
  ]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const missing = rows.flatMap((row) => [
    ...row.states.missing.map((s) => `  ${row.machine}: state not reached: ${s}`),
    ...row.transitions.missing.map((t) => `  ${row.machine}: transition not taken: ${t}`),
  ]);
  return ['Model coverage', line(header), rule, ...body.map(line), ...(missing.length ? ['Not covered:', ...missing] : [])].join(
    '\n',
  );
}

// vitest globalSetup hooks
export function setup(): void {
  rmSync(coverageDir, { recursive: true, force: true });
}

export function teardown(): void {
  // Silent when the run had no model tests (e.g. `npx vitest run tests/api`).
  const rows = readCoverage();
  if (rows.length) process.stdout.write(`\n${formatCoverageTable(rows)}\n`);
}

if (process.argv[1]?.endsWith('model-coverage.ts') && !process.env.VITEST) {
  process.stdout.write(`${formatCoverageTable(readCoverage())}\n`);
}
