// The explorer's log helpers (src/services/qryn-logs.ts): the volume query Grafana sends, filter-by-value edits of
// the query, the context reads, level detection, trace ids in lines, json/logfmt fields, and the reads themselves
// against a fake fetch (what is asked, how answers and refusals come back).
import { describe, expect, it } from 'vitest';
import {
  InstanceReadError,
  addFilter,
  contextRequests,
  contextSelector,
  detectLevel,
  hasParser,
  linesOf,
  logsTable,
  parseLineFields,
  readContext,
  searchLogs,
  splitTraceIds,
  streamSelectorOf,
  tailFrameLines,
  tailSocket,
  traceIdsOf,
  volumeOf,
  volumeQuery,
  volumeStepSeconds,
} from '../../src/services/qryn-logs';

describe('volume query', () => {
  it('wraps the whole log query as Grafana 11 does: sum by (level) (count_over_time(<query> | drop __error__ [step]))', () => {
    expect(volumeQuery('{job="app"} |= "err" | json | status>=500', 60)).toBe('sum by (level) (count_over_time({job="app"} |= "err" | json | status>=500 | drop __error__ [60s]))');
    expect(volumeQuery('  {job="app"}\n', 5)).toBe('sum by (level) (count_over_time({job="app"} | drop __error__ [5s]))');
  });

  it('picks a readable step for about 100 bars', () => {
    expect(volumeStepSeconds({ from: 0, to: 3_600_000 })).toBe(60);
    expect(volumeStepSeconds({ from: 0, to: 300_000 })).toBe(5);
    expect(volumeStepSeconds({ from: 0, to: 7 * 86_400_000 })).toBe(7200);
    expect(volumeStepSeconds({ from: 0, to: 1000 })).toBe(1);
  });

  it('turns the matrix into buckets with a count per level, levels normalized and a missing level as unknown', () => {
    const volume = volumeOf(
      {
        resultType: 'matrix',
        result: [
          { metric: { level: 'ERROR' }, values: [[100, '2'], [160, '1']] },
          { metric: { level: 'info' }, values: [[100, '5']] },
          { metric: {}, values: [[160, '3']] },
        ],
      },
      60,
    );
    expect(volume.levels).toEqual(['error', 'info', 'unknown']);
    expect(volume.total).toBe(11);
    expect(volume.buckets).toEqual([
      { t: 100_000, counts: { error: 2, info: 5 } },
      { t: 160_000, counts: { error: 1, unknown: 3 } },
    ]);
  });
});

describe('filter for / filter out value', () => {
  it('puts a stream label into the selector, once', () => {
    expect(addFilter('{job="app"} |= "x"', { name: 'env', value: 'prod', op: '=', source: 'stream' })).toBe('{job="app", env="prod"} |= "x"');
    expect(addFilter('{job="app"}', { name: 'env', value: 'prod', op: '!=', source: 'stream' })).toBe('{job="app", env!="prod"}');
    expect(addFilter('{job="app", env="prod"}', { name: 'env', value: 'prod', op: '=', source: 'stream' })).toBe('{job="app", env="prod"}');
  });

  it('puts a parsed field after the last parser or label filter, before formatting stages', () => {
    expect(addFilter('{job="app"} | json', { name: 'user', value: 'ann', op: '=', source: 'parsed', parser: 'json' })).toBe('{job="app"} | json | user="ann"');
    expect(addFilter('{job="app"} | logfmt | status>=500 | line_format "{{.msg}}"', { name: 'user', value: 'ann', op: '!=', source: 'parsed', parser: 'logfmt' })).toBe(
      '{job="app"} | logfmt | status>=500 | user!="ann" | line_format "{{.msg}}"',
    );
  });

  it('adds the parser that found the field when the query has none', () => {
    expect(addFilter('{job="app"} |= "boom"', { name: 'user', value: 'ann', op: '=', source: 'parsed', parser: 'json' })).toBe('{job="app"} |= "boom" | json | user="ann"');
    expect(addFilter('{job="app"}', { name: 'status', value: '500', op: '=', source: 'parsed', parser: 'logfmt' })).toBe('{job="app"} | logfmt | status="500"');
  });

  it('escapes quotes and backslashes, and is not fooled by pipes and braces inside strings', () => {
    expect(addFilter('{job="a|b}"} |= "x | json"', { name: 'msg', value: 'say "hi" \\o/', op: '=', source: 'parsed', parser: 'json' })).toBe('{job="a|b}"} |= "x | json" | json | msg="say \\"hi\\" \\\\o/"');
    expect(hasParser('{job="a"} |= "| json"')).toBe(false);
    expect(hasParser('{job="a"} | regexp "(?P<x>.)"')).toBe(true);
    expect(streamSelectorOf('{job="a}b"} | json')).toBe('{job="a}b"}');
  });
});

