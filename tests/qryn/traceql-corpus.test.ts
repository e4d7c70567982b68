import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { buildTraces, otlpBody, prng, type ModelSpan, type ModelTrace, type Value } from './traceql-corpus.data';

// A corpus of TraceQL searches of every form the engine runs (filters, spanset and structural operators, pipelines
// with scalar filters, by, coalesce, select, top-level scalar filters), each built together with its answer by a
// slow evaluator written here over the data set's model (never the code under test). The data set goes through the
// real OTLP ingest into the platform's ClickHouse; each query runs through /api/search and must answer exactly the
// traces, and in them the spans, the model answers. Comparisons keep to values where Tempo's typing and the stored
// text agree (a number compared with an int attribute, a string with a string one).

let platform: TestPlatform;
let qryn: EnabledQryn;
const run = randomBytes(3).toString('hex');
const startMs = Date.now() - 120_000;
const traces: ModelTrace[] = buildTraces(run, startMs);
const svc = (name: string) => `${name}-${run}`;

type Sets = ModelSpan[][];
interface Query {
  text: string;
  /** A spanset expression (may stand on either side of a spanset operator without parentheses if `simple`). */
  simple: boolean;
  run: (trace: ModelTrace, input: Sets) => Sets;
}
interface Atom {
  text: string;
  pred: (span: ModelSpan, trace: ModelTrace) => boolean;
}

