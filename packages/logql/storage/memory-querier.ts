import { compileStage, matcherTest } from '../log/pipeline';
import type { LabelMatcher, LineFilterStage } from '../syntax/ast';
import type { LogQuerier, LogSelectParams, StoredStream } from './querier';

// A log store held in memory that pushes nothing down on its own: selection by matchers and the line filters the
// planner hands over are applied with the engine's own matchers and filters (RE2 through re2js), so an answer over
// it is the engine's answer over raw lines. It is the reference a pushed-down store is compared with.

export interface MemoryStream {
  labels: Record<string, string>;
  /** Times in ns with their lines, in any order (times distinct within a stream). */
  entries: { ts: bigint; line: string }[];
}

function lineFilterTest(stage: LineFilterStage): (line: string) => boolean {
  const fn = compileStage(stage);
  return (line) => fn({ line, labels: {}, stream: {}, tsNs: 0n });
}

const streamMatches = (matchers: LabelMatcher[], labels: Record<string, string>) =>
  matchers.every((m) => matcherTest(m)(labels[m.name] ?? ''));

export function createMemoryLogQuerier(streams: readonly MemoryStream[]): LogQuerier {
  return {
    async selectLogs(p: LogSelectParams): Promise<StoredStream[]> {
      const filters = p.lineFilters.map(lineFilterTest);
      const picked: { stream: number; ts: bigint; line: string }[] = [];
      streams.forEach((s, index) => {
        if (!streamMatches(p.matchers, s.labels)) return;
        for (const e of s.entries) {
          if (e.ts >= p.startNs && e.ts < p.endNs && filters.every((f) => f(e.line))) picked.push({ stream: index, ts: e.ts, line: e.line });
        }
      });
      // The limit keeps the first lines in the direction's order (a store's ORDER BY time … LIMIT).
      const sign = p.direction === 'forward' ? 1 : -1;
      picked.sort((a, b) => (a.ts === b.ts ? a.stream - b.stream : a.ts < b.ts ? -sign : sign));
      const kept = p.limit === undefined ? picked : picked.slice(0, p.limit);
      const out = new Map<number, StoredStream>();
      for (const e of kept.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0))) {
        let s = out.get(e.stream);
        if (!s) {
          s = { labels: { ...streams[e.stream].labels }, timestamps: [], lines: [] };
          out.set(e.stream, s);
        }
        s.timestamps.push(e.ts);
        s.lines.push(e.line);
      }
      return [...out.values()];
    },
  };
}
