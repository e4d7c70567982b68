// The qryn explorer's pure rules and reads: the address (read on load, written on run, other parameters left alone),
// time ranges and their field messages, result tables and chart alignment, server error positions, selectors typed
// and built by the label browser, where a LogQL query's results go, the history, the label cache, and the reads'
// error handling (Prometheus' JSON errors, Loki's plain-text ones, refusals).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkAbsoluteRange,
  DEFAULT_EXPLORER_STATE,
  parseTime,
  RANGE_ORDER_MESSAGE,
  readExplorerUrl,
  resolveRange,
  TIME_FORMAT_MESSAGE,
  writeExplorerUrl,
} from '../../src/machines/qryn-explorer/explorer-url';
import {
  autoStepSeconds,
  chartData,
  errorPosition,
  errorSpan,
  labelNames,
  resultTable,
  runMetricQuery,
  seriesName,
  ExplorerRequestError,
  type MetricResult,
} from '../../src/services/qryn-explorer';
import { cachedLabelSource } from '../../src/views/stack/qryn/editor/label-source';
import { isLogqlMetricQuery } from '../../src/views/stack/qryn/editor/logql-language';
import { HISTORY_SIZE, loadHistory, rememberQuery } from '../../src/views/stack/qryn/editor/query-history';
import { browserScope, buildSelector, selectorContext, usableLokiScope } from '../../src/views/stack/qryn/editor/selector-context';

describe('the explorer address', () => {
  it('reads defaults from an empty address and writes nothing for them', () => {
    expect(readExplorerUrl(new URLSearchParams())).toEqual(DEFAULT_EXPLORER_STATE);
    expect(writeExplorerUrl(new URLSearchParams(), DEFAULT_EXPLORER_STATE).toString()).toBe('');
  });

  it('round-trips every part and leaves the other parameters alone', () => {
    const state = { language: 'logql' as const, query: 'sum by (level) (count_over_time({job="a"}[1m]))', range: { kind: 'absolute' as const, from: 1_000, to: 2_000 }, refresh: '30s' as const, view: 'table' as const, traceId: 'abc123', kind: 'instant' as const, step: '300' as const, timeZone: 'Europe/Berlin' };
    const written = writeExplorerUrl(new URLSearchParams('sidebar=open&query=old'), state);
    expect(written.get('sidebar')).toBe('open');
    expect(written.get('language')).toBe('logs');
    expect(written.get('type')).toBe('instant');
    expect(written.get('step')).toBe('300');
    expect(readExplorerUrl(new URLSearchParams(written.toString()))).toEqual(state);
    const relative = writeExplorerUrl(written, { ...DEFAULT_EXPLORER_STATE, range: { kind: 'relative', value: 'now-7d' } });
    expect(relative.toString()).toBe('sidebar=open&from=now-7d');
  });

  it('reads a value that is not one of the choices as its default', () => {
    const state = readExplorerUrl(new URLSearchParams('language=sql&from=later&refresh=1s&view=pie&traceId=not-hex&type=vector&step=7&tz=Mars/Olympus'));
    expect(state).toEqual(DEFAULT_EXPLORER_STATE);
    // An absolute range whose end is not after its start is not one.
    expect(readExplorerUrl(new URLSearchParams('from=5000&to=4000')).range).toEqual(DEFAULT_EXPLORER_STATE.range);
  });

  it('resolves relative ranges at the time of the run', () => {
    expect(resolveRange({ kind: 'relative', value: 'now-15m' }, 1_000_000_000)).toEqual({ from: 1_000_000_000 - 900_000, to: 1_000_000_000 });
    expect(resolveRange({ kind: 'relative', value: 'now-2d' }, 0).from).toBe(-2 * 86_400_000);
  });
});

describe('absolute time ranges', () => {
  it('parses UTC times and refuses impossible ones', () => {
    expect(parseTime('2026-11-26 10:00:00')).toBe(Date.UTC(2026, 10, 26, 10));
    expect(parseTime('2026-11-26T10:05')).toBe(Date.UTC(2026, 10, 26, 10, 5));
    expect(parseTime('2026-02-31 10:00')).toBeNull();
    expect(parseTime('26/11/2026')).toBeNull();
    expect(parseTime('2026-11-26 24:00')).toBeNull();
  });

  it('puts each message at its field', () => {
    expect(checkAbsoluteRange('yesterday', '2026-11-26 10:00')).toEqual({ from: TIME_FORMAT_MESSAGE });
    expect(checkAbsoluteRange('2026-11-26 10:00', '')).toEqual({ to: TIME_FORMAT_MESSAGE });
    expect(checkAbsoluteRange('2026-11-26 10:00', '2026-11-26 09:00')).toEqual({ to: RANGE_ORDER_MESSAGE });
    expect(checkAbsoluteRange('2026-11-26 09:00', '2026-11-26 10:00')).toEqual({ range: { kind: 'absolute', from: Date.UTC(2026, 10, 26, 9), to: Date.UTC(2026, 10, 26, 10) } });
  });
});