const MS = 1_000_000n;
const num = (v: Value | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const root = (t: ModelTrace) => t.spans.find((s) => !s.parentId);
const traceDuration = (t: ModelTrace) => {
  const start = t.spans.reduce((m, s) => (s.startNs < m ? s.startNs : m), t.spans[0].startNs);
  const end = t.spans.reduce((m, s) => (s.startNs + s.durationNs > m ? s.startNs + s.durationNs : m), 0n);
  return end - start;
};
const parentOf = (s: ModelSpan, t: ModelTrace) => t.spans.find((p) => p.spanId === s.parentId);
const ancestorsOf = (s: ModelSpan, t: ModelTrace): ModelSpan[] => {
  const out: ModelSpan[] = [];
  for (let p = parentOf(s, t); p; p = parentOf(p, t)) out.push(p);
  return out;
};
const childrenOf = (s: ModelSpan, t: ModelTrace) => t.spans.filter((c) => c.parentId === s.spanId);

// Span conditions: the text and what it means on the model.
const linkTarget = traces[1].spans[1];
const someSpan = traces[4].spans[2];
const ATOMS: Atom[] = [
  { text: 'status = error', pred: (s) => s.status === 'error' },
  { text: 'status = ok', pred: (s) => s.status === 'ok' },
  { text: 'status = unset', pred: (s) => s.status === 'unset' },
  { text: 'status != error', pred: (s) => s.status !== 'error' },
  { text: 'kind = server', pred: (s) => s.kind === 'server' },
  { text: 'kind = client', pred: (s) => s.kind === 'client' },
  { text: 'kind = internal', pred: (s) => s.kind === 'internal' },
  { text: 'span:kind = producer', pred: (s) => s.kind === 'producer' },
  { text: 'kind != consumer', pred: (s) => s.kind !== 'consumer' },
  { text: 'name = "GET /cart"', pred: (s) => s.name === 'GET /cart' },
  { text: 'name =~ "query.*"', pred: (s) => /^query.*$/.test(s.name) },
  { text: 'name !~ ".*cart"', pred: (s) => !/^.*cart$/.test(s.name) },
  { text: 'duration > 100ms', pred: (s) => s.durationNs > 100n * MS },
  { text: 'duration < 5ms', pred: (s) => s.durationNs < 5n * MS },
  { text: 'span:duration >= 1s', pred: (s) => s.durationNs >= 1000n * MS },
  { text: 'span.http.status_code >= 500', pred: (s) => (num(s.attrs['http.status_code']) ?? -1) >= 500 },
  { text: 'span.http.status_code = 200', pred: (s) => s.attrs['http.status_code'] === 200 },
  { text: '.http.method = "POST"', pred: (s) => s.attrs['http.method'] === 'POST' },
  { text: 'span.http.method != "GET"', pred: (s) => typeof s.attrs['http.method'] === 'string' && s.attrs['http.method'] !== 'GET' },
  { text: `resource.service.name = "${svc('frontend')}"`, pred: (s) => s.service === svc('frontend') },
  { text: `resource.service.name =~ "(db|cache)-${run}"`, pred: (s) => s.service === svc('db') || s.service === svc('cache') },
  { text: 'resource.deployment.environment = "prod"', pred: (s) => s.env === 'prod' },
  { text: 'span.db.rows > 10', pred: (s) => (num(s.attrs['db.rows']) ?? -1) > 10 },
  { text: 'span.db.rows <= 1', pred: (s) => (num(s.attrs['db.rows']) ?? Infinity) <= 1 },
  { text: 'span.cache.hit = true', pred: (s) => s.attrs['cache.hit'] === true },
  { text: 'span.cache.hit = false', pred: (s) => s.attrs['cache.hit'] === false },
  { text: 'span.ratio > 0.5', pred: (s) => (num(s.attrs.ratio) ?? -1) > 0.5 },
  { text: 'span.http.method = nil', pred: (s) => s.attrs['http.method'] === undefined },
  { text: 'span.db.rows != nil', pred: (s) => s.attrs['db.rows'] !== undefined },
  { text: 'statusMessage = "timeout"', pred: (s) => s.message === 'timeout' },
  { text: 'span:statusMessage =~ "card.*|db.*"', pred: (s) => /^(card.*|db.*)$/.test(s.message) },
  { text: 'event:name = "exception"', pred: (s) => s.events.some((e) => e.name === 'exception') },
  { text: 'event.exception.type = "Timeout"', pred: (s) => s.events.some((e) => e.attrs['exception.type'] === 'Timeout') },
  { text: `link:traceID = "${linkTarget.traceId}"`, pred: (s) => s.links.some((l) => l.traceId === linkTarget.traceId) },
  { text: `link:spanID = "${linkTarget.spanId}"`, pred: (s) => s.links.some((l) => l.spanId === linkTarget.spanId) },
  { text: `span:id = "${someSpan.spanId}"`, pred: (s) => s.spanId === someSpan.spanId },
  { text: `span:parentID = "${someSpan.spanId}"`, pred: (s) => s.parentId === someSpan.spanId },
  { text: `rootServiceName = "${svc('frontend')}"`, pred: (_s, t) => root(t)?.service === svc('frontend') },
  { text: 'trace:rootName = "GET /cart"', pred: (_s, t) => root(t)?.name === 'GET /cart' },
  { text: 'traceDuration > 1s', pred: (_s, t) => traceDuration(t) > 1000n * MS },
  { text: 'trace:duration < 100ms', pred: (_s, t) => traceDuration(t) < 100n * MS },
  { text: 'span:childCount >= 2', pred: (s, t) => childrenOf(s, t).length >= 2 },
  { text: 'span.db.rows * 2 > 40', pred: (s) => (num(s.attrs['db.rows']) ?? -Infinity) * 2 > 40 },
  { text: 'duration - 50ms > 100ms', pred: (s) => s.durationNs - 50n * MS > 100n * MS },
  { text: '!(status = error)', pred: (s) => s.status !== 'error' },
  // Typed values: an int is not the string of its digits, a bool not the string "true" (Tempo's typing).
  { text: 'span.http.status_code = "200"', pred: (s) => s.attrs['http.status_code'] === '200' },
  { text: 'span.cache.hit = "true"', pred: (s) => s.attrs['cache.hit'] === 'true' },
  { text: 'span.http.method != 200', pred: (s) => typeof s.attrs['http.method'] === 'number' && s.attrs['http.method'] !== 200 },
  { text: 'span.ratio = 0.75', pred: (s) => s.attrs.ratio === 0.75 },
  { text: 'event.attempt >= 3', pred: (s) => s.events.some((e) => typeof e.attrs.attempt === 'number' && e.attrs.attempt >= 3) },
  // Every span of the data set is sent in the scope `corpus` 1.0.
  { text: 'instrumentation:name = "corpus"', pred: () => true },
  { text: 'instrumentation:version != "1.0"', pred: () => false },
  // Scope attributes, typed: neither span nor resource attributes.
  { text: 'instrumentation.lib.tier = "gold"', pred: (s) => s.scopeAttrs['lib.tier'] === 'gold' },
  { text: 'instrumentation.lib.tier =~ "s.*"', pred: (s) => typeof s.scopeAttrs['lib.tier'] === 'string' && /^s.*$/.test(s.scopeAttrs['lib.tier']) },
  { text: 'instrumentation.lib.tier != "gold"', pred: (s) => typeof s.scopeAttrs['lib.tier'] === 'string' && s.scopeAttrs['lib.tier'] !== 'gold' },
  { text: 'instrumentation.lib.shard = 3', pred: (s) => s.scopeAttrs['lib.shard'] === 3 },
  { text: 'instrumentation.lib.shard = "3"', pred: (s) => s.scopeAttrs['lib.shard'] === '3' },
  { text: 'instrumentation.lib.beta = true', pred: (s) => s.scopeAttrs['lib.beta'] === true },
  { text: 'instrumentation.lib.tier = nil', pred: (s) => s.scopeAttrs['lib.tier'] === undefined },
  { text: 'span.lib.tier = "gold"', pred: (s) => s.attrs['lib.tier'] === 'gold' },
  { text: '1 = 1', pred: () => true },
  { text: 'true', pred: () => true },
];

const filter = (a: Atom): Query => ({
  text: `{ ${a.text} }`,
  simple: true,
  run: (t, input) => input.map((set) => set.filter((s) => a.pred(s, t))).filter((set) => set.length > 0),
});
const both = (a: Atom, b: Atom, op: '&&' | '||'): Query => ({
  text: `{ ${a.text} ${op} ${b.text} }`,
  simple: true,
  run: (t, input) => input.map((set) => set.filter((s) => (op === '&&' ? a.pred(s, t) && b.pred(s, t) : a.pred(s, t) || b.pred(s, t)))).filter((x) => x.length > 0),
});
const unique = (spans: ModelSpan[]) => [...new Set(spans)];
const wrap = (q: Query) => (q.simple ? q.text : `(${q.text})`);

function related(base: string, l: ModelSpan[], r: ModelSpan, t: ModelTrace): ModelSpan[] {
  if (base === '>') return l.filter((x) => x.spanId === r.parentId);
  if (base === '>>') return l.filter((x) => ancestorsOf(r, t).includes(x));
  if (base === '<') return l.filter((x) => x.parentId === r.spanId);
  if (base === '<<') return l.filter((x) => ancestorsOf(x, t).includes(r));
  return l.filter((x) => x !== r && x.parentId !== '' && x.parentId === r.parentId);
}

const spansetOp = (op: string, a: Query, b: Query): Query => ({
  text: `${wrap(a)} ${op} ${wrap(b)}`,
  simple: false,
  run: (t, input) =>
    input.flatMap((set) => {
      const l = unique(a.run(t, [set]).flat());
      const r = unique(b.run(t, [set]).flat());
      let out: ModelSpan[];
      if (op === '&&') out = l.length && r.length ? unique([...l, ...r]) : [];
      else if (op === '||') out = unique([...l, ...r]);
      else {
        const base = op.replace(/^[!&]/, '');
        if (op.startsWith('!')) out = r.filter((x) => related(base, l, x, t).length === 0);
        else if (op.startsWith('&')) out = unique(r.flatMap((x) => (related(base, l, x, t).length ? [...related(base, l, x, t), x] : [])));
        else out = r.filter((x) => related(base, l, x, t).length > 0);
      }
      return out.length ? [out] : [];
    }),
});

type Stage = { text: string; run: (t: ModelTrace, input: Sets) => Sets };
const cmp = (op: string, a: number, b: number) => ({ '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b, '=': a === b, '!=': a !== b })[op]!;
const countStage = (op: string, n: number): Stage => ({ text: `count() ${op} ${n}`, run: (_t, input) => input.filter((set) => cmp(op, set.length, n)) });
const aggStage = (fn: 'avg' | 'min' | 'max' | 'sum', op: string, ms: number): Stage => ({
  text: `${fn}(duration) ${op} ${ms}ms`,
  run: (_t, input) =>
    input.filter((set) => {
      const d = set.map((s) => Number(s.durationNs));
      const v = fn === 'avg' ? d.reduce((x, y) => x + y, 0) / d.length : fn === 'sum' ? d.reduce((x, y) => x + y, 0) : fn === 'min' ? Math.min(...d) : Math.max(...d);
      return cmp(op, v, ms * 1e6);
    }),
});
const byService: Stage = {
  text: 'by(resource.service.name)',
  run: (_t, input) =>
    input.flatMap((set) => {
      const groups = new Map<string, ModelSpan[]>();
      for (const s of set) groups.set(s.service, [...(groups.get(s.service) ?? []), s]);
      return [...groups.values()];
    }),
};
const coalesce: Stage = { text: 'coalesce()', run: (_t, input) => (input.length ? [unique(input.flat())] : []) };
const select: Stage = { text: 'select(span.http.method, resource.deployment.environment)', run: (_t, input) => input };
const filterStage = (a: Atom): Stage => ({ text: `{ ${a.text} }`, run: filter(a).run });
const pipeline = (first: Query | Stage, ...rest: Stage[]): Query => ({
  text: [first.text, ...rest.map((s) => s.text)].join(' | '),
  simple: false,
  run: (t, input) => rest.reduce((sets, s) => s.run(t, sets).filter((x) => x.length > 0), first.run(t, input)),
});
const wrapped = (q: Query): Query => ({ ...q, text: `(${q.text})`, simple: true });

function corpus(): Query[] {
  const rnd = prng(7);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const queries: Query[] = [{ text: '{}', simple: true, run: (_t, input) => input }];
  for (const a of ATOMS) queries.push(filter(a));
  for (let i = 0; i < 40; i++) queries.push(both(pick(ATOMS), pick(ATOMS), i % 2 ? '&&' : '||'));
  for (let i = 0; i < 30; i++) queries.push(spansetOp(i % 2 ? '&&' : '||', filter(pick(ATOMS)), filter(pick(ATOMS))));
  const structural = ['>', '>>', '<', '<<', '~', '!>', '!>>', '!<', '!<<', '!~', '&>', '&>>', '&<', '&<<', '&~'];
  const parents = ATOMS.slice(0, 28);
  for (const op of structural) for (let i = 0; i < 8; i++) queries.push(spansetOp(op, filter(pick(parents)), filter(pick(parents))));
  queries.push(spansetOp('>>', spansetOp('>', filter(ATOMS[4]), filter(ATOMS[4])), filter(ATOMS[5])));
  queries.push(spansetOp('&&', filter(ATOMS[0]), spansetOp('>', filter(ATOMS[4]), filter(ATOMS[5]))));
  for (let i = 0; i < 12; i++) queries.push(pipeline(filter(pick(ATOMS)), countStage(pick(['>', '>=', '<', '=', '!=']), 1 + Math.floor(rnd() * 3))));
  for (let i = 0; i < 16; i++) queries.push(pipeline(filter(pick(ATOMS)), aggStage(pick(['avg', 'min', 'max', 'sum'] as const), pick(['>', '<', '>=']), pick([2, 50, 200, 1000, 3000]))));
  for (let i = 0; i < 10; i++) queries.push(pipeline(filter(pick(ATOMS)), byService, countStage('>', 1)));
  for (let i = 0; i < 6; i++) queries.push(pipeline(filter(pick(ATOMS)), byService, countStage('>=', 1), coalesce));
  for (let i = 0; i < 6; i++) queries.push(pipeline(filter(pick(ATOMS)), select));
  for (let i = 0; i < 10; i++) queries.push(pipeline(filter(pick(ATOMS)), filterStage(pick(ATOMS))));
  for (let i = 0; i < 6; i++) queries.push(spansetOp(pick(['&&', '||', '>>', '>']), wrapped(pipeline(filter(pick(ATOMS)), countStage('>', 1))), filter(pick(ATOMS))));
  queries.push(pipeline(countStage('>', 5)), pipeline(aggStage('max', '>', 1000), filterStage(ATOMS[0])), pipeline(countStage('=', 1), filterStage(ATOMS[4])));
  queries.push(pipeline(byService, countStage('>=', 3)), pipeline(select, filterStage(ATOMS[1])));
  return queries;
}

const QUERIES = corpus();

/** The traces (ids) and, in each, the span ids the model answers. */
function expected(q: Query): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const t of traces) {
    const sets = q.run(t, [t.spans]).filter((s) => s.length > 0);
    if (sets.length) out.set(t.traceId, unique(sets.flat()).map((s) => s.spanId).sort());
  }
  return out;
}

async function search(q: string): Promise<{ status: number; body: any }> {
  const params = new URLSearchParams({ q, limit: '1000', spss: '1000', start: String(Math.floor(startMs / 1000) - 10), end: String(Math.ceil(Date.now() / 1000) + 10) });
  const response = await fetch(`${qryn.url}/api/search?${params}`, { headers: { authorization: qryn.basic } });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  const push = await fetch(`${qryn.url}/v1/traces`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': 'application/json' }, body: JSON.stringify(otlpBody(traces)) });
  expect(push.status).toBeLessThan(300);
  // The push is acknowledged once stored; poll (bounded) until every span reads back, as a search would.
  const total = traces.reduce((n, t) => n + t.spans.length, 0);
  for (let i = 0; ; i++) {
    const { body } = await search('{}');
    const seen = body.traces?.reduce((n: number, t: any) => n + t.spanSet.matched, 0) ?? 0;
    if (seen === total) break;
    if (i > 50) throw new Error(`${seen} of ${total} spans readable`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe(`TraceQL corpus (${QUERIES.length} queries)`, () => {
  it('has at least 300 queries, a fair share answering something and a fair share nothing', () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(300);
    const answering = QUERIES.filter((q) => expected(q).size > 0).length;
    expect(answering).toBeGreaterThan(QUERIES.length / 2);
    expect(answering).toBeLessThan(QUERIES.length);
  });

  it('answers each query with the model’s traces and spans', async () => {
    const failures: string[] = [];
    for (const q of QUERIES) {
      const want = expected(q);
      const { status, body } = await search(q.text);
      if (status !== 200) {
        failures.push(`${q.text}: ${status} ${JSON.stringify(body)}`);
        continue;
      }
      const got = new Map<string, string[]>();
      for (const t of body.traces) {
        const spans = new Set<string>(t.spanSets.flatMap((s: any) => s.spans.map((x: any) => x.spanID)));
        got.set(t.traceID, [...spans].sort());
      }
      const show = (m: Map<string, string[]>) => JSON.stringify([...m.entries()].sort());
      if (show(got) !== show(want)) failures.push(`${q.text}\n  want ${show(want)}\n  got  ${show(got)}`);
    }
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
  }, 600_000);

  it('answers newest first and honours limit and spss', async () => {
    const { body } = await search('{ kind = server }');
    const starts = body.traces.map((t: any) => BigInt(t.startTimeUnixNano));
    expect(starts).toEqual([...starts].sort((a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0)));
    const params = new URLSearchParams({ q: '{ }', limit: '3', spss: '1', start: String(Math.floor(startMs / 1000) - 10) });
    const limited = await (await fetch(`${qryn.url}/api/search?${params}`, { headers: { authorization: qryn.basic } })).json();
    expect(limited.traces).toHaveLength(3);
    for (const t of limited.traces) expect(t.spanSet.spans.length).toBe(1);
    expect(limited.metrics.inspectedTraces).toBeGreaterThanOrEqual(3);
    expect(Number(limited.metrics.inspectedBytes)).toBeGreaterThan(0);
  });

  it('selects the traces of a parent/child relation in ClickHouse: each trace it reads answers', async () => {
    // Traces holding spans of both sides that are not related are left in ClickHouse, so every inspected trace is a
    // hit; the relations searched have such traces in the data set (else the check could not fail).
    const cases: [string, (t: ModelTrace) => boolean, (t: ModelTrace) => boolean][] = [
      ['{ kind = server } > { kind = client }', (t) => t.spans.some((s) => s.kind === 'client' && parentOf(s, t)?.kind === 'server'), (t) => t.spans.some((s) => s.kind === 'server') && t.spans.some((s) => s.kind === 'client')],
      ['{ status = error } < { kind = server }', (t) => t.spans.some((s) => s.kind === 'server' && childrenOf(s, t).some((c) => c.status === 'error')), (t) => t.spans.some((s) => s.kind === 'server') && t.spans.some((s) => s.status === 'error')],
    ];
    for (const [q, answers, both] of cases) {
      const want = traces.filter(answers).map((t) => t.traceId).sort();
      expect(traces.filter(both).length, q).toBeGreaterThan(want.length);
      const { body } = await search(q);
      expect(body.traces.map((t: any) => t.traceID).sort(), q).toEqual(want);
      expect(body.metrics.inspectedTraces, q).toBe(want.length);
    }
  });

  it('answers by() groups as spansets with the value, and select() attributes with their spans', async () => {
    const { body } = await search(`{ resource.service.name =~ "(db|api)-${run}" } | by(resource.service.name)`);
    const checkout = body.traces.find((t: any) => t.traceID === traces[1].traceId);
    expect(checkout.spanSets.map((s: any) => s.attributes[0].value.stringValue).sort()).toEqual([svc('api'), svc('db')]);
    const selected = await search('{ name = "GET /health" } | select(span.http.method)');
    expect(selected.body.traces[0].spanSet.spans[0].attributes).toEqual(expect.arrayContaining([{ key: 'http.method', value: { stringValue: 'GET' } }]));
    const typed = await search('{ name = "GET /health" } | select(span.http.status_code, span.cache.hit)');
    expect(typed.body.traces[0].spanSet.spans[0].attributes).toEqual(expect.arrayContaining([{ key: 'http.status_code', value: { intValue: '200' } }]));
    const ratio = await search('{ span.ratio > 0.7 && name = "render" }');
    expect(ratio.body.traces[0].spanSet.spans[0].attributes).toEqual(expect.arrayContaining([{ key: 'ratio', value: { doubleValue: 0.75 } }]));
  });
});
