import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { TempoTrace, tempoToObject } from '../support/tempo-proto';

// Array attributes compared element by element, as Tempo compares them: `{ span.tags = "a" }` holds for a span whose
// array holds "a"; `!=` and `!~` hold when no element is equal (matches). Spans with arrays (strings, ints, empty, with
// quotes and backslashes, bools, doubles, mixed) are pushed as OTLP/JSON, one trace each; each answer is computed
// here from the pushed values with those rules, through the ClickHouse pushdown alone (an exact filter) and through
// the evaluator alike. Each element keeps its OTLP type: an int element equals 404, not "404" (Tempo's typing), and
// is answered as `intValue` inside `arrayValue.values`.

let platform: TestPlatform;
let qryn: EnabledQryn;
const run = randomBytes(3).toString('hex');
const service = `arrays-${run}`;
type Scalar = string | number | boolean;
type Attr = Scalar | Scalar[];
const SPANS: { name: string; attrs: Record<string, Attr> }[] = [
  { name: 'both', attrs: { tags: ['a', 'b'], codes: [200, 404] } },
  { name: 'only-b', attrs: { tags: ['b'], codes: [500] } },
  { name: 'empty', attrs: { tags: [] } },
  { name: 'scalar', attrs: { tags: 'a', codes: 404 } },
  { name: 'escapes', attrs: { tags: ['say "hi"', 'back\\slash', 'a,b'] } },
  { name: 'none', attrs: {} },
  { name: 'strnums', attrs: { codes: ['404', '200'] } },
  { name: 'mixed', attrs: { tags: ['x', 5, true], flags: [true, false], ratios: [0.5, 2.5] } },
];
const nowNs = BigInt(Date.now() - 30_000) * 1_000_000n;
const hex = (n: number) => randomBytes(n).toString('hex');
const anyValue = (v: Attr): unknown =>
  Array.isArray(v)
    ? { arrayValue: { values: v.map(anyValue) } }
    : typeof v === 'boolean' ? { boolValue: v } : typeof v === 'number' ? (Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v }) : { stringValue: v };
const traceIds = SPANS.map(() => hex(16));
const body = {
  resourceSpans: [{
    resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
    scopeSpans: [{ spans: SPANS.map((s, i) => ({
      traceId: traceIds[i], spanId: hex(8), name: s.name, kind: 2,
      startTimeUnixNano: String(nowNs + BigInt(i) * 1_000_000n), endTimeUnixNano: String(nowNs + BigInt(i) * 1_000_000n + 5_000_000n),
      attributes: Object.entries(s.attrs).map(([key, value]) => ({ key, value: anyValue(value) })),
    })) }],
  }],
};

/** Tempo's rule, written out here: a scalar against each element; `!=`/`!~` need every element, the others one. */
function holds(v: Attr | undefined, op: '=' | '!=' | '>' | '=~' | '!~', x: Scalar): boolean {
  if (v === undefined) return false;
  const one = (e: Scalar): boolean => {
    if (typeof e !== typeof x) return false;
    if (op === '=~' || op === '!~') return new RegExp(`^(?:${x})$`).test(String(e)) === (op === '=~');
    return op === '=' ? e === x : op === '!=' ? e !== x : e > x;
  };
  if (!Array.isArray(v)) return one(v);
  return op === '!=' || op === '!~' ? v.every(one) : v.some(one);
}

async function names(q: string): Promise<string[]> {
  const params = new URLSearchParams({ q: `{ resource.service.name = "${service}" } && ${q}`, limit: '100' });
  const response = await fetch(`${qryn.url}/api/search?${params}`, { headers: { authorization: qryn.basic } });
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return (answer.traces as { rootTraceName: string }[]).map((t) => t.rootTraceName).sort();
}
const want = (attr: string, op: Parameters<typeof holds>[1], x: Scalar) => SPANS.filter((s) => holds(s.attrs[attr], op, x)).map((s) => s.name).sort();

