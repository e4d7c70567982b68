import type { Labels } from './labels';
import type { StepSample } from './metric-value';

// A range aggregation's step evaluator, as Loki's range vector iterator: samples come in time order; as soon as they
// are past a step's window, that step can be evaluated for every series and the samples no later window needs are
// dropped. A series holds one window's samples at a time, not the whole range's, and no step's values are kept once
// taken.

/** One sample of a log range: time, value, and the stream it came from (streams numbered as they first came). */
export interface Sample {
  ts: bigint;
  value: number;
  stream: number;
}

/** A window's value from its samples (time, then stream order) and its bounds (start, end]; undefined: none. */
export type WindowAggregate = (win: Sample[], start: bigint, end: bigint) => number | undefined;

interface SeriesState {
  labels: Labels;
  samples: Sample[];
  /** Samples before this index are out of every window still to come. */
  head: number;
  firstStream: number;
  firstLine: number;
}

const byTimeThenStream = (a: Sample, b: Sample) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.stream - b.stream);

export class RangeStepEvaluator {
  private readonly series = new Map<string, SeriesState>();
  /** The series in the order their first samples came in their streams' own order; undefined after a new one. */
  private ordered: SeriesState[] | undefined = [];
  /** The next step to evaluate. */
  private next = 0;

  constructor(
    private readonly steps: bigint[],
    private readonly rangeNs: bigint,
    private readonly offsetNs: bigint,
    private readonly aggregate: WindowAggregate,
  ) {}

  /** Whether every step has been evaluated. */
  get done(): boolean {
    return this.next >= this.steps.length;
  }

  /** Whether the next step's window ends before `ts`: no sample still to come at `ts` or later falls in it. */
  readyBefore(ts: bigint): boolean {
    return !this.done && this.steps[this.next] - this.offsetNs < ts;
  }

  /**
   * A sample of the series `key`, not earlier than any sample before it, once every step ready before its time has
   * been taken (`readyBefore`). `firstLine` (the line's number within its stream) orders series that first came
   * from the same stream.
   */
  add(key: string, labels: Labels, sample: Sample, firstLine: number): void {
    if (this.readyBefore(sample.ts)) throw new Error('a step ready before the sample was not taken');
    let s = this.series.get(key);
    if (!s) {
      s = { labels, samples: [], head: 0, firstStream: sample.stream, firstLine };
      this.series.set(key, s);
      this.ordered = undefined;
    }
    s.samples.push(sample);
  }

  /** Evaluates the next step: the series with a value there, in their first samples' order. */
  step(): StepSample[] {
    const i = this.next++;
    const end = this.steps[i] - this.offsetNs;
    const start = end - this.rangeNs;
    this.ordered ??= [...this.series.values()].sort((a, b) => a.firstStream - b.firstStream || a.firstLine - b.firstLine);
    const out: StepSample[] = [];
    for (const s of this.ordered) {
      const samples = s.samples;
      while (s.head < samples.length && samples[s.head].ts <= start) s.head++;
      let hi = s.head;
      while (hi < samples.length && samples[hi].ts <= end) hi++;
      if (hi > s.head) {
        // Equal times may have come in another stream order than the streams' own: sorted so that a window adds the
        // same numbers in the same order whatever the store's order of equal times.
        const win = samples.slice(s.head, hi);
        if (win.length > 1) win.sort(byTimeThenStream);
        const value = this.aggregate(win, start, end);
        if (value !== undefined) out.push({ labels: s.labels, value });
      }
      if (s.head > 1024 && s.head * 2 > samples.length) {
        s.samples = samples.slice(s.head);
        s.head = 0;
      }
    }
    return out;
  }
}