describe('show context', () => {
  it('selects the exact stream: its labels without the parsed ones and __error__', () => {
    expect(contextSelector({ job: 'app', env: 'p"rod', user: 'ann', __error__: 'JSONParserErr' }, ['user'])).toBe('{env="p\\"rod", job="app"}');
  });

  it('reads backward up to the line and forward from it, two hours each way', () => {
    const r = contextRequests('{job="app"}', '1764003000000000000', 10);
    expect(r.before).toEqual({ query: '{job="app"}', start: String(1764003000000000000n - 7_200_000_000_000n), end: '1764003000000000001', limit: '11', direction: 'backward' });
    expect(r.after).toEqual({ query: '{job="app"}', start: '1764003000000000000', end: String(1764003000000000000n + 7_200_000_000_000n), limit: '11', direction: 'forward' });
  });

  it('answers the lines around one, oldest first on both sides, without the line itself', async () => {
    const asked: URL[] = [];
    const fetcher = (async (input: string) => {
      const url = new URL(input);
      asked.push(url);
      const backward = url.searchParams.get('direction') === 'backward';
      const values = backward ? [['300', 'target'], ['200', 'b2'], ['100', 'b1']] : [['300', 'target'], ['400', 'a1'], ['500', 'a2']];
      return new Response(JSON.stringify({ status: 'success', data: { resultType: 'streams', result: [{ stream: { job: 'app' }, values }] } }));
    }) as unknown as typeof fetch;
    const target = { tsNs: '300', line: 'target', labels: { job: 'app', user: 'ann' }, level: 'unknown' as const, key: 'k' };
    const ctx = await readContext('http://h/qryn/abc', 'tok', target, ['user'], undefined, fetcher);
    expect(ctx.before.map((l) => l.line)).toEqual(['b1', 'b2']);
    expect(ctx.after.map((l) => l.line)).toEqual(['a1', 'a2']);
    expect(asked.map((u) => u.searchParams.get('query'))).toEqual(['{job="app"}', '{job="app"}']);
    expect(asked[0].pathname).toBe('/qryn/abc/loki/api/v1/query_range');
  });
});

describe('levels', () => {
  it('takes a level label of the stream first', () => {
    expect(detectLevel({ level: 'WARN' }, 'error happened')).toBe('warning');
    expect(detectLevel({ severity: 'critical' }, '')).toBe('critical');
    expect(detectLevel({ detected_level: 'debug' }, '')).toBe('debug');
  });

  it('then a level field of the line (logfmt or json), then the first level word, else unknown', () => {
    expect(detectLevel({}, 'ts=1 level=info msg="an error was retried"')).toBe('info');
    expect(detectLevel({}, '{"msg":"retry after error","level":"debug"}')).toBe('debug');
    expect(detectLevel({}, '2026-01-01 WARNING disk almost full, error soon')).toBe('warning');
    expect(detectLevel({}, 'a fatal mistake')).toBe('critical');
    expect(detectLevel({}, 'terror is not error-free')).toBe('error');
    expect(detectLevel({}, 'GET /index.html 200')).toBe('unknown');
  });
});

