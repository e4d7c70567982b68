// `npm run conformance`: the project's own query-language corpora and how many of their cases pass — PromQL case
// files (tests/promql/testdata, with Prometheus' range-mode and `@` re-checks of every instant case) and LogQL
// syntax and stage cases (tests/logql/testdata). Failing cases are listed; the exit code is non-zero when any fails.
// vitest runs the same corpora (tests/promql/promql-cases.test.ts, tests/logql/logql-cases.test.ts).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkStageCase, checkSyntaxCase, parseStageCases, parseSyntaxCases } from '../tests/logql/logql-cases';
import { checkCase } from '../tests/promql/promql-case-check';
import { parseTestFile } from '../tests/promql/promql-test-runner';

const root = join(import.meta.dirname, '..', 'tests');
const filesIn = (dir: string, ext: string) => readdirSync(dir).filter((f) => f.endsWith(ext)).sort();

interface Tally {
  corpus: string;
  cases: number;
  passed: number;
}

async function tally(corpus: string, cases: { where: string; run: () => unknown }[]): Promise<Tally> {
  let passed = 0;
  for (const c of cases) {
    try {
      await c.run();
      passed++;
    } catch (error) {
      console.log(`FAIL ${corpus} ${c.where}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return { corpus, cases: cases.length, passed };
}

const promDir = join(root, 'promql', 'testdata');
const promql = filesIn(promDir, '.test').flatMap((f) =>
  parseTestFile(readFileSync(join(promDir, f), 'utf8')).map((c) => ({ where: `${f}:${c.line}`, run: () => checkCase(c) })));
const syntaxDir = join(root, 'logql', 'testdata', 'syntax');
const syntax = filesIn(syntaxDir, '.txt').flatMap((f) =>
  parseSyntaxCases(f, readFileSync(join(syntaxDir, f), 'utf8')).map((c) => ({ where: `${f}:${c.line}`, run: () => checkSyntaxCase(c) })));
const stageDir = join(root, 'logql', 'testdata', 'stages');
const stages = filesIn(stageDir, '.txt').flatMap((f) =>
  parseStageCases(f, readFileSync(join(stageDir, f), 'utf8')).map((c) => ({ where: `${f}:${c.line}`, run: () => checkStageCase(c) })));

const results = [
  await tally('PromQL cases (instant cases also in range mode and with @)', promql),
  await tally('LogQL syntax (accept, or refuse at the position)', syntax),
  await tally('LogQL stages (line and labels in, line, labels and kept out)', stages),
];
console.log('\n| corpus | cases | passed |\n| --- | --- | --- |');
for (const r of results) console.log(`| ${r.corpus} | ${r.cases} | ${r.passed} |`);
process.exitCode = results.every((r) => r.passed === r.cases) ? 0 : 1;
