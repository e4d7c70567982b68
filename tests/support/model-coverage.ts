// Model coverage across test files: each model test writes .tmp/model-coverage/<machine>.json when it ends, and
// this file, used as vitest's globalSetup, clears the folder before the run and prints one table after it. Files
// run in separate workers, so the file system is the simplest place where their results meet.
// `npx tsx tests/support/model-coverage.ts` prints the table of the last run again; with `--check` (scripts/test.sh)
// it lists every machine of the catalogue and fails when one has no browser walk, or leaves out of its walk a state
// or transition without a written reason, unless e2e/model-map.ts says why its walk is not written.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface MachineCoverage {
  machine: string;
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
  paths: { generated: number; machine: number; view: number };
  /** Browser coverage only: why each state or transition the walk did not cover cannot be reached in a browser. */
  reasons?: Record<string, string>;
}

// Relative to the working directory, not import.meta.url: under vitest's jsdom environment that URL is not a file
// URL. vitest, scripts/test.sh and the CLI below all run from the repository root.
const coverageDir = resolve(process.cwd(), '.tmp', 'model-coverage');
// The browser walks (e2e/model-walk.ts) write theirs here; Playwright's global setup clears it, vitest's does not.
export const browserCoverageDir = join(coverageDir, 'browser');

function fileName(machine: string): string {
  return `${machine.replace(/[^a-zA-Z0-9._-]+/g, '-')}.json`;
}

export function writeCoverage(coverage: MachineCoverage): void {
  mkdirSync(coverageDir, { recursive: true });
  writeFileSync(join(coverageDir, fileName(coverage.machine)), `${JSON.stringify(coverage, null, 2)}\n`);
}

export function writeBrowserCoverage(coverage: MachineCoverage): void {
  mkdirSync(browserCoverageDir, { recursive: true });
  writeFileSync(join(browserCoverageDir, fileName(coverage.machine)), `${JSON.stringify(coverage, null, 2)}\n`);
}

