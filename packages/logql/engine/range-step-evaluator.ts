import type { Labels } from './labels';

// A range aggregation's step evaluator, as Loki's range vector iterator: samples come in time order; as soon as they
// are past a step's window, that step is evaluated for every series and the samples no later window needs are
// dropped. A series holds one window's samples at a time, not the whole range's.

/** One sample of a log range: time, value, and the stream it came from (streams numbered as they first came). */
export interface Sample {
  ts: bigint;
  value: number;
  stream: number;
}

/** A window's value from its samples (time, then stream order) and its bounds (start, end]; undefined: none. */
export type WindowAggregate = (win: Sample[], start: bigint, end: bigint) => number | undefined;

export interface EvaluatedSeries {
  labels: Labels;
  /** One value (or none) per step. */
  values: (number | undefined)[];
}

interface SeriesState extends EvaluatedSeries {
  samples: Sample[];
  /** Samples before this index are out of every window still to come. */
  head: number;
  firstStream: number;
  firstLine: number;
}

const byTimeThenStream = (a: Sample, b: Sample) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.stream - b.stream);

export class RangeStepEvaluator {
  private readonly series = new Map<string, SeriesState>();
  /** The next step to evaluate. */
  private next = 0;

  constructor(
    private readonly steps: bigint[],
    private readonly rangeNs: bigint,
    private readonly offsetNs: bigint,
    private readonly aggregate: WindowAggregate,
  ) {}

  /**
   * A sample of the series `key`, not earlier than any sample before it. `firstLine` (the line's number within its
   * stream) orders series that first came from the same stream.
   */
  add(key: string, labels: Labels, sample: Sample, firstLine: number): void {
    this.evaluateBefore(sample.ts);
    let s = this.series.get(key);
    if (!s) {
      s = { labels, values: new Array<number | undefined>(this.steps.length).fill(undefined), samples: [], head: 0, firstStream: sample.stream, firstLine };
      this.series.set(key, s);
    }
    s.samples.push(sample);
  }

  /** Evaluates the steps left; the series in the order their first samples came in their streams' own order. */
  finish(): EvaluatedSeries[] {
    while (this.next < this.steps.length) this.evaluateStep(this.next++);
    return [...this.series.values()]
      .sort((a, b) => a.firstStream - b.firstStream || a.firstLine - b.firstLine)
      .map(({ labels, values }) => ({ labels, values }));
  }

  /** Evaluates every step whose window ends before `ts`: no sample still to come falls in it. */
  private evaluateBefore(ts: bigint): void {
    while (this.next < this.steps.length && this.steps[this.next] - this.offsetNs < ts) this.evaluateStep(this.next++);
  }

  private evaluateStep(i: number): void {
    const end = this.steps[i] - this.offsetNs;
    const start = end - this.rangeNs;
    for (const s of this.series.values()) {
      const samples = s.samples;
      while (s.head < samples.length && samples[s.head].ts <= start) s.head++;
      let hi = s.head;
      while (hi < samples.length && samples[hi].ts <= end) hi++;
      if (hi > s.head) {
        // Equal times may have come in another stream order than the streams' own: sorted so that a window adds the
        // same numbers in the same order whatever the store's order of equal times.
        const win = samples.slice(s.head, hi);
        if (win.length > 1) win.sort(byTimeThenStream);
        s.values[i] = this.aggregate(win, start, end);
      }
      if (s.head > 1024 && s.head * 2 > samples.length) {
        s.samples = samples.slice(s.head);
        s.head = 0;
      }
    }
  }
}
