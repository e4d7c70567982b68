// Runs every case file of tests/promql/testdata/ against the engine over the in-memory Querier.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../packages/promql/engine/engine';
import { PromQLError } from '../../packages/promql/engine/errors';
import { labelsKey } from '../../packages/promql/engine/value';
import { MemoryQuerier } from '../../packages/promql/storage/memory-querier';
import { almostEqual, parseTestFile, type EvalCase } from './promql-test-runner';

const dir = join(__dirname, 'testdata');
const engine = createEngine();

async function run(c: EvalCase): Promise<void> {
  const querier = new MemoryQuerier(c.data);
  const exec = () =>
    c.kind === 'instant'
      ? engine.instantQuery(querier, c.query, c.timeMs)
      : engine.rangeQuery(querier, c.query, c.timeMs, c.endMs, c.stepMs);
  if (c.fail) {
    const error = await exec().then(() => undefined, (e: unknown) => e);
    expect(error, 'the query should fail').toBeInstanceOf(PromQLError);
    if (c.error) expect((error as PromQLError).message).toContain(c.error);
    return;
  }
  const { value } = await exec();
  if (c.scalar !== undefined) {
    expect(value.type).toBe('scalar');
    if (value.type === 'scalar') expect(almostEqual(value.v, c.scalar), `${value.v} vs ${c.scalar}`).toBe(true);
    return;
  }
  // Actual results as label key → values per expected position.
  const actual = new Map<string, (number | null)[]>();
  const order: string[] = [];
  if (value.type === 'vector') {
    for (const s of value.samples) {
      const k = labelsKey(s.labels);
      expect(actual.has(k), `duplicate series ${k}`).toBe(false);
      actual.set(k, [s.v]);
      order.push(k);
    }
  } else if (value.type === 'matrix') {
    const steps = c.kind === 'range' ? Math.floor((c.endMs - c.timeMs) / c.stepMs) + 1 : 0;
    for (const s of value.series) {
      const k = labelsKey(s.labels);
      const vals: (number | null)[] = c.kind === 'range' ? new Array(steps).fill(null) : [];
      s.timestampsMs.forEach((t, j) => {
        if (c.kind === 'range') vals[Math.round((t - c.timeMs) / c.stepMs)] = s.values[j];
        else vals.push(s.values[j]);
      });
      actual.set(k, vals);
      order.push(k);
    }
  } else throw new Error(`unexpected ${value.type} result`);
  const describeActual = () => [...actual.entries()].map(([k, v]) => `${k.replace(/\xff/g, '|')} ${v.join(' ')}`).join('\n');
  expect(actual.size, `series count; actual:\n${describeActual()}`).toBe(c.expected.length);
  c.expected.forEach((e, idx) => {
    const k = labelsKey(e.labels);
    const got = actual.get(k);
    expect(got, `missing ${k.replace(/\xff/g, '|')}; actual:\n${describeActual()}`).toBeDefined();
    expect(got!.length, `points of ${k}`).toBe(e.values.length);
    e.values.forEach((v, j) => {
      const g = got![j];
      if (v === null || g === null) expect(g, `point ${j} of ${k}`).toBe(v);
      else expect(almostEqual(g, v), `point ${j} of ${k.replace(/\xff/g, '|')}: ${g} vs ${v}`).toBe(true);
    });
    if (c.ordered) expect(order[idx]).toBe(k);
  });
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.test')).sort()) {
  describe(file, () => {
    for (const c of parseTestFile(readFileSync(join(dir, file), 'utf8'))) {
      it(`line ${c.line}: ${c.query}`, () => run(c));
    }
  });
}
