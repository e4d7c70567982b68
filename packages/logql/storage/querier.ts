import type { LabelMatcher, LineFilterStage } from '../syntax/ast';

// The seam between the LogQL engine and a log store (as Loki's querier): the planner says which streams (matchers),
// which time window and which leading line filters a query needs; the store answers raw lines of those streams, or —
// when no parser stage changes the labels — counts and bytes per step bucket computed where the data is.

export interface LogSelectParams {
  matchers: LabelMatcher[];
  /** Inclusive start, exclusive end, in nanoseconds. */
  startNs: bigint;
  endNs: bigint;
  /** Line filters every answered line must pass (the leading line filters of the pipeline, without ip()). */
  lineFilters: LineFilterStage[];
  /** At most this many lines in total (in `direction` order); absent: all. */
  limit?: number;
  direction: 'forward' | 'backward';
}

export interface StoredStream {
  labels: Record<string, string>;
  /** Times in ns and lines, ascending in time (whatever the direction). */
  timestamps: bigint[];
  lines: string[];
}

/** One stored line with its stream's labels. */
export interface StoredLine {
  labels: Record<string, string>;
  tsNs: bigint;
  line: string;
}

export interface LogStreamParams extends Omit<LogSelectParams, 'limit'> {
  /**
   * Read the range in consecutive time windows (in `direction` order), each asked of the store only when the reader
   * wants more: a reader that stops early has read little of a long range.
   */
  windowed?: boolean;
  /** At most this many lines in total, when the store alone decides which lines are answered. */
  limit?: number;
}

export interface BucketParams {
  matchers: LabelMatcher[];
  lineFilters: LineFilterStage[];
  /** Buckets are (originNs + k·widthNs, originNs + (k+1)·widthNs] for k = 0 … count-1. */
  originNs: bigint;
  widthNs: bigint;
  count: number;
  /**
   * Count only flat JSON objects (keys [A-Za-z_][A-Za-z0-9_]*, values unescaped strings, plain numbers, true, false,
   * null), separately per value of these top-level keys (what `| json` would extract from such a line); the other
   * lines are answered as they are (`others`) for the engine's pipeline.
   */
  jsonKeys?: string[];
}

export interface StreamBuckets {
  labels: Record<string, string>;
  /** With jsonKeys: the values of those keys in the counted lines (absent or null keys left out). */
  json?: Record<string, string>;
  /** Per bucket: the number of lines and the sum of their bytes. */
  lines: Float64Array;
  bytes: Float64Array;
}

export interface LogQuerier {
  selectLogs(params: LogSelectParams, signal?: AbortSignal): Promise<StoredStream[]>;
  /**
   * Optional: the lines in `direction` order (time, then stream), in batches as the store sends them. Leaving the
   * loop early (or aborting) stops the store's reading.
   */
  streamLogs?(params: LogStreamParams, signal?: AbortSignal): AsyncIterable<StoredLine[]>;
  /** Optional push-down: lines and bytes per stream and bucket. */
  countBuckets?(params: BucketParams, signal?: AbortSignal): Promise<{ buckets: StreamBuckets[]; others?: StoredStream[] }>;
}
