// Runs every case file of tests/promql/testdata/ against the engine over the in-memory Querier, with Prometheus'
// re-checks of instant cases (range mode, `@` on every selector): promql-case-check.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { checkCase } from './promql-case-check';
import { parseTestFile } from './promql-test-runner';

const dir = join(__dirname, 'testdata');

for (const file of readdirSync(dir).filter((f) => f.endsWith('.test')).sort()) {
  describe(file, () => {
    for (const c of parseTestFile(readFileSync(join(dir, file), 'utf8'))) {
      it(`line ${c.line}: ${c.query}`, () => checkCase(c));
    }
  });
}
