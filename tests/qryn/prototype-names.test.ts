// Label names, field names and attribute keys that name a member of Object.prototype (`constructor`, `toString`,
// `__proto__`, …) are data: a push that carries them is stored with them, and reading back gives what was sent.
// fast-check's string arbitraries draw these names on purpose now and then (the gateway's property tests meet them at
// random); here every push format meets each, and every query language reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { remoteWrite, remoteWriteBody } from './promql-samples';

// `__proto__` is checked apart: as a stream label it is stored, listed and selected, but the engines keep label sets
// in plain objects, where writing that key sets the prototype, so such a label made inside a query (a JSON field
// read by `| json`, for one) is lost (docs/qryn.md, "LogQL").
const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString', 'prototype', 'length'];

let platform: TestPlatform;
let qryn: EnabledQryn;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ qryn } = await enableQrynOnSeededProject(platform, 'Acme Staging'));
}, 120_000);
afterAll(async () => platform?.stop());

// The label's value when the answer has it as its own key (a plain object would find `constructor` on its prototype).
const own = (labels: Record<string, string> | undefined, name: string) => (labels && Object.hasOwn(labels, name) ? labels[name] : null);

const nowNs = () => `${BigInt(Date.now()) * 1_000_000n}`;

async function push(path: string, type: string, body: string) {
  const response = await fetch(`${qryn.url}${path}`, { method: 'POST', headers: { authorization: qryn.basic, 'content-type': type }, body });
  return { status: response.status, text: await response.text() };
}

async function get(path: string, params: Record<string, string>) {
  const response = await fetch(`${qryn.url}${path}?${new URLSearchParams(params)}`, { headers: { authorization: qryn.basic } });
  const text = await response.text();
  return { status: response.status, text, body: (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {}) as { data: unknown } };
}

