// TraceQL metrics in the explorer: which queries are drawn rather than searched, the series read from
// /api/metrics/query_range (Tempo's answer) aligned for the chart, the read's parameters and errors, and the editor's
// completion after a filter (operators) and after a pipe (stages and metrics functions).
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { CompletionContext } from '../../src/views/stack/qryn/editor/completion';
import { traceqlCompletion } from '../../src/views/stack/qryn/editor/traceql-language';
import { isTraceMetricsQuery, traceChartData, traceMetricsRange, traceSeriesName } from '../../src/services/qryn-trace-metrics';

describe('TraceQL metrics queries', () => {
  it('are the queries with a metrics function after a pipe, outside quoted text', () => {
    expect(isTraceMetricsQuery('{ } | rate()')).toBe(true);
    expect(isTraceMetricsQuery('{ kind = server } > { status = error } | count_over_time() by (resource.service.name)')).toBe(true);
    expect(isTraceMetricsQuery('{ } | quantile_over_time(duration, .9) by (name)')).toBe(true);
    expect(isTraceMetricsQuery('{ } | compare({ status = error })')).toBe(true);
    expect(isTraceMetricsQuery('{ name = "x" } | count() > 2')).toBe(false);
    expect(isTraceMetricsQuery('{ name = "| rate(" }')).toBe(false);
    expect(isTraceMetricsQuery('{ span.rate = 1 }')).toBe(false);
    expect(isTraceMetricsQuery('')).toBe(false);
  });

  it('name series by their labels, and by the function without labels', () => {
    expect(traceSeriesName([{ key: '__name__', value: { stringValue: 'rate' } }])).toBe('rate');
    expect(traceSeriesName([{ key: 'resource.service.name', value: { stringValue: 'api' } }, { key: 'p', value: { doubleValue: 0.9 } }])).toBe('{resource.service.name="api", p=0.9}');
    expect(traceSeriesName([{ key: 'span.http.status_code', value: { intValue: '500' } }, { key: 'x' }])).toBe('{span.http.status_code=500, x=nil}');
  });

  it('align the series on the union of their timestamps (seconds), a gap where one has no sample', () => {
    const chart = traceChartData({
      series: [
        { labels: [{ key: 'name', value: { stringValue: 'a' } }], samples: [{ timestampMs: '60000', value: 1 }, { timestampMs: '120000', value: 2 }] },
        { labels: [{ key: 'name', value: { stringValue: 'b' } }], samples: [{ timestampMs: '180000', value: 3 }] },
      ],
    });
    expect(chart).toEqual({ names: ['{name="a"}', '{name="b"}'], xs: [60, 120, 180], ys: [[1, 2, null], [null, null, 3]] });
    expect(traceChartData({ series: [] })).toEqual({ names: [], xs: [], ys: [] });
  });

  it('read the range with a step of about 240 points, and answer the instance’s error text', async () => {
    const asked: URL[] = [];
    const answer = (status: number, body: unknown): typeof fetch => async (input) => {
      asked.push(new URL(String(input)));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    };
    const request = { instanceUrl: 'http://127.0.0.1:9/qryn/abc', auth: 'qk:secret', query: ' { } | rate() ', range: { from: 1_764_000_000_000, to: 1_764_003_600_000 } };
    const chart = await traceMetricsRange(request, undefined, answer(200, { series: [{ labels: [{ key: '__name__', value: { stringValue: 'rate' } }], samples: [{ timestampMs: '1764000000000', value: 0.5 }] }] }));
    expect(chart).toEqual({ names: ['rate'], xs: [1_764_000_000], ys: [[0.5]] });
    expect(asked[0].pathname).toBe('/qryn/abc/api/metrics/query_range');
    expect(Object.fromEntries(asked[0].searchParams)).toEqual({ q: '{ } | rate()', start: '1764000000', end: '1764003600', step: '15s' });
    const error = 'invalid TraceQL query: parse error at line 1, col 8: syntax error';
    await expect(traceMetricsRange(request, undefined, answer(400, { status: 'error', error }))).rejects.toMatchObject({ message: error, status: 400 });
  });
});

describe('TraceQL completion outside a filter', () => {
  const tags = { names: async () => ['http.method'], values: async () => ['GET'] };
  const complete = async (doc: string, explicit = false) => {
    const state = EditorState.create({ doc, selection: { anchor: doc.length } });
    return traceqlCompletion(tags)(new CompletionContext(state, doc.length, explicit));
  };

  it('offers the stages and metrics functions after a pipe', async () => {
    const result = await complete('{ kind = server } | ');
    expect(result?.options.map((o) => o.label)).toEqual(expect.arrayContaining(['rate()', 'count_over_time()', 'quantile_over_time(', 'count()', 'by(', 'select(']));
    const typed = await complete('{ } | quan');
    expect(typed?.from).toBe('{ } | '.length);
    expect(typed?.options.find((o) => o.label === 'quantile_over_time(')?.apply).toBe('quantile_over_time(');
  });

  it('offers the spanset and structural operators after a filter, asked or typed', async () => {
    expect(await complete('{ kind = server } ')).toBeNull();
    const asked = await complete('{ kind = server } ', true);
    expect(asked?.options.map((o) => o.label)).toEqual(expect.arrayContaining(['&&', '||', '>', '>>', '<', '<<', '~', '!>', '&>']));
    const typed = await complete('{ kind = server } >');
    expect(typed?.from).toBe('{ kind = server } '.length);
    expect(typed?.options.find((o) => o.label === '>>')?.apply).toBe('>> ');
    const or = await complete('{ a = "}" } ||');
    expect(or?.options.map((o) => o.label)).toContain('||');
  });

  it('still completes names and values inside a filter after a pipe', async () => {
    const names = await complete('{ } | { http', true);
    expect(names?.options.map((o) => o.label)).toContain('http.method');
    const values = await complete('{ } > { http.method = "');
    expect(values?.options.map((o) => o.label)).toEqual(['GET']);
  });
});