const matrix: MetricResult = {
  resultType: 'matrix',
  result: [
    { metric: { __name__: 'up', job: 'a' }, values: [[10, '1'], [20, '0']] },
    { metric: { job: 'b', instance: 'x"y' }, values: [[20, 'NaN'], [30, '2.5']] },
  ],
};

describe('results', () => {
  it('aligns a matrix on the union of its timestamps, with gaps as null', () => {
    expect(chartData(matrix)).toEqual({ names: ['up{job="a"}', '{instance="x\\"y", job="b"}'], xs: [10, 20, 30], ys: [[1, 0, null], [null, null, 2.5]] });
    expect(chartData({ resultType: 'scalar', result: [1, '2'] }).names).toEqual([]);
  });

  it('makes a table of every result type', () => {
    expect(resultTable(matrix).rows).toEqual([
      ['up{job="a"}', '1970-01-01T00:00:10.000Z', '1'],
      ['up{job="a"}', '1970-01-01T00:00:20.000Z', '0'],
      ['{instance="x\\"y", job="b"}', '1970-01-01T00:00:20.000Z', 'NaN'],
      ['{instance="x\\"y", job="b"}', '1970-01-01T00:00:30.000Z', '2.5'],
    ]);
    expect(resultTable({ resultType: 'vector', result: [{ metric: { a: '1' }, value: [5, '7'] }] })).toEqual({ columns: ['Series', 'Time', 'Value'], rows: [['{a="1"}', '1970-01-01T00:00:05.000Z', '7']] });
    expect(resultTable({ resultType: 'scalar', result: [5, '7'] })).toEqual({ columns: ['Time', 'Value'], rows: [['1970-01-01T00:00:05.000Z', '7']] });
    expect(seriesName({})).toBe('{}');
  });

  it('chooses about 250 points per series, at least one second', () => {
    expect(autoStepSeconds({ from: 0, to: 3_600_000 })).toBe(15);
    expect(autoStepSeconds({ from: 0, to: 60_000 })).toBe(1);
  });
});

describe('server error positions', () => {
  it('reads Prometheus’ and Loki’s wording', () => {
    expect(errorPosition('1:5: parse error: unexpected character')).toEqual({ line: 1, col: 5 });
    expect(errorPosition('parse error at line 2, col 3: syntax error: unexpected IDENTIFIER')).toEqual({ line: 2, col: 3 });
    expect(errorPosition('invalid TraceQL query: parse error at line 1, col 9: x')).toEqual({ line: 1, col: 9 });
    expect(errorPosition('many-to-many matching not allowed')).toBeNull();
  });

  it('underlines the word at the position, or the last character at the end', () => {
    expect(errorSpan('sum(rate(up[5m])', { line: 1, col: 5 })).toEqual({ from: 4, to: 8 });
    expect(errorSpan('{a="b"}\n| jsn', { line: 2, col: 3 })).toEqual({ from: 10, to: 13 });
    expect(errorSpan('sum(', { line: 1, col: 5 })).toEqual({ from: 3, to: 4 });
  });
});

describe('selectors', () => {
  it('tells a label name from a value being typed, with the complete matchers before', () => {
    expect(selectorContext('{job="api", le', 14)).toEqual({ kind: 'name', from: 12, typed: 'le', matchers: [{ name: 'job', op: '=', value: 'api' }] });
    expect(selectorContext('{job="api", level=~"er', 22)).toEqual({ kind: 'value', from: 20, typed: 'er', label: 'level', quoted: true, matchers: [{ name: 'job', op: '=', value: 'api' }] });
    expect(selectorContext('{ resource.service.name = ', 26)).toMatchObject({ kind: 'value', label: 'resource.service.name', quoted: false });
    // Outside braces, and braces inside strings, are no selector.
    expect(selectorContext('{a="x"} |= "{b', 14)).toBeNull();
    expect(selectorContext('rate(', 5)).toBeNull();
  });

  it('scopes Loki lookups only by a selector Loki accepts', () => {
    expect(usableLokiScope([{ name: 'a', op: '!=', value: 'x' }])).toBeUndefined();
    expect(usableLokiScope([{ name: 'a', op: '=', value: 'x' }, { name: 'b', op: '!=', value: '' }])).toBe('{a="x", b!=""}');
  });

  it('builds the label browser’s selector', () => {
    expect(buildSelector({ __name__: ['up'] }, 'promql')).toBe('up');
    expect(buildSelector({ job: ['api', 'web.1'], __name__: ['up'] }, 'promql')).toBe('up{job=~"api|web\\\\.1"}');
    expect(buildSelector({ level: ['error'], app: ['a"b'] }, 'logql')).toBe('{app="a\\"b", level="error"}');
    expect(buildSelector({ job: [] }, 'logql')).toBe('{}');
    expect(browserScope({ job: ['a'] }, 'promql')).toBe('{job="a"}');
    expect(browserScope({}, 'logql')).toBeUndefined();
  });

  it('sends LogQL metric queries to the chart and log queries to the logs panel', () => {
    expect(isLogqlMetricQuery('sum by (level) (count_over_time({job="a"}[1m]))')).toBe(true);
    expect(isLogqlMetricQuery('rate({job="a"} |= "x" [5m]) / 2')).toBe(true);
    expect(isLogqlMetricQuery('{job="a"} |= "rate(" | json')).toBe(false);
    expect(isLogqlMetricQuery('')).toBe(false);
    // Parentheses, comments and a literal at the root.
    expect(isLogqlMetricQuery('( {job="a"} | json )')).toBe(false);
    expect(isLogqlMetricQuery('# errors\n  {job="a"} |= "sum("')).toBe(false);
    expect(isLogqlMetricQuery('# rate\n(sum(rate({job="a"}[1m])))')).toBe(true);
    expect(isLogqlMetricQuery('vector(1)')).toBe(true);
    expect(isLogqlMetricQuery('  \n ')).toBe(false);
  });
});

