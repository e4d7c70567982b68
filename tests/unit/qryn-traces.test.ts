// The explorer's trace helpers (src/services/qryn-traces.ts): Tempo's search answer as table rows, sorting, a trace's
// OTLP JSON as spans, the waterfall layout (nesting, order, shared time axis, service colours), durations, and the
// reads against a fake fetch.
import { describe, expect, it } from 'vitest';
import { formatDuration, layoutWaterfall, readTrace, searchTraces, sortHits, spansOf, tracesFoundText, type TraceHit, type TraceSpan } from '../../src/services/qryn-traces';

const span = (id: string, parent: string | null, startMs: number, durationMs: number, service = 'api', name = id): TraceSpan => ({
  spanId: id,
  parentSpanId: parent,
  name,
  service,
  kind: 'internal',
  startMs,
  durationMs,
  status: 'unset',
  attributes: [],
  resource: [],
  events: [],
});

describe('waterfall layout', () => {
  it('nests spans under their parents depth-first, children by start time, on the trace’s time axis', () => {
    const w = layoutWaterfall([span('c2', 'root', 1060, 20, 'db'), span('root', null, 1000, 100), span('c1', 'root', 1010, 40, 'auth'), span('g1', 'c1', 1020, 10, 'db')]);
    expect(w.rows.map((r) => [r.span.spanId, r.depth])).toEqual([
      ['root', 0],
      ['c1', 1],
      ['g1', 2],
      ['c2', 1],
    ]);
    expect(w.startMs).toBe(1000);
    expect(w.durationMs).toBe(100);
    const c1 = w.rows[1];
    expect(c1.offset).toBeCloseTo(0.1);
    expect(c1.width).toBeCloseTo(0.4);
    expect(w.rows[0].children).toEqual(['c1', 'c2']);
    // Services in order of first appearance: one colour each.
    expect(w.services).toEqual(['api', 'auth', 'db']);
    expect(w.rows.map((r) => r.serviceIndex)).toEqual([0, 1, 2, 2]);
  });

  it('shows spans whose parent is missing as roots, and survives a parent cycle', () => {
    const w = layoutWaterfall([span('a', 'missing', 0, 10), span('b', 'c', 1, 1), span('c', 'b', 2, 1)]);
    expect(w.rows.map((r) => r.span.spanId).sort()).toEqual(['a', 'b', 'c']);
    expect(w.rows.find((r) => r.span.spanId === 'a')!.depth).toBe(0);
  });

  it('a trace of one instant span spans the whole axis; no spans, no rows', () => {
    expect(layoutWaterfall([span('a', null, 5, 0)]).rows[0]).toMatchObject({ offset: 0, width: 1 });
    expect(layoutWaterfall([]).rows).toEqual([]);
  });
});

describe('a trace’s OTLP JSON', () => {
  it('reads spans with their service, kind, status, attributes and events', () => {
    const spans = spansOf({
      batches: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }, { key: 'host', value: { stringValue: 'h1' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  spanId: 'a1',
                  name: 'POST /orders',
                  kind: 'SPAN_KIND_SERVER',
                  startTimeUnixNano: '1764003000000000000',
                  endTimeUnixNano: '1764003000125500000',
                  attributes: [{ key: 'http.status_code', value: { intValue: '500' } }, { key: 'ok', value: { boolValue: false } }],
                  status: { code: 2 },
                  events: [{ timeUnixNano: '1764003000100000000', name: 'exception', attributes: [{ key: 'exception.type', value: { stringValue: 'Boom' } }] }],
                },
                { spanId: 'b2', parentSpanId: 'a1', name: 'db', kind: 3, startTimeUnixNano: '1764003000010000000', endTimeUnixNano: '1764003000020000000' },
              ],
            },
          ],
        },
      ],
    });
    expect(spans[0]).toMatchObject({ spanId: 'a1', parentSpanId: null, service: 'checkout', kind: 'server', status: 'error', startMs: 1764003000000, attributes: [['http.status_code', '500'], ['ok', 'false']], resource: [['service.name', 'checkout'], ['host', 'h1']] });
    expect(spans[0].durationMs).toBeCloseTo(125.5);
    expect(spans[0].events).toEqual([{ name: 'exception', offsetMs: 100, attributes: [['exception.type', 'Boom']] }]);
    expect(spans[1]).toMatchObject({ parentSpanId: 'a1', kind: 'client', status: 'unset', durationMs: 10 });
  });
});

