// A Querier over series held in memory (tests and comparisons): answers the samples of the matching series within
// the hints' window, as a store would.

import { compileAnchored } from '../../re2-pattern/re2-pattern';
import type { LabelMatcher, Labels, Querier, SelectHints, Series } from './querier';

export interface MemorySeries {
  labels: Labels;
  /** [time in ms, value] pairs in time order; `stale: true` marks a Prometheus stale marker. */
  samples: { t: number; v: number; stale?: boolean }[];
}

export interface SelectCall {
  matchers: LabelMatcher[];
  hints: SelectHints;
}

export class MemoryQuerier implements Querier {
  /** Every select the engine made (tests check the planner's hints with it). */
  readonly calls: SelectCall[] = [];

  constructor(private readonly data: MemorySeries[]) {}

  async select(matchers: LabelMatcher[], hints: SelectHints): Promise<Series[]> {
    this.calls.push({ matchers, hints });
    const tests = matchers.map((m) => matcherTest(m));
    const out: Series[] = [];
    for (const s of this.data) {
      if (!tests.every((test) => test(s.labels))) continue;
      const picked = s.samples.filter((p) => p.t >= hints.startMs && p.t <= hints.endMs);
      if (picked.length === 0) continue;
      const series: Series = {
        labels: { ...s.labels },
        timestampsMs: Float64Array.from(picked, (p) => p.t),
        values: Float64Array.from(picked, (p) => (p.stale ? NaN : p.v)),
      };
      if (picked.some((p) => p.stale)) series.stale = Uint8Array.from(picked, (p) => (p.stale ? 1 : 0));
      out.push(series);
    }
    return out;
  }
}

export function matcherTest(m: LabelMatcher): (labels: Labels) => boolean {
  const value = (labels: Labels) => labels[m.name] ?? '';
  switch (m.op) {
    case '=':
      return (l) => value(l) === m.value;
    case '!=':
      return (l) => value(l) !== m.value;
    case '=~': {
      const re = compileAnchored(m.value);
      return (l) => re(value(l));
    }
    case '!~': {
      const re = compileAnchored(m.value);
      return (l) => !re(value(l));
    }
  }
}