describe('history and label cache', () => {
  const memory = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
  };

  it('keeps the last 20 queries per language, newest first, once each', () => {
    const store = memory();
    for (let i = 0; i < 25; i += 1) rememberQuery('promql', `up${i}`, store);
    rememberQuery('promql', 'up10', store);
    rememberQuery('logql', '{a="b"}', store);
    const list = loadHistory('promql', store);
    expect(list).toHaveLength(HISTORY_SIZE);
    expect(list.slice(0, 3)).toEqual(['up10', 'up24', 'up23']);
    expect(list.filter((q) => q === 'up10')).toHaveLength(1);
    expect(loadHistory('logql', store)).toEqual(['{a="b"}']);
    expect(loadHistory('traceql', { getItem: () => 'not json', setItem: () => undefined })).toEqual([]);
  });

  it('asks the instance once per question for 30 s, and again after a failure', async () => {
    let now = 0;
    let calls = 0;
    let fail = true;
    const source = cachedLabelSource(
      {
        names: async () => {
          calls += 1;
          if (fail) throw new Error('down');
          return ['job'];
        },
        values: async () => [],
      },
      () => now,
    );
    await expect(source.names()).rejects.toThrow('down');
    fail = false;
    expect(await source.names()).toEqual(['job']);
    expect(await source.names()).toEqual(['job']);
    expect(calls).toBe(2);
    now = 31_000;
    await source.names();
    expect(calls).toBe(3);
  });
});

describe('reads', () => {
  afterEach(() => vi.unstubAllGlobals());
  const target = { url: 'http://qryn.test/qryn/abc', auth: 'qk:qs' };
  const answer = (status: number, body: string) => vi.fn(async () => new Response(body, { status }));

  it('sends the credential and the range in the API’s units', async () => {
    const fetcher = answer(200, JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } }));
    vi.stubGlobal('fetch', fetcher);
    await runMetricQuery(target, { source: 'loki', query: 'rate({a="b"}[1m])', kind: 'range', range: { from: 1_000, to: 61_000 }, stepSeconds: 15 });
    const [url, init] = fetcher.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.pathname).toBe('/qryn/abc/loki/api/v1/query_range');
    expect(url.searchParams.get('start')).toBe('1000000000');
    expect(url.searchParams.get('step')).toBe('15');
    expect((init.headers as Record<string, string>).authorization).toBe(`Basic ${btoa('qk:qs')}`);
    await runMetricQuery(target, { source: 'prometheus', query: 'up', kind: 'instant', range: { from: 1_000, to: 61_000 }, stepSeconds: 15 });
    const [instant] = fetcher.mock.calls[1] as unknown as [URL];
    expect(instant.pathname).toBe('/qryn/abc/api/v1/query');
    expect(instant.searchParams.get('time')).toBe('61');
  });

  it('answers the instance’s reason: Prometheus’ JSON, Loki’s plain text, refusals with their status', async () => {
    vi.stubGlobal('fetch', answer(400, JSON.stringify({ status: 'error', errorType: 'bad_data', error: '1:4: parse error: unexpected end of input' })));
    await expect(runMetricQuery(target, { source: 'prometheus', query: 'up{', kind: 'instant', range: { from: 0, to: 1 }, stepSeconds: 1 })).rejects.toMatchObject({ status: 400, message: '1:4: parse error: unexpected end of input' });
    vi.stubGlobal('fetch', answer(400, 'parse error at line 1, col 8: syntax error'));
    await expect(labelNames(target, 'logql', { from: 0, to: 1 }, '{a="b"')).rejects.toMatchObject({ status: 400, message: 'parse error at line 1, col 8: syntax error' });
    vi.stubGlobal('fetch', answer(401, ''));
    const refused = await labelNames(target, 'promql', { from: 0, to: 1 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExplorerRequestError);
    expect((refused as ExplorerRequestError).status).toBe(401);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('network'))));
    await expect(labelNames(target, 'promql', { from: 0, to: 1 })).rejects.toMatchObject({ status: 0 });
  });
});
