// Runs the LogQL case files of tests/logql/testdata/ (formats: logql-cases.ts).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { checkStageCase, checkSyntaxCase, parseStageCases, parseSyntaxCases } from './logql-cases';

const dir = join(__dirname, 'testdata');
const files = (sub: string) => readdirSync(join(dir, sub)).filter((f) => f.endsWith('.txt')).sort();

describe('syntax', () => {
  for (const file of files('syntax')) {
    describe(file, () => {
      for (const c of parseSyntaxCases(file, readFileSync(join(dir, 'syntax', file), 'utf8'))) {
        it(`line ${c.line}: ${c.accept ? 'accept' : 'refuse'} ${c.query}`, () => checkSyntaxCase(c));
      }
    });
  }
});

describe('stages', () => {
  for (const file of files('stages')) {
    describe(file, () => {
      for (const c of parseStageCases(file, readFileSync(join(dir, 'stages', file), 'utf8'))) {
        it(`line ${c.line}: ${c.pipeline} on ${JSON.stringify(c.input).slice(0, 60)}`, () => checkStageCase(c));
      }
    });
  }
});