describe('names of Object.prototype members in pushed data', () => {
  it('Loki JSON: every such label name is stored and read back as sent', async () => {
    for (const name of NAMES) {
      const stream = { app: 'proto-names', [name]: `value-of-${name}` };
      expect(await push('/loki/api/v1/push', 'application/json', JSON.stringify({ streams: [{ stream, values: [[nowNs(), `line ${name}`]] }] }))).toEqual({ status: 204, text: '' });
    }
    const { status, body } = await get('/loki/api/v1/series', { match: '{app="proto-names"}', start: String(Date.now() - 3_600_000) + '000000', end: nowNs() });
    expect(status).toBe(200);
    const series = body.data as Record<string, string>[];
    for (const name of NAMES) {
      expect(series.map((labels) => own(labels, name)), name).toContain(`value-of-${name}`);
      expect(series, name).toContainEqual({ app: 'proto-names', [name]: `value-of-${name}` });
    }
    for (const name of NAMES) {
      const query = await get('/loki/api/v1/query_range', { query: `{${name}="value-of-${name}"}`, start: String(Date.now() - 3_600_000) + '000000', end: nowNs() });
      expect(query.status, name).toBe(200);
      const result = (query.body.data as { result: { stream: Record<string, string>; values: [string, string][] }[] }).result;
      expect(result.map((r) => [r.stream[name], r.values.map((v) => v[1])]), name).toEqual([[`value-of-${name}`, [`line ${name}`]]]);
    }
  });

  it('LogQL: such names as stream labels, parsed labels and grouping labels', async () => {
    const from = String(Date.now() - 3_600_000) + '000000';
    const line = NAMES.map((name) => `${name}=parsed-${name}`).join(' ');
    expect((await push('/loki/api/v1/push', 'application/json', JSON.stringify({ streams: [{ stream: { app: 'proto-logfmt' }, values: [[nowNs(), line]] }] }))).status).toBe(204);
    const logs = async (query: string) => {
      // The end a minute ahead: a metric query's last step then comes after the lines just pushed.
      const answer = await get('/loki/api/v1/query_range', { query, start: from, end: String(BigInt(nowNs()) + 60_000_000_000n) });
      expect(answer.status, query).toBe(200);
      return (answer.body.data as { result: { stream?: Record<string, string>; metric?: Record<string, string>; values: [string, string][] }[] }).result;
    };
    for (const name of NAMES) {
      // A label filter on a stream label, and on a label the parser found.
      expect((await logs(`{app="proto-names"} | ${name}="value-of-${name}"`)).map((r) => r.values.map((v) => v[1])), name).toEqual([[`line ${name}`]]);
      const parsed = await logs(`{app="proto-logfmt"} | logfmt | ${name}="parsed-${name}"`);
      expect(parsed.map((r) => own(r.stream, name)), name).toEqual([`parsed-${name}`]);
      expect(await logs(`{app="proto-logfmt"} | logfmt | ${name}="other"`), name).toEqual([]);
      // Grouping by it: one series per value, and one without the label for the streams that lack it.
      const grouped = await logs(`sum by (${name}) (count_over_time({app="proto-names"}[2h]))`);
      expect(grouped.map((r) => own(r.metric, name)).sort(), name).toEqual([`value-of-${name}`, null].sort());
    }
    // Where a stream does not have such a label, it reads as empty, as any missing label does.
    for (const name of NAMES) {
      expect((await logs(`{app="proto-names"} | ${name}=""`)).length, name).toBe(NAMES.length - 1);
      expect((await logs(`{app="proto-names"} | ${name}!=""`)).length, name).toBe(1);
      expect((await logs(`{app="proto-names"} | line_format "[{{.${name}}}]"`)).flatMap((r) => r.values.map((v) => v[1])).sort(), name).toEqual(
        [...NAMES.filter((other) => other !== name).map(() => '[]'), `[value-of-${name}]`].sort(),
      );
      const one = await logs(`sum by (${name}) (count_over_time({app="proto-logfmt"}[2h]))`);
      expect(one.map((r) => r.metric), name).toEqual([{}]);
    }
    // A template function of that name does not exist.
    const unknown = await get('/loki/api/v1/query_range', { query: '{app="proto-names"} | line_format "{{ constructor . }}"', start: from, end: nowNs() });
    expect(unknown).toMatchObject({ status: 400, text: expect.stringMatching(/^parse error at line 1, col \d+: template: function "constructor" not defined$/) });
    // Keeping and dropping such a label, and renaming to it.
    const kept = await logs(`{app="proto-logfmt"} | logfmt | keep constructor, app`);
    expect(kept.map((r) => r.stream)).toEqual([{ app: 'proto-logfmt', constructor: 'parsed-constructor' }]);
    const renamed = await logs(`{app="proto-logfmt"} | logfmt | label_format valueOf=toString | drop toString, length, prototype`);
    expect(own(renamed[0].stream, 'valueOf')).toBe('parsed-toString');
    expect(Object.keys(renamed[0].stream ?? {})).not.toContain('toString');
  });

  it('PromQL: such names as metric names, label names and grouping labels', async () => {
    const lines = NAMES.map((name, i) => `proto_metric,${name}=t${i},kind=a value=${i + 1} ${nowNs()}\nproto_metric,kind=b value=100 ${nowNs()}`).join('\n');
    expect((await push('/api/v2/write', 'text/plain', lines)).status).toBe(204);
    const instant = async (query: string) => {
      const answer = await get('/api/v1/query', { query, time: String(Date.now() / 1000) });
      expect(answer.status, query).toBe(200);
      return (answer.body.data as { result: { metric: Record<string, string>; value: [number, string] }[] }).result;
    };
    for (const [i, name] of NAMES.entries()) {
      const selected = await instant(`proto_metric_value{${name}="t${i}"}`);
      expect(selected.map((r) => [own(r.metric, name), r.value[1]]), name).toEqual([[`t${i}`, String(i + 1)]]);
      const grouped = await instant(`sum by (${name}) (proto_metric_value)`);
      expect(grouped.map((r) => own(r.metric, name)).sort(), name).toEqual([`t${i}`, null].sort());
      const without = await instant(`sum without (${name}, kind) (proto_metric_value{kind="a"})`);
      expect(without.map((r) => Object.keys(r.metric)).flat(), name).not.toContain(name);
    }
    // A series without such a label groups with no value for it, and label_replace and label_join read it as empty.
    for (const name of NAMES) {
      const grouped = await instant(`sum by (${name}) (proto_metric_value{kind="b"})`);
      expect(grouped.map((r) => r.metric), name).toEqual([{}]);
      const replaced = await instant(`label_replace(proto_metric_value{kind="b"}, "copy", "[$1]", "${name}", "(.*)")`);
      expect(replaced.map((r) => own(r.metric, 'copy')), name).toEqual(['[]']);
      const joined = await instant(`label_join(proto_metric_value{kind="b"}, "joined", "-", "${name}", "kind")`);
      expect(joined.map((r) => own(r.metric, 'joined')), name).toEqual(['-b']);
    }
    // A metric whose name is such a word, `__proto__` among them (remote write names metrics as they are).
    const metrics = [...NAMES, '__proto__'];
    const now = Date.now();
    await remoteWrite(`${qryn.url}/api/v1/prom/remote/write`, remoteWriteBody(metrics.map((name, i) => ({ labels: { __name__: name, job: 'proto' }, samples: [{ value: i + 1, timestamp: now - 1000 }] }))), qryn.basic);
    for (const [i, name] of metrics.entries()) {
      expect((await instant(`sum(${name})`)).map((r) => r.value[1]), name).toEqual([String(i + 1)]);
      expect((await instant(`sum without (constructor, __proto__) (last_over_time(${name}[5m]))`)).length, name).toBe(1);
    }
  });

  it('a stream label named __proto__ is stored, listed and selected', async () => {
    const body = `{"streams":[{"stream":{"app":"proto-names-reserved","__proto__":"x"},"values":[["${nowNs()}","line"]]}]}`;
    expect(await push('/loki/api/v1/push', 'application/json', body)).toEqual({ status: 204, text: '' });
    const from = String(Date.now() - 3_600_000) + '000000';
    const series = await get('/loki/api/v1/series', { match: '{app="proto-names-reserved"}', start: from, end: nowNs() });
    expect(series.text).toBe('{"status":"success","data":[{"__proto__":"x","app":"proto-names-reserved"}]}');
    const selected = await get('/loki/api/v1/query_range', { query: '{__proto__="x"}', start: from, end: nowNs() });
    expect((selected.body.data as { result: { values: [string, string][] }[] }).result.map((r) => r.values.map((v) => v[1]))).toEqual([['line']]);
  });

  it('Elasticsearch bulk: documents whose fields have such names are stored as sent, and | json reads the fields', async () => {
    const docs = [...NAMES, '__proto__'].map((name) => `{"message":"doc ${name}",${JSON.stringify(name)}:"field ${name}"}`);
    const body = docs.map((doc) => `${JSON.stringify({ index: { _index: 'proto-names' } })}\n${doc}`).join('\n') + '\n';
    const answer = await push('/_bulk', 'application/x-ndjson', body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).not.toMatch(/"errors":true/);
    const lines = async (query: string) => {
      const read = await get('/loki/api/v1/query_range', { query, start: String(Date.now() - 3_600_000) + '000000', end: nowNs() });
      expect(read.status, query).toBe(200);
      return (read.body.data as { result: { values: [string, string][] }[] }).result.flatMap((r) => r.values.map((v) => v[1]));
    };
    expect((await lines('{index="proto-names"}')).sort()).toEqual([...docs].sort());
    for (const [i, name] of NAMES.entries()) {
      expect(await lines(`{index="proto-names"} | json | ${name}="field ${name}"`), name).toEqual([docs[i]]);
    }
  });

  it('InfluxDB line protocol: such tag and field names are stored and read back', async () => {
    const lines = NAMES.map((name, i) => `proto_names,${name}=t${i} ${name}=${i}i ${nowNs()}`).join('\n');
    expect((await push('/api/v2/write', 'text/plain', lines)).status).toBe(204);
    for (const [i, name] of NAMES.entries()) {
      const read = await get('/api/v1/query', { query: `proto_names_${name}{${name}="t${i}"}`, time: String(Date.now() / 1000) });
      expect(read.status, name).toBe(200);
      expect((read.body.data as { result: { value: [number, string] }[] }).result.map((r) => r.value[1]), name).toEqual([String(i)]);
    }
  });

  it('TraceQL: such names as attribute names; as bare words they are not intrinsics', async () => {
    const spans = NAMES.map((name, i) => ({
      traceId: 'ab' + String(i).padStart(30, '0'),
      id: String(i + 1).padStart(16, '0'),
      name: `span ${name}`,
      timestamp: Date.now() * 1000 - 5_000_000,
      duration: 1000,
      localEndpoint: { serviceName: 'proto-traces' },
      tags: { [name]: `tag ${name}` },
    }));
    expect((await push('/api/v2/spans', 'application/json', JSON.stringify(spans))).status).toBe(202);
    const search = async (q: string) => {
      const response = await fetch(`${qryn.url}/api/search?${new URLSearchParams({ q })}`, { headers: { authorization: qryn.basic } });
      return { status: response.status, text: await response.text() };
    };
    for (const [i, name] of NAMES.entries()) {
      for (const q of [`{ span.${name} = "tag ${name}" }`, `{ .${name} = "tag ${name}" }`]) {
        const answer = await search(q);
        expect(answer.status, q).toBe(200);
        expect((JSON.parse(answer.text) as { traces: { traceID: string }[] }).traces.map((t) => t.traceID), q).toEqual(['ab' + String(i).padStart(30, '0')]);
      }
      // Tempo knows no intrinsic of that name: a parse error, as for any unknown bare word.
      const bare = await search(`{ ${name} = "x" }`);
      expect(bare.status, name).toBe(400);
      expect((JSON.parse(bare.text) as { error: string }).error, name).toMatch(new RegExp(`^invalid TraceQL query: parse error at line 1, col 3: syntax error: unexpected ${name}$`));
      const values = await fetch(`${qryn.url}/api/v2/search/tag/${encodeURIComponent(`span.${name}`)}/values`, { headers: { authorization: qryn.basic } });
      expect(values.status, name).toBe(200);
      expect(((await values.json()) as { tagValues: { value: string }[] }).tagValues.map((v) => v.value), name).toEqual([`tag ${name}`]);
      expect((await fetch(`${qryn.url}/api/v2/search/tag/${name}/values`, { headers: { authorization: qryn.basic } })).status, name).toBeLessThan(500);
    }
  });
});
