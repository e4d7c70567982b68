import { gridPhase, mergeSeries, slicePoints, splitInterval, splitRange, type MatrixSeries, type RangePiece } from './range-split';
import { bodyText, type AnswerBody } from '../http/answer-json';

// The results cache of range queries (PromQL query_range, LogQL metric query_range), after Loki's and Mimir's query
// frontends: a range is split into intervals on its step's grid (range-split.ts); the parts of completed intervals
// are kept per instance and query, so that a dashboard's refresh — the same window shifted by a few steps — reads
// and evaluates only its newest part, in one evaluation of the contiguous span the cache lacks, and joins it to the
// kept parts. An interval is kept only once its last evaluation time is older than the freshness cutoff, so samples
// that arrive late (within the cutoff) are never hidden. Memory is bounded overall and per instance, least recently
// used first, by the bytes of what is kept. Answers with warnings or errors are never kept, nor are queries whose
// answer depends on the range's own bounds (`@ start()`, `@ end()`).

export interface ResultsCacheSettings {
  enabled: boolean;
  /** Bytes kept in all (the JSON size of the kept points). */
  maxBytes: number;
  /** Bytes kept for one instance. */
  instanceMaxBytes: number;
  /** Intervals whose last evaluation time is later than now − freshness are not kept. */
  freshnessMs: number;
  /** Target length of an interval (rounded up to a multiple of the step). */
  splitMs: number;
}

export const DEFAULT_RESULTS_CACHE: ResultsCacheSettings = {
  enabled: true,
  maxBytes: 256 * 1024 * 1024,
  instanceMaxBytes: 32 * 1024 * 1024,
  freshnessMs: 10 * 60_000,
  splitMs: 30 * 60_000,
};

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** QRYN_RESULTS_CACHE (on/off), QRYN_RESULTS_CACHE_MAX_BYTES, _INSTANCE_MAX_BYTES, _FRESHNESS, _SPLIT. */
export function resultsCacheSettings(env: NodeJS.ProcessEnv = process.env): ResultsCacheSettings {
  const bytes = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    if (!/^\d+$/.test(raw.trim())) throw new Error(`${name} must be a whole number of bytes, not "${raw}".`);
    return Number(raw.trim());
  };
  const duration = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const m = DURATION.exec(raw.trim());
    if (!m) throw new Error(`${name} must be a duration such as 10m, 30s or 1h, not "${raw}".`);
    return Number(m[1]) * UNIT_MS[m[2]];
  };
  const switchText = (env.QRYN_RESULTS_CACHE ?? 'on').trim().toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(switchText)) throw new Error(`QRYN_RESULTS_CACHE must be on or off, not "${env.QRYN_RESULTS_CACHE}".`);
  const split = duration('QRYN_RESULTS_CACHE_SPLIT', DEFAULT_RESULTS_CACHE.splitMs);
  if (split <= 0) throw new Error('QRYN_RESULTS_CACHE_SPLIT must be longer than 0.');
  return {
    enabled: ['on', 'true', '1'].includes(switchText),
    maxBytes: bytes('QRYN_RESULTS_CACHE_MAX_BYTES', DEFAULT_RESULTS_CACHE.maxBytes),
    instanceMaxBytes: bytes('QRYN_RESULTS_CACHE_INSTANCE_MAX_BYTES', DEFAULT_RESULTS_CACHE.instanceMaxBytes),
    freshnessMs: duration('QRYN_RESULTS_CACHE_FRESHNESS', DEFAULT_RESULTS_CACHE.freshnessMs),
    splitMs: split,
  };
}

interface Kept {
  instance: string;
  fromMs: number;
  toMs: number;
  series: MatrixSeries[];
  /** The part's share of the work counts of the evaluation it came from (see WorkCounts). */
  counts?: Counts;
  bytes: number;
}

type Counts = Record<string, number>;

/**
 * Counts an answer carries about the work behind it (Loki's stats: lines and bytes processed). They cannot be split
 * by interval after the fact, so a kept part carries the evaluation's counts in proportion to its share of the
 * evaluation's steps, and a joined answer reports the fresh evaluation's counts plus the kept parts' shares: about
 * what evaluating the whole range would have reported.
 */
export interface WorkCounts {
  read(data: Record<string, unknown>): Counts | undefined;
  write(data: Record<string, unknown>, counts: Counts): void;
}

