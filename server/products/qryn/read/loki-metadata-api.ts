import { IngestError } from '../ingest/batch';
import { formParams, HttpError, sendJson, success, type ReadRequest } from '../http/gateway-http';
import { lokiRange, parseStep } from '../http/time-params';
import { createStreamReader } from './stream-reader';
import { scheduledCall } from '../query/read-scheduler-calls';
import { ReadRefused, ReadTimedOut } from '../query/read-scheduler';
import { LOKI_TIMEOUT_MESSAGE } from '../query/logql-pool';
import { detectedFieldValues, detectFields } from './detected-fields';
import type { LabelMatcher } from '../../../../packages/logql/syntax/ast';
import { LogQLParseError, parseLogSelector } from '../../../../packages/logql/syntax/parse';
import { compileLogSelector, type CompiledLogSelector } from '../../../../packages/logql/log/stream-pipeline';
import { RegexError } from '../../../../packages/re2-pattern/re2-pattern';

// The Loki calls about streams rather than lines (what Grafana's Loki datasource and its logs drilldown call around
// a query): series, label names and values (scoped by a selector and the time range), index stats, index volume
// and volume over time, detected labels, detected fields and their values, patterns. The drilldown's calls answer
// only while the instance's drilldown switch is on.

/** The gateway's answer to the drilldown's calls while the Config page's switch is off. */
export const DRILLDOWN_OFF_MESSAGE = 'Logs drilldown is turned off for this instance: turn it on in the Config page of the console.';

const DRILLDOWN_PATHS = new Set([
  '/loki/api/v1/index/volume', '/loki/api/v1/index/volume_range', '/loki/api/v1/detected_labels', '/loki/api/v1/detected_fields', '/loki/api/v1/patterns',
]);
/** Labels Loki keeps in detected labels even when their values look like ids. */
const STATIC_LABELS = new Set(['cluster', 'namespace', 'instance', 'pod']);
const MAX_LINE_LIMIT = 5_000;
const MAX_POINTS = 11_000;

function selectorOf(query: string, what = 'query'): LabelMatcher[] {
  try {
    return parseLogSelector(query).matchers;
  } catch (error) {
    if (error instanceof LogQLParseError || error instanceof RegexError) throw new HttpError(400, `${what}: ${error.message}`);
    throw error;
  }
}

/** A selector that must be matchers only (the index calls); `{}` means every stream where `matchAny` is allowed. */
function matchersOnly(query: string | null, matchAny: boolean): LabelMatcher[] {
  if (query === null || query === '') throw new IngestError('The query parameter is required.');
  if (matchAny && /^\s*\{\s*\}\s*$/.test(query)) return [];
  let expr;
  try {
    expr = parseLogSelector(query);
  } catch (error) {
    if (error instanceof LogQLParseError || error instanceof RegexError) throw new HttpError(400, error.message);
    throw error;
  }
  if (expr.stages.length > 0) throw new HttpError(400, 'This call takes a stream selector only ({label="value", …}), without a pipeline.');
  return expr.matchers;
}

function compiled(query: string): CompiledLogSelector {
  try {
    return compileLogSelector(query);
  } catch (error) {
    if (error instanceof LogQLParseError || error instanceof RegexError) throw new HttpError(400, error.message);
    throw error;
  }
}

function wholeNumber(params: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new IngestError(`The ${name} must be a whole number from 1 to ${max}.`);
  return n;
}

function decodeName(raw: string, what: string): string {
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, `The ${what} in the path is not valid percent-encoding.`);
  }
  if (name === '') throw new HttpError(400, `The ${what} must not be empty.`);
  return name;
}

const labelsKey = (labels: Record<string, string>) =>
  `{${Object.keys(labels).sort().map((k) => `${k}=${JSON.stringify(labels[k])}`).join(', ')}}`;

/**
 * Loki's volume aggregation: by series (the values of the selector's labels, or of targetLabels), or by labels
 * (one series per label name, its value ""). With targetLabels, only streams that have every target label count.
 */
function volumeGroups(
  stream: Record<string, string>,
  matchers: LabelMatcher[],
  targetLabels: string[] | undefined,
  aggregateBy: 'series' | 'labels',
): Record<string, string>[] {
  if (targetLabels && targetLabels.some((t) => !stream[t])) return [];
  if (aggregateBy === 'labels') {
    const names = targetLabels ?? Object.keys(stream);
    return names.filter((n) => n in stream).map((n) => ({ [n]: '' }));
  }
  const names = targetLabels ?? (matchers.length > 0 ? [...new Set(matchers.map((m) => m.name))] : Object.keys(stream));
  const metric: Record<string, string> = {};
  for (const n of names) if (n in stream) metric[n] = stream[n];
  return [metric];
}