describe('search', () => {
  it('asks /api/search with q, unix seconds and a limit, and reads Tempo’s answer as rows', async () => {
    let asked: URL | undefined;
    const fetcher = (async (input: string) => {
      asked = new URL(input);
      return new Response(
        JSON.stringify({
          traces: [{ traceID: 'abc', rootServiceName: 'checkout', rootTraceName: 'POST /orders', startTimeUnixNano: '1764003000000000000', durationMs: 125, spanSets: [{ matched: 2 }] }],
          metrics: {},
        }),
      );
    }) as unknown as typeof fetch;
    const hits = await searchTraces({ instanceUrl: 'http://h/qryn/abc', auth: 'tok', query: '{ duration > 100ms }', range: { from: 1_764_000_000_500, to: 1_764_003_600_200 } }, undefined, fetcher);
    expect(asked!.pathname).toBe('/qryn/abc/api/search');
    expect(Object.fromEntries(asked!.searchParams)).toEqual({ q: '{ duration > 100ms }', start: '1764000000', end: '1764003601', limit: '50' });
    expect(hits).toEqual([{ traceId: 'abc', service: 'checkout', name: 'POST /orders', startMs: 1764003000000, durationMs: 125, matched: 2 }]);
  });

  it('an empty query searches every trace ({}); a parse error is the instance’s 400 text', async () => {
    let q = '';
    const ok = (async (input: string) => {
      q = new URL(input).searchParams.get('q')!;
      return new Response(JSON.stringify({ traces: [] }));
    }) as unknown as typeof fetch;
    expect(await searchTraces({ instanceUrl: 'http://h', auth: 't', query: ' ', range: { from: 0, to: 1000 } }, undefined, ok)).toEqual([]);
    expect(q).toBe('{}');
    const bad = (async () => new Response('invalid TraceQL query: parse error at line 1, col 3: syntax error', { status: 400 })) as unknown as typeof fetch;
    await expect(searchTraces({ instanceUrl: 'http://h', auth: 't', query: '{ x', range: { from: 0, to: 1000 } }, undefined, bad)).rejects.toMatchObject({ status: 400, message: /col 3/ });
  });

  it('sorts by a column, ties in the instance’s order', () => {
    const hits: TraceHit[] = [
      { traceId: '1', service: 'b', name: 'x', startMs: 3, durationMs: 10, matched: 1 },
      { traceId: '2', service: 'a', name: 'y', startMs: 2, durationMs: 30, matched: 1 },
      { traceId: '3', service: 'b', name: 'z', startMs: 1, durationMs: 20, matched: 1 },
    ];
    expect(sortHits(hits, 'duration', true).map((h) => h.traceId)).toEqual(['2', '3', '1']);
    expect(sortHits(hits, 'service', false).map((h) => h.traceId)).toEqual(['2', '1', '3']);
    expect(sortHits(hits, 'start', false).map((h) => h.traceId)).toEqual(['3', '2', '1']);
  });
});

describe('one trace', () => {
  it('reads /api/traces/{id} in lower case; a 404 is the instance’s reason', async () => {
    let path = '';
    const fetcher = (async (input: string) => {
      path = new URL(input).pathname;
      return new Response('Trace not found.', { status: 404 });
    }) as unknown as typeof fetch;
    await expect(readTrace({ instanceUrl: 'http://h/qryn/abc', auth: 't', traceId: ' ABC ' }, undefined, fetcher)).rejects.toMatchObject({ status: 404, message: 'Trace not found.' });
    expect(path).toBe('/qryn/abc/api/traces/abc');
  });
});

describe('durations', () => {
  it('reads as people read them', () => {
    expect(formatDuration(0.25)).toBe('250µs');
    expect(formatDuration(3.456)).toBe('3.46ms');
    expect(formatDuration(45.67)).toBe('45.7ms');
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(1250)).toBe('1.25s');
    expect(formatDuration(125_000)).toBe('2m 5s');
  });
});

describe('the search status line', () => {
  it('counts what was found, and says a full page stopped at the limit', () => {
    expect(tracesFoundText(0)).toBe('No traces matched in this time range.');
    expect(tracesFoundText(1)).toBe('1 trace found.');
    expect(tracesFoundText(49)).toBe('49 traces found.');
    expect(tracesFoundText(50)).toBe('The first 50 traces found (the limit of 50; narrow the query or the range for others).');
  });
});