export function clearBrowserCoverage(): void {
  rmSync(browserCoverageDir, { recursive: true, force: true });
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

const ratio = (part: { covered: number; total: number }) => `${part.covered}/${part.total} ${percent(part.covered, part.total)}`;

/** What the browser stage must give every machine of the catalogue: a walk, complete or with a reason for each gap. */
export interface BrowserExpectation {
  machines: string[];
  /** Machines without a walk, and why (e2e/model-map.ts). */
  notWritten: Record<string, string>;
}

/** Why the browser coverage of the last run fails the run: one line per machine and gap. */
export function browserCoverageProblems(browserRows: MachineCoverage[], expected: BrowserExpectation): string[] {
  const browser = new Map(browserRows.map((row) => [row.machine, row]));
  return expected.machines.flatMap((machine) => {
    const row = browser.get(machine);
    if (!row) {
      return expected.notWritten[machine] ? [] : [`${machine}: no browser walk recorded coverage (it failed, did not run, or is not written and e2e/model-map.ts gives no reason)`];
    }
    return [...row.states.missing, ...row.transitions.missing]
      .filter((id) => !row.reasons?.[id] || row.reasons[id] === 'not walked')
      .map((id) => `${machine}: ${id} is left out of the browser walk without a reason`);
  });
}

/** jsdom rows, and next to each the browser walk's states and transitions when one ran for that machine. */
export function formatCoverageTable(rows: MachineCoverage[], browserRows: MachineCoverage[] = [], expected?: BrowserExpectation): string {
  if (rows.length === 0 && browserRows.length === 0 && !expected) return 'Model coverage: no model-based test wrote coverage.';
  const browser = new Map(browserRows.map((row) => [row.machine, row]));
  const names = [...new Set([...rows.map((r) => r.machine), ...browserRows.map((r) => r.machine), ...(expected?.machines ?? [])])].sort((a, b) => a.localeCompare(b));
  const jsdom = new Map(rows.map((row) => [row.machine, row]));
  const header = ['machine', 'states (jsdom)', 'transitions (jsdom)', 'paths (machine / view)', 'states (browser)', 'transitions (browser)', 'browser paths'];
  const body = names.map((name) => {
    const row = jsdom.get(name);
    const walked = browser.get(name);
    const absent = expected?.notWritten[name] ? 'not written' : 'missing';
    return [
      name,
      row ? ratio(row.states) : '-',
      row ? ratio(row.transitions) : '-',
      row ? `${row.paths.machine} / ${row.paths.view} of ${row.paths.generated}` : '-',
      walked ? ratio(walked.states) : expected ? absent : '-',
      walked ? ratio(walked.transitions) : expected ? absent : '-',
      walked ? `${walked.paths.view} of ${walked.paths.generated}` : '-',
    ];
  });
  const widths = header.map((cell, i) => Math.max(cell.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const missing = rows.flatMap((row) => [
    ...row.states.missing.map((s) => `  ${row.machine}: state not reached: ${s}`),
    ...row.transitions.missing.map((t) => `  ${row.machine}: transition not taken: ${t}`),
  ]);
  // What the browser walk leaves to jsdom, grouped by reason: each reason once, then what it keeps out of the walk.
  const onlyJsdom = browserRows.flatMap((row) => {
    const byReason = new Map<string, string[]>();
    for (const id of [...row.states.missing, ...row.transitions.missing]) {
      const reason = row.reasons?.[id] ?? 'not walked';
      byReason.set(reason, [...(byReason.get(reason) ?? []), id]);
    }
    return [...byReason.entries()].flatMap(([reason, ids]) => [`  ${row.machine}: ${reason}`, ...ids.map((id) => `      ${id}`)]);
  });
  const notWritten = Object.entries(expected?.notWritten ?? {}).filter(([name]) => !browser.has(name));
  return [
    'Model coverage (jsdom: tests/model; browser: e2e/paths-*.spec.ts)',
    line(header),
    rule,
    ...body.map(line),
    ...(missing.length ? ['Not covered in jsdom:', ...missing] : []),
    ...(onlyJsdom.length ? ['Only jsdom reaches (the browser walk cannot, and why):', ...onlyJsdom] : []),
    ...(notWritten.length ? ['No browser walk yet (and why):', ...notWritten.map(([name, reason]) => `  ${name}: ${reason}`)] : []),
  ].join('\n');
}

// vitest globalSetup hooks
export function setup(): void {
  // The jsdom files only: the browser walk's files are Playwright's to clear.
  for (const file of readCoverage().map((row) => fileName(row.machine))) rmSync(join(coverageDir, file), { force: true });
}

export function teardown(): void {
  // Silent when the run had no model tests (e.g. `npx vitest run tests/api`).
  const rows = readCoverage();
  // jsdom only: the browser walk runs after vitest (scripts/test.sh prints both once Playwright is done).
  if (rows.length) process.stdout.write(`\n${formatCoverageTable(rows)}\n`);
}

async function printLastRun(check: boolean): Promise<void> {
  if (!check) {
    process.stdout.write(`${formatCoverageTable(readCoverage(), readCoverage(browserCoverageDir))}\n`);
    return;
  }
  // Loaded here only: vitest's globalSetup needs neither the catalogue nor the browser map.
  const [{ MACHINE_CATALOGUE }, { WALKS_NOT_WRITTEN }] = await Promise.all([import('../../src/machines/machine-catalogue'), import('../../e2e/model-map')]);
  const expected = { machines: MACHINE_CATALOGUE.map((entry) => entry.id), notWritten: WALKS_NOT_WRITTEN };
  const browserRows = readCoverage(browserCoverageDir);
  process.stdout.write(`${formatCoverageTable(readCoverage(), browserRows, expected)}\n`);
  const problems = browserCoverageProblems(browserRows, expected);
  if (problems.length) {
    process.stdout.write(`Browser walks missing or incomplete:\n${problems.map((line) => `  ${line}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1]?.endsWith('model-coverage.ts') && !process.env.VITEST) {
  await printLastRun(process.argv.includes('--check'));
}