/**
 * A call's reads of the instance's streams, in the instance's turn (read-scheduler-calls.ts): refused past the
 * instance's queue with Loki's 429 text and Retry-After, past its deadline with Loki's 504.
 */
async function streamsRead<T>(r: ReadRequest, work: (reader: ReturnType<typeof createStreamReader>) => Promise<T>): Promise<T> {
  try {
    return await scheduledCall(r, 'logql', (storage) => work(createStreamReader(storage, r.access.instance.database_name)));
  } catch (error) {
    if (error instanceof ReadRefused) throw new HttpError(429, error.message, { 'retry-after': String(error.retryAfterSeconds) });
    if (error instanceof ReadTimedOut) throw new HttpError(504, LOKI_TIMEOUT_MESSAGE);
    throw error;
  }
}

export async function lokiMetadataApi(r: ReadRequest): Promise<boolean> {
  const { req, res, method, path, url } = r;
  if (method !== 'GET' && method !== 'POST') return false;
  const now = r.nowNs;
  const fieldValues = /^\/loki\/api\/v1\/detected_field\/([^/]+)\/values$/.exec(path);
  if (DRILLDOWN_PATHS.has(path) || fieldValues) {
    // The logs drilldown's calls: answered only while the instance's drilldown switch is on.
    if (!r.access.instance.use_drilldown) throw new HttpError(404, DRILLDOWN_OFF_MESSAGE);
  }

  if (path === '/loki/api/v1/labels' || path === '/loki/api/v1/label') {
    const params = await formParams(req, url);
    const range = lokiRange(params, now);
    const query = params.get('query') ?? '';
    const matchers = query ? selectorOf(query) : [];
    success(res, await r.lookup(`/loki/api/v1/labels|${r.dayKey(range)}|${query}`, () => streamsRead(r, (reader) => reader.labelNames(matchers, range))));
    return true;
  }
  const values = /^\/loki\/api\/v1\/label\/([^/]+)\/values$/.exec(path);
  if (values) {
    const name = decodeName(values[1], 'label name');
    const params = await formParams(req, url);
    const range = lokiRange(params, now);
    const query = params.get('query') ?? '';
    const matchers = query ? selectorOf(query) : [];
    success(res, await r.lookup(`${path}|${r.dayKey(range)}|${query}`, () => streamsRead(r, (reader) => reader.labelValues(name, matchers, range))));
    return true;
  }
  if (path === '/loki/api/v1/series') {
    const params = await formParams(req, url);
    const range = lokiRange(params, now);
    const selectors = [...params.getAll('match[]'), ...params.getAll('match')];
    if (selectors.length === 0) throw new IngestError('At least one match[] selector is required.');
    const parsed = selectors.map((s) => selectorOf(s, 'match[]'));
    success(res, await r.lookup(`${path}|${r.dayKey(range)}|${selectors.join('\u0000')}`, () => streamsRead(r, (reader) => reader.series(parsed, range))));
    return true;
  }
  if (path === '/loki/api/v1/index/stats') {
    const params = await formParams(req, url);
    const range = lokiRange(params, now);
    const matchers = matchersOnly(params.get('query'), true);
    sendJson(res, 200, await streamsRead(r, (reader) => reader.stats(matchers, range)));
    return true;
  }
  if (path === '/loki/api/v1/index/volume' || path === '/loki/api/v1/index/volume_range') {
    const params = await formParams(req, url);
    const matchers = matchersOnly(params.get('query'), true);
    const range = lokiRange(params, now);
    const limit = wholeNumber(params, 'limit', 100, 5000);
    const aggregateBy = params.get('aggregateBy') || 'series';
    if (aggregateBy !== 'series' && aggregateBy !== 'labels') throw new IngestError('aggregateBy must be series or labels.');
    const targets = (params.get('targetLabels') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    const targetLabels = targets.length > 0 ? targets : undefined;
    const isRange = path.endsWith('_range');
    let step: number | undefined;
    if (isRange) {
      const rangeSeconds = Number((range.endNs - range.startNs) / 1_000_000_000n);
      step = params.get('step') ? Number(parseStep(params.get('step') ?? undefined) / 1_000_000_000n) : Math.max(Math.floor(rangeSeconds / 250), 1);
      if (step < 1) throw new IngestError('The step must be at least one second.');
      if (rangeSeconds / step + 1 > MAX_POINTS) throw new IngestError(`Too many points: at most ${MAX_POINTS} per series; increase the step.`);
    }
    const volumes = await streamsRead(r, (reader) => reader.streamVolumes(matchers, range, step));
    const groups = new Map<string, { metric: Record<string, string>; bytes: number; lines: number; buckets: Map<number, number> }>();
    for (const v of volumes) {
      for (const metric of volumeGroups(v.labels, matchers, targetLabels, aggregateBy)) {
        const key = labelsKey(metric);
        const group = groups.get(key) ?? { metric, bytes: 0, lines: 0, buckets: new Map() };
        group.bytes += v.bytes;
        group.lines += v.lines;
        group.buckets.set(v.bucket, (group.buckets.get(v.bucket) ?? 0) + v.bytes);
        groups.set(key, group);
      }
    }
    const ranked = [...groups].sort(([ka, a], [kb, b]) => b.bytes - a.bytes || (ka < kb ? -1 : ka > kb ? 1 : 0)).slice(0, limit).map(([, g]) => g);
    if (!isRange) {
      const at = Number(range.endNs / 1_000_000n) / 1000;
      // `lines` is this gateway's addition (the drilldown reads bytes).
      success(res, { resultType: 'vector', result: ranked.map((g) => ({ metric: g.metric, value: [at, String(g.bytes)], lines: g.lines })) });
    } else {
      success(res, {
        resultType: 'matrix',
        result: ranked.map((g) => ({ metric: g.metric, values: [...g.buckets].sort(([a], [b]) => a - b).map(([t, bytes]) => [t, String(bytes)]) })),
      });
    }
    return true;
  }
  if (path === '/loki/api/v1/detected_labels') {
    const params = await formParams(req, url);
    const range = lokiRange(params, now);
    const query = params.get('query') ?? '';
    const matchers = query && !/^\s*\{\s*\}\s*$/.test(query) ? selectorOf(query) : [];
    const series = await streamsRead(r, (reader) => reader.series([matchers], range));
    const byLabel = new Map<string, Set<string>>();
    for (const labels of series) {
      for (const [k, v] of Object.entries(labels)) {
        const set = byLabel.get(k) ?? new Set<string>();
        set.add(v);
        byLabel.set(k, set);
      }
    }
    const detectedLabels = [...byLabel]
      .filter(([label, set]) => STATIC_LABELS.has(label) || !rejectLabel([...set]))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([label, set]) => ({ label, cardinality: set.size }));
    sendJson(res, 200, { detectedLabels });
    return true;
  }
  if (path === '/loki/api/v1/detected_fields' || fieldValues) {
    const params = await formParams(req, url);
    const query = params.get('query');
    if (!query) throw new IngestError('The query parameter is required.');
    const selector = compiled(query);
    const range = lokiRange(params, now);
    const lineLimit = wholeNumber(params, 'line_limit', 100, MAX_LINE_LIMIT);
    const limit = wholeNumber(params, params.has('limit') ? 'limit' : 'field_limit', 1000, 10_000);
    const lines = await streamsRead(r, (reader) => reader.recentLines(selector.matchers, range, lineLimit));
    if (fieldValues) {
      sendJson(res, 200, { values: detectedFieldValues(selector, lines, decodeName(fieldValues[1], 'field name'), limit) });
    } else {
      sendJson(res, 200, { fields: detectFields(selector, lines, limit), limit });
    }
    return true;
  }
  if (path === '/loki/api/v1/patterns') {
    const params = await formParams(req, url);
    matchersOnly(params.get('query'), false);
    lokiRange(params, now);
    // Pattern detection is not built: an honest empty answer (what Loki answers where nothing was detected).
    success(res, []);
    return true;
  }
  return false;
}

const GO_FLOAT = /^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)$/i;
const UUID = /^(urn:uuid:)?\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

/** Loki leaves out labels whose values are all ids (numbers or UUIDs), except labels whose values are 0 and 1. */
function rejectLabel(values: string[]): boolean {
  if (values.length === 0) return true;
  if (values.length <= 2 && values.every((v) => v === '0' || v === '1')) return false;
  return values.every((v) => GO_FLOAT.test(v) || UUID.test(v));
}