describe('trace ids in lines', () => {
  it('finds traceID=, trace_id=, "traceId":"…" with 16 or 32 hex digits and cuts the line around them', () => {
    expect(splitTraceIds('msg=ok traceID=4bf92f3577b34da6a3ce929d0e0e4736 dur=3')).toEqual([
      { text: 'msg=ok traceID=' },
      { text: '4bf92f3577b34da6a3ce929d0e0e4736', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' },
      { text: ' dur=3' },
    ]);
    expect(traceIdsOf('{"traceId":"ABCDEF0123456789","x":1}')).toEqual(['abcdef0123456789']);
    expect(traceIdsOf('trace_id=00f067aa0ba902b7 and trace_id: 4bf92f3577b34da6a3ce929d0e0e4736')).toEqual(['00f067aa0ba902b7', '4bf92f3577b34da6a3ce929d0e0e4736']);
  });

  it('does not take other ids or short hex', () => {
    expect(traceIdsOf('span_id=00f067aa0ba902b7 traceID=abc')).toEqual([]);
    expect(splitTraceIds('plain line')).toEqual([{ text: 'plain line' }]);
    expect(splitTraceIds('')).toEqual([{ text: '' }]);
  });

  it('finds trace ids in labels and fields named like one', () => {
    expect(traceIdsOf('no id here', { trace_id: '4BF92F3577B34DA6A3CE929D0E0E4736', other: '4bf92f3577b34da6a3ce929d0e0e4737' })).toEqual(['4bf92f3577b34da6a3ce929d0e0e4736']);
  });
});

describe('parsed fields', () => {
  it('flattens JSON objects with _ and sanitized names as `| json` does, skipping arrays', () => {
    expect(parseLineFields('{"level":"info","http":{"status":200,"path":"/a"},"tags":["x"],"a-b":null}')).toEqual({
      parser: 'json',
      fields: { level: 'info', http_status: '200', http_path: '/a', a_b: '' },
    });
  });

  it('reads logfmt pairs with quoted values', () => {
    expect(parseLineFields('level=warn msg="disk \\"full\\"" took=3ms')).toEqual({ parser: 'logfmt', fields: { level: 'warn', msg: 'disk "full"', took: '3ms' } });
    expect(parseLineFields('just words')).toBeNull();
  });
});

describe('reads', () => {
  it('sends the credential and x-qryn-view, and reads lines newest first and the volume in parallel', async () => {
    const asked: { url: URL; headers: Record<string, string> }[] = [];
    const fetcher = (async (input: string, init: RequestInit) => {
      const url = new URL(input);
      asked.push({ url, headers: init.headers as Record<string, string> });
      const query = url.searchParams.get('query')!;
      if (query.startsWith('sum by (level)')) return new Response(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [{ metric: { level: 'error' }, values: [[1, '1']] }] } }));
      return new Response(
        JSON.stringify({
          status: 'success',
          data: {
            resultType: 'streams',
            result: [
              { stream: { job: 'a', level: 'error' }, values: [['1000000000000000000', 'old']] },
              { stream: { job: 'b' }, values: [['1000000000000000002', 'new info'], ['999999999999999999', 'older']] },
            ],
          },
        }),
      );
    }) as unknown as typeof fetch;
    const result = await searchLogs({ instanceUrl: 'http://h/qryn/abc', auth: 'key:secret', query: '{job=~"a|b"}', range: { from: 0, to: 3_600_000 }, limit: 50 }, undefined, fetcher);
    expect(result.lines.map((l) => [l.line, l.level])).toEqual([
      ['new info', 'info'],
      ['old', 'error'],
      ['older', 'unknown'],
    ]);
    expect(result.volume?.total).toBe(1);
    expect(asked).toHaveLength(2);
    expect(asked[0].headers).toEqual({ authorization: `Basic ${btoa('key:secret')}`, 'x-qryn-view': '1' });
    expect(asked[0].url.searchParams.get('limit')).toBe('50');
    expect(asked[0].url.searchParams.get('direction')).toBe('backward');
    expect(asked[0].url.searchParams.get('start')).toBe('0');
    expect(asked[0].url.searchParams.get('end')).toBe('3600000000000');
    expect(asked[1].url.searchParams.get('step')).toBe('60s');
  });

  it('keeps the lines when only the volume fails, and fails whole on a refused credential', async () => {
    const answer = (volumeStatus: number) =>
      (async (input: string) => {
        const q = new URL(input).searchParams.get('query')!;
        if (q.startsWith('sum')) return new Response('parse error: drop is not supported', { status: volumeStatus });
        return new Response(JSON.stringify({ status: 'success', data: { resultType: 'streams', result: [] } }));
      }) as unknown as typeof fetch;
    const ok = await searchLogs({ instanceUrl: 'http://h', auth: 't', query: '{a="b"}', range: { from: 0, to: 1000 } }, undefined, answer(400));
    expect(ok.volume).toBeNull();
    expect(ok.volumeError).toBe('parse error: drop is not supported');
    const refused = searchLogs({ instanceUrl: 'http://h', auth: 't', query: '{a="b"}', range: { from: 0, to: 1000 } }, undefined, answer(401));
    await expect(refused).rejects.toBeInstanceOf(InstanceReadError);
    await expect(refused).rejects.toMatchObject({ status: 401, refused: true });
  });

  it('refuses a metric query in the logs view, and says so', async () => {
    const fetcher = (async () => new Response(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } }))) as unknown as typeof fetch;
    await expect(searchLogs({ instanceUrl: 'http://h', auth: 't', query: 'rate({a="b"}[1m])', range: { from: 0, to: 1000 } }, undefined, fetcher)).rejects.toThrow(/metric query/);
  });

  it('an unreachable instance is status 0 with a sentence', async () => {
    const fetcher = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    await expect(searchLogs({ instanceUrl: 'http://h', auth: 't', query: '{a="b"}', range: { from: 0, to: 1000 } }, undefined, fetcher)).rejects.toMatchObject({ status: 0, message: /could not be reached/ });
  });

  it('linesOf keeps equal timestamps from different streams apart', () => {
    const lines = linesOf({ resultType: 'streams', result: [{ stream: { a: '1' }, values: [['5', 'x']] }, { stream: { a: '2' }, values: [['5', 'x']] }] });
    expect(new Set(lines.map((l) => l.key)).size).toBe(2);
  });
});