const stepsIn = (fromMs: number, toMs: number, stepMs: number) => Math.floor((toMs - fromMs) / stepMs) + 1;

function scaled(counts: Counts | undefined, share: number): Counts | undefined {
  if (!counts) return undefined;
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v * share]));
}

function summed(list: (Counts | undefined)[]): Counts {
  const out: Counts = {};
  for (const counts of list) for (const [k, v] of Object.entries(counts ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** The kept parts, least recently used first (a Map keeps insertion order; a hit is moved to the end). */
export class ResultsCache {
  private readonly entries = new Map<string, Kept>();
  private readonly perInstance = new Map<string, number>();
  private total = 0;

  constructor(readonly settings: ResultsCacheSettings) {}

  get bytes(): number {
    return this.total;
  }

  instanceBytes(instance: string): number {
    return this.perInstance.get(instance) ?? 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Kept | undefined {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
    }
    return kept;
  }

  set(key: string, kept: Omit<Kept, 'bytes'>): void {
    const bytes = Buffer.byteLength(JSON.stringify(kept.series)) + key.length;
    this.delete(key);
    if (bytes > this.settings.instanceMaxBytes || bytes > this.settings.maxBytes) return;
    this.entries.set(key, { ...kept, bytes });
    this.total += bytes;
    this.perInstance.set(kept.instance, this.instanceBytes(kept.instance) + bytes);
    for (const [k, v] of this.entries) {
      if (this.instanceBytes(kept.instance) <= this.settings.instanceMaxBytes) break;
      if (v.instance === kept.instance) this.delete(k);
    }
    for (const k of this.entries.keys()) {
      if (this.total <= this.settings.maxBytes) break;
      this.delete(k);
    }
  }

  clear(): void {
    this.entries.clear();
    this.perInstance.clear();
    this.total = 0;
  }

  private delete(key: string): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.total -= kept.bytes;
    const left = this.instanceBytes(kept.instance) - kept.bytes;
    if (left > 0) this.perInstance.set(kept.instance, left);
    else this.perInstance.delete(kept.instance);
  }
}

/** An HTTP answer of either API: the status and the JSON text (other shapes, such as errors, pass through untouched). */
export interface RangeAnswer {
  status?: number;
  body?: AnswerBody;
}

export interface RangeCall {
  /** The instance the answer is of (its database). */
  instance: string;
  /** The language and anything else besides the query's text that changes the answer. */
  scope: string;
  query: string;
  startMs: number;
  endMs: number;
  stepMs: number;
  nowMs: number;
  /** More series than this in the joined answer: the whole range is evaluated instead (its limit then answers). */
  maxSeries?: number;
  work?: WorkCounts;
}

/** The query's text with runs of white space outside quotes made one space (the same query, the same key). */
export function normaliseQuery(query: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (quote) {
      out += c;
      if (c === '\\' && quote !== '`' && i + 1 < query.length) out += query[++i];
      else if (c === quote) quote = '';
    } else if (/\s/.test(c)) {
      if (!/\s/.test(query[i + 1] ?? '') && out !== '' && i + 1 < query.length) out += ' ';
    } else {
      if (c === '"' || c === "'" || c === '`') quote = c;
      out += c;
    }
  }
  return out;
}

/** `@ start()` or `@ end()` anywhere (a string that merely contains it only costs the query its caching). */
const BOUND_AT = /@\s*(start|end)\s*\(\s*\)/;

interface Parsed {
  status: string;
  data: { resultType: string; result: MatrixSeries[] } & Record<string, unknown>;
  warnings?: unknown[];
}

function matrixOf(of: object): Parsed | undefined {
  const answer = of as RangeAnswer;
  if (answer.status !== 200 || answer.body === undefined) return undefined;
  let parsed: Parsed;
  try {
    parsed = JSON.parse(bodyText(answer.body)) as Parsed;
  } catch {
    return undefined;
  }
  if (parsed.status !== 'success' || parsed.data?.resultType !== 'matrix' || !Array.isArray(parsed.data.result)) return undefined;
  if (Array.isArray(parsed.warnings) && parsed.warnings.length > 0) return undefined;
  return parsed;
}

/**
 * Answers a range query from the kept parts and one evaluation of the span they lack (from the first interval not
 * kept to the range's end; the newest interval is always evaluated, so that the answer's other fields come from an
 * evaluation made now). `evaluate` answers any sub-range on the same grid.
 */
export async function cachedRange<A extends object>(cache: ResultsCache, call: RangeCall, evaluate: (startMs: number, endMs: number) => Promise<A>): Promise<A> {
  const { settings } = cache;
  // Whole milliseconds only: the grid's arithmetic and the answers' times (seconds with 3 decimals) stay exact.
  const whole = [call.startMs, call.endMs, call.stepMs].every(Number.isSafeInteger) && call.stepMs > 0;
  if (!settings.enabled || !whole || BOUND_AT.test(call.query)) return evaluate(call.startMs, call.endMs);
  const intervalMs = splitInterval(call.stepMs, settings.splitMs);
  const pieces = splitRange(call, intervalMs);
  if (pieces.length === 0) return evaluate(call.startMs, call.endMs);
  const base = JSON.stringify([call.instance, call.scope, normaliseQuery(call.query), call.stepMs, gridPhase(call.startMs, call.stepMs), intervalMs]);
  const keyOf = (p: RangePiece) => `${base}#${p.index}`;

  const { stepMs } = call;
  const kept: MatrixSeries[][] = [];
  const keptCounts: (Counts | undefined)[] = [];
  let first = 0;
  for (; first < pieces.length - 1; first++) {
    const p = pieces[first];
    const hit = cache.get(keyOf(p));
    if (!hit || hit.fromMs > p.fromMs || hit.toMs < p.toMs) break;
    kept.push(slicePoints(hit.series, p.fromMs, p.toMs));
    keptCounts.push(scaled(hit.counts, stepsIn(p.fromMs, p.toMs, stepMs) / stepsIn(hit.fromMs, hit.toMs, stepMs)));
  }
  const evalFrom = pieces[first].fromMs;
  const fresh = await evaluate(evalFrom, call.endMs);
  const parsed = matrixOf(fresh);
  if (!parsed) return first === 0 ? fresh : evaluate(call.startMs, call.endMs);

  const cutoff = call.nowMs - settings.freshnessMs;
  const freshCounts = call.work?.read(parsed.data);
  const freshSteps = stepsIn(evalFrom, pieces[pieces.length - 1].toMs, stepMs);
  for (const p of pieces.slice(first)) {
    if (p.lastMs > cutoff) break;
    const part = { instance: call.instance, fromMs: p.fromMs, toMs: p.toMs, series: slicePoints(parsed.data.result, p.fromMs, p.toMs), counts: scaled(freshCounts, stepsIn(p.fromMs, p.toMs, stepMs) / freshSteps) };
    keep(cache, keyOf(p), part, stepMs);
  }
  if (first === 0) return fresh;
  const result = mergeSeries([...kept, parsed.data.result]);
  if (call.maxSeries !== undefined && result.length > call.maxSeries) return evaluate(call.startMs, call.endMs);
  const data = { ...parsed.data, result };
  if (call.work && freshCounts) call.work.write(data, summed([freshCounts, ...keptCounts]));
  return { ...fresh, body: JSON.stringify({ ...parsed, data }) };
}

/** Keeps a part, joined with the part already kept of the same interval when the two touch. */
function keep(cache: ResultsCache, key: string, p: Omit<Kept, 'bytes'>, stepMs: number): void {
  const old = cache.get(key);
  if (!old || old.fromMs > p.toMs + stepMs || old.toMs < p.fromMs - stepMs || (old.fromMs >= p.fromMs && old.toMs <= p.toMs)) {
    cache.set(key, p);
    return;
  }
  if (old.fromMs <= p.fromMs && old.toMs >= p.toMs) return;
  const joined = mergeSeries([slicePoints(old.series, old.fromMs, p.fromMs - 1), p.series, slicePoints(old.series, p.toMs + 1, old.toMs)]);
  const oldSteps = stepsIn(old.fromMs, old.toMs, stepMs);
  const shared = stepsIn(Math.max(old.fromMs, p.fromMs), Math.min(old.toMs, p.toMs), stepMs);
  const counts = p.counts || old.counts ? summed([p.counts, scaled(old.counts, (oldSteps - Math.max(0, shared)) / oldSteps)]) : undefined;
  cache.set(key, { instance: p.instance, fromMs: Math.min(old.fromMs, p.fromMs), toMs: Math.max(old.toMs, p.toMs), series: joined, counts });
}