beforeAll(async () => {
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  const push = await fetch(`${qryn.url}/v1/traces`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(push.status).toBeLessThan(300);
  for (let i = 0; (await names('{ true }')).length < SPANS.length; i++) {
    if (i > 50) throw new Error('spans not readable');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe('TraceQL array attributes', () => {
  const cases: [string, Parameters<typeof holds>[1], Scalar, string][] = [
    ['tags', '=', 'a', '"a"'],
    ['tags', '!=', 'a', '"a"'],
    ['tags', '=', 'say "hi"', '"say \\"hi\\""'],
    ['tags', '=', 'back\\slash', '"back\\\\slash"'],
    ['tags', '=', 'a,b', '"a,b"'],
    ['tags', '=~', 'b.*', '"b.*"'],
    ['tags', '!~', 'a|b', '"a|b"'],
    ['codes', '=', 404, '404'],
    ['codes', '>', 400, '400'],
    ['codes', '!=', 200, '200'],
    // Typed elements: strings that read as numbers are not numbers, ints not their digits, bools not "true".
    ['codes', '=', '404', '"404"'],
    ['codes', '!=', '404', '"404"'],
    ['codes', '>', 300, '300'],
    ['tags', '=', 5, '5'],
    ['tags', '=', '5', '"5"'],
    ['tags', '=', true, 'true'],
    ['tags', '=', 'true', '"true"'],
    ['tags', '!=', 'x', '"x"'],
    ['flags', '=', false, 'false'],
    ['flags', '!=', true, 'true'],
    ['ratios', '>', 1.5, '1.5'],
    ['ratios', '=', 0.5, '0.5'],
  ];
  it.each(cases)('span.%s %s %s: in ClickHouse and in the evaluator alike', async (attr, op, x, literal) => {
    const expected = want(attr, op, x);
    // The first query's filter is pushed down whole; `1 = 1` keeps the second from being exact, so the evaluator
    // decides over the candidates.
    expect(await names(`{ span.${attr} ${op} ${literal} }`)).toEqual(expected);
    expect(await names(`{ span.${attr} ${op} ${literal} && 1 = 1 }`)).toEqual(expected);
  });

  it('answers each element with its OTLP type in the trace read (JSON and protobuf) and in search results', async () => {
    const mixed = traceIds[SPANS.findIndex((s) => s.name === 'mixed')];
    const typedTags = { arrayValue: { values: [{ stringValue: 'x' }, { intValue: '5' }, { boolValue: true }] } };
    const json = await fetch(`${qryn.url}/api/traces/${mixed}`, { headers: { authorization: qryn.basic } });
    expect(json.status).toBe(200);
    const attributes = ((await json.json()) as any).batches[0].scopeSpans[0].spans[0].attributes;
    expect(attributes).toEqual([
      { key: 'tags', value: typedTags },
      { key: 'flags', value: { arrayValue: { values: [{ boolValue: true }, { boolValue: false }] } } },
      { key: 'ratios', value: { arrayValue: { values: [{ doubleValue: 0.5 }, { doubleValue: 2.5 }] } } },
    ]);
    const proto = await fetch(`${qryn.url}/api/traces/${mixed}`, { headers: { authorization: qryn.basic, accept: 'application/protobuf' } });
    const decoded = tempoToObject(TempoTrace, Buffer.from(await proto.arrayBuffer()));
    expect(decoded.resourceSpans[0].scopeSpans[0].spans[0].attributes).toEqual(attributes);
    const params = new URLSearchParams({ q: `{ resource.service.name = "${service}" && span.tags = 5 }`, limit: '10' });
    const search = await fetch(`${qryn.url}/api/search?${params}`, { headers: { authorization: qryn.basic } });
    const hit = ((await search.json()) as any).traces;
    expect(hit.map((t: { rootTraceName: string }) => t.rootTraceName)).toEqual(['mixed']);
    expect(hit[0].spanSets[0].spans[0].attributes).toEqual(expect.arrayContaining([{ key: 'tags', value: typedTags }]));
  });

  it('counts spans with an element in TraceQL metrics, aggregated in ClickHouse and from the spans', async () => {
    const count = async (q: string) => {
      const params = new URLSearchParams({ q, start: String(Number(nowNs / 1_000_000_000n) - 5), end: String(Number(nowNs / 1_000_000_000n) + 5) });
      const response = await fetch(`${qryn.url}/api/metrics/query?${params}`, { headers: { authorization: qryn.basic } });
      const answer = await response.json();
      expect(response.status, JSON.stringify(answer)).toBe(200);
      return answer.series[0]?.value ?? 0;
    };
    const expected = want('tags', '=', 'a').length;
    expect(expected).toBe(2);
    expect(await count(`{ resource.service.name = "${service}" && span.tags = "a" } | count_over_time()`)).toBe(expected);
    expect(await count(`{ resource.service.name = "${service}" && span.tags = "a" && 1 = 1 } | count_over_time()`)).toBe(expected);
  });
});