describe('export', () => {
  it('is the View’s table: ISO time, sorted labels, the line, in the lines’ order', () => {
    const table = logsTable([
      { tsNs: '1764003000123000000', line: 'b', labels: { job: 'x', a: '1' }, level: 'info', key: '1' },
      { tsNs: '1764002000000000000', line: 'a', labels: {}, level: 'unknown', key: '2' },
    ]);
    expect(table).toEqual({
      columns: ['Time', 'Labels', 'Line'],
      rows: [
        [new Date(1764003000123).toISOString(), '{a="1", job="x"}', 'b'],
        [new Date(1764002000000).toISOString(), '{}', 'a'],
      ],
    });
  });
});

describe('live tail socket', () => {
  it('opens ws(s):// on the instance with the query in the URL and the credential only in a subprotocol', () => {
    const s = tailSocket('https://console.example/qryn/abc', 'key:s3cret', '{job="app"}', 1000, 50);
    const url = new URL(s.url);
    expect(url.protocol).toBe('wss:');
    expect(url.pathname).toBe('/qryn/abc/loki/api/v1/tail');
    expect(url.searchParams.get('query')).toBe('{job="app"}');
    expect(url.searchParams.get('start')).toBe('1000000000');
    expect(url.searchParams.get('limit')).toBe('50');
    expect(s.url).not.toContain('s3cret');
    expect(s.protocols[0]).toBe('loki-tail');
    expect(s.protocols[1]).toMatch(/^qryn-auth\.[A-Za-z0-9_-]+$/);
    const carried = Buffer.from(s.protocols[1].slice('qryn-auth.'.length), 'base64url').toString('utf8');
    expect(carried).toBe(`Basic ${btoa('key:s3cret')}`);
    expect(new URL(tailSocket('http://h/qryn/abc', 't', '{a="b"}', 0).url).protocol).toBe('ws:');
  });

  it('reads a frame’s lines in order with their levels', () => {
    const seq = { n: 0 };
    const lines = tailFrameLines(JSON.stringify({ streams: [{ stream: { job: 'a' }, values: [['1', 'level=error x'], ['2', 'ok']] }] }), seq);
    expect(lines.map((l) => [l.tsNs, l.level, l.key])).toEqual([
      ['1', 'error', 'tail-0'],
      ['2', 'unknown', 'tail-1'],
    ]);
    expect(seq.n).toBe(2);
  });
});
