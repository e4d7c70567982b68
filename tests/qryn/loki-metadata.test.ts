import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { DRILLDOWN_OFF_MESSAGE } from '../../server/products/qryn/gateway/gateway';

// Loki's calls about streams against lines pushed here, each expected answer computed from those lines: series,
// label names and values scoped by a selector and the time range, index stats, index volume (targetLabels,
// aggregateBy) and volume over time, detected labels, detected fields and their values, patterns, and the
// drilldown switch in front of the drilldown's calls.

let platform: TestPlatform;
let qryn: EnabledQryn;
let ownerToken: string;
let projectId: number;

const run = randomBytes(3).toString('hex');
const app = `meta-${run}`;
const other = `other-${run}`;
const base = BigInt(Date.now() - 10 * 60_000) * 1_000_000n;
let offset = 0n;
const at = () => (base + (offset += 1_000_000_000n)).toString();

interface Pushed {
  labels: Record<string, string>;
  lines: string[];
  ts: string[];
}
const pushed: Pushed[] = [];

async function push(labels: Record<string, string>, lines: string[], ts?: string) {
  const times = lines.map(() => ts ?? at());
  const response = await fetch(`${qryn.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { authorization: qryn.basic, 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [{ stream: labels, values: lines.map((line, i) => [times[i], line]) }] }),
  });
  expect(response.status).toBe(204);
  pushed.push({ labels, lines, ts: times });
}

async function get(path: string, params: Record<string, string | string[]> = {}) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const value of Array.isArray(v) ? v : [v]) search.append(k, value);
  const response = await fetch(`${qryn.url}${path}?${search}`, { headers: { authorization: qryn.basic } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function drilldown(enabled: boolean) {
  const response = await fetch(`${platform.url}/api/integrations/qryn/drilldown?project_id=${projectId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled }),
  });
  expect(response.status).toBe(200);
}

/** The pushed streams of this test whose labels satisfy a predicate, and their lines in the default range. */
const streams = (pick: (labels: Record<string, string>) => boolean) => pushed.filter((p) => pick(p.labels) && p.labels.env !== 'old');
const bytesOf = (list: Pushed[]) => list.reduce((n, p) => n + p.lines.reduce((m, l) => m + Buffer.byteLength(l), 0), 0);
const ofApp = (l: Record<string, string>) => l.app === app;

const S1 = { app, env: 'prod', team: 'alpha' };
const S2 = { app, env: 'dev', team: 'beta' };
const S3 = { app, env: 'prod', team: 'beta', pod: 'p-1' };

beforeAll(async () => {
  platform = await startTestPlatform();
  const enabled = await enableQrynOnSeededProject(platform, 'Acme Staging');
  qryn = enabled.qryn;
  ownerToken = enabled.ownerToken;
  projectId = enabled.projectId;
  await push(S1, [
    '{"level":"info","status":200,"took":"15ms","user":"ann"}',
    '{"level":"error","status":500,"took":"1.5s","user":"bob"}',
    '{"level":"info","status":200,"took":"20ms","user":"ann"}',
  ]);
  await push(S2, ['level=warn size=10KB ok=true', 'level=info size=2MB ok=false']);
  await push(S3, ['hello world']);
  await push({ app: other, request_id: randomUUID() }, ['x']);
  await push({ app: other, request_id: randomUUID() }, ['y']);
  // Two hours ago: outside the default range (the last hour).
  await push({ app, env: 'old' }, ['old line'], (BigInt(Date.now() - 2 * 3600_000) * 1_000_000n).toString());
  await drilldown(true);
});

afterAll(async () => {
  await platform?.stop();
});

describe('label names and values, series', () => {
  it('label names and values honour query, start and end', async () => {
    const labels = await get('/loki/api/v1/labels', { query: `{app="${app}"}` });
    expect(labels.body).toEqual({ status: 'success', data: ['app', 'env', 'pod', 'team'] });
    expect((await get('/loki/api/v1/labels', { query: `{app="${other}"}` })).body.data).toEqual(['app', 'request_id']);
    expect((await get('/loki/api/v1/label/env/values', { query: `{app="${app}"}` })).body.data).toEqual(['dev', 'prod']);
    const threeHours = { start: (BigInt(Date.now() - 3 * 3600_000) * 1_000_000n).toString() };
    expect((await get('/loki/api/v1/label/env/values', { query: `{app="${app}"}`, ...threeHours })).body.data).toEqual(['dev', 'old', 'prod']);
    const onlyOld = { ...threeHours, end: (BigInt(Date.now() - 90 * 60_000) * 1_000_000n).toString() };
    expect((await get('/loki/api/v1/label/env/values', { query: `{app="${app}"}`, ...onlyOld })).body.data).toEqual(['old']);
    expect((await get('/loki/api/v1/label/team/values', { query: `{app="${app}", env="prod"}` })).body.data).toEqual(['alpha', 'beta']);
    expect((await get('/loki/api/v1/label/team/values', { query: `{app="${app}", env=~"d.*"}` })).body.data).toEqual(['beta']);
    expect((await get('/loki/api/v1/label/pod/values', { query: `{app="${app}", team!="beta"}` })).body.data).toEqual([]);
  });

  it('answers 400 with a reason for a bad label name or query', async () => {
    const bad = await get('/loki/api/v1/label/%ZZ/values');
    expect(bad.status).toBe(400);
    // The gateway refuses a path that is not valid percent-encoding before any read API runs.
    expect(bad.body.error).toMatch(/^The path is not valid: a "%" must be followed by two hexadecimal digits/);
    const query = await get('/loki/api/v1/labels', { query: '{app=' });
    expect(query.status).toBe(400);
    expect(query.body.error).toMatch(/parse error at line 1, col/);
    expect((await get('/loki/api/v1/labels', { start: 'yesterday' })).status).toBe(400);
  });

  it('series: the label sets of the streams any match[] selects, in the range', async () => {
    const one = await get('/loki/api/v1/series', { 'match[]': `{app="${app}", env="prod"}` });
    expect(one.body.status).toBe('success');
    expect(one.body.data).toEqual(expect.arrayContaining([S1, S3]));
    expect(one.body.data).toHaveLength(2);
    const two = await get('/loki/api/v1/series', { 'match[]': [`{app="${app}", team="alpha"}`, `{app="${app}", env="dev"}`] });
    expect(two.body.data).toEqual(expect.arrayContaining([S1, S2]));
    expect(two.body.data).toHaveLength(2);
    expect((await get('/loki/api/v1/series')).status).toBe(400);
  });
});

describe('index stats and volume', () => {
  it('stats: streams, chunks, entries and bytes of the selected lines', async () => {
    const selected = streams(ofApp);
    const stats = await get('/loki/api/v1/index/stats', { query: `{app="${app}"}` });
    expect(stats.body).toEqual({
      streams: selected.length,
      chunks: new Set(selected.flatMap((p) => p.ts.map((t) => `${JSON.stringify(p.labels)}|${new Date(Number(BigInt(t) / 1_000_000n)).toISOString().slice(0, 10)}`))).size,
      entries: selected.reduce((n, p) => n + p.lines.length, 0),
      bytes: bytesOf(selected),
    });
  });

  it('volume: by the selector’s labels, by targetLabels, by labels; largest first and limited', async () => {
    const vector = async (params: Record<string, string>) => {
      const answer = await get('/loki/api/v1/index/volume', params);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data.resultType).toBe('vector');
      return answer.body.data.result.map((r: { metric: Record<string, string>; value: [number, string] }) => [r.metric, Number(r.value[1])]);
    };
    expect(await vector({ query: `{app="${app}"}` })).toEqual([[{ app }, bytesOf(streams(ofApp))]]);
    const byTeam = [
      [{ team: 'beta' }, bytesOf(streams((l) => ofApp(l) && l.team === 'beta'))],
      [{ team: 'alpha' }, bytesOf(streams((l) => ofApp(l) && l.team === 'alpha'))],
    ].sort((a, b) => (b[1] as number) - (a[1] as number));
    expect(await vector({ query: `{app="${app}"}`, targetLabels: 'team' })).toEqual(byTeam);
    expect(await vector({ query: `{app="${app}"}`, targetLabels: 'team', limit: '1' })).toEqual(byTeam.slice(0, 1));
    expect(await vector({ query: `{app="${app}", env=~".+"}` })).toEqual(
      expect.arrayContaining([[{ app, env: 'prod' }, bytesOf(streams((l) => ofApp(l) && l.env === 'prod'))], [{ app, env: 'dev' }, bytesOf(streams((l) => ofApp(l) && l.env === 'dev'))]]),
    );
    const all = bytesOf(streams(ofApp));
    expect(await vector({ query: `{app="${app}"}`, aggregateBy: 'labels' })).toEqual([
      [{ app: '' }, all],
      [{ env: '' }, all],
      [{ team: '' }, all],
      [{ pod: '' }, bytesOf(streams((l) => ofApp(l) && 'pod' in l))],
    ]);
    // Only streams that have every target label count.
    expect(await vector({ query: `{app="${app}"}`, targetLabels: 'pod', aggregateBy: 'labels' })).toEqual([[{ pod: '' }, bytesOf(streams((l) => ofApp(l) && 'pod' in l))]]);
    expect((await get('/loki/api/v1/index/volume', { query: `{app="${app}"}`, aggregateBy: 'streams' })).status).toBe(400);
    expect((await get('/loki/api/v1/index/volume', { query: `{app="${app}"} | json` })).status).toBe(400);
  });

  it('volume_range: bytes per step, adding up to the volume', async () => {
    const answer = await get('/loki/api/v1/index/volume_range', { query: `{app="${app}"}`, targetLabels: 'env', step: '60s' });
    expect(answer.status).toBe(200);
    expect(answer.body.data.resultType).toBe('matrix');
    const byEnv = Object.fromEntries(answer.body.data.result.map((s: { metric: { env: string }; values: [number, string][] }) => [s.metric.env, s.values]));
    expect(Object.keys(byEnv).sort()).toEqual(['dev', 'prod']);
    for (const env of ['dev', 'prod']) {
      const values = byEnv[env] as [number, string][];
      expect(values.every(([t]) => t % 60 === 0)).toBe(true);
      expect(values.reduce((n, [, v]) => n + Number(v), 0)).toBe(bytesOf(streams((l) => ofApp(l) && l.env === env)));
    }
    expect((await get('/loki/api/v1/index/volume_range', { query: `{app="${app}"}`, step: '0.001' })).status).toBe(400);
  });
});

describe('detected labels, fields and patterns', () => {
  it('detected labels with their cardinality, leaving out labels whose values are all ids', async () => {
    const answer = await get('/loki/api/v1/detected_labels', { query: `{app=~"${app}|${other}"}` });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      detectedLabels: [
        { label: 'app', cardinality: 2 },
        { label: 'env', cardinality: 2 },
        { label: 'pod', cardinality: 1 },
        { label: 'team', cardinality: 2 },
      ],
    });
  });

  it('detected fields: json and logfmt fields with type, cardinality and parser', async () => {
    const answer = await get('/loki/api/v1/detected_fields', { query: `{app="${app}"}` });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      fields: [
        { label: 'level', type: 'string', cardinality: 3, parsers: ['json', 'logfmt'] },
        { label: 'ok', type: 'boolean', cardinality: 2, parsers: ['logfmt'] },
        { label: 'size', type: 'bytes', cardinality: 2, parsers: ['logfmt'] },
        { label: 'status', type: 'int', cardinality: 2, parsers: ['json'] },
        { label: 'took', type: 'duration', cardinality: 3, parsers: ['json'] },
        { label: 'user', type: 'string', cardinality: 2, parsers: ['json'] },
      ],
      limit: 1000,
    });
    // line_limit: only the newest line of the dev stream.
    const newest = await get('/loki/api/v1/detected_fields', { query: `{app="${app}", env="dev"}`, line_limit: '1' });
    expect(newest.body.fields.map((f: { label: string; cardinality: number }) => [f.label, f.cardinality])).toEqual([['level', 1], ['ok', 1], ['size', 1]]);
    expect((await get('/loki/api/v1/detected_field/level/values', { query: `{app="${app}"}` })).body).toEqual({ values: ['error', 'info', 'warn'] });
    expect((await get('/loki/api/v1/detected_field/user/values', { query: `{app="${app}"} | json | status >= 500` })).body).toEqual({ values: ['bob'] });
    expect((await get('/loki/api/v1/detected_fields')).status).toBe(400);
  });

  it('patterns: an empty answer (pattern detection is not built)', async () => {
    expect((await get('/loki/api/v1/patterns', { query: `{app="${app}"}` })).body).toEqual({ status: 'success', data: [] });
    expect((await get('/loki/api/v1/patterns', { query: '{' })).status).toBe(400);
  });

  it('the drilldown’s calls answer 404 while the switch is off; the others do not depend on it', async () => {
    await drilldown(false);
    try {
      for (const path of ['/loki/api/v1/index/volume', '/loki/api/v1/index/volume_range', '/loki/api/v1/detected_labels', '/loki/api/v1/detected_fields', '/loki/api/v1/detected_field/level/values', '/loki/api/v1/patterns']) {
        const answer = await get(path, { query: `{app="${app}"}` });
        expect(answer.status, path).toBe(404);
        expect(answer.body.error).toBe(DRILLDOWN_OFF_MESSAGE);
      }
      expect((await get('/loki/api/v1/index/stats', { query: `{app="${app}"}` })).status).toBe(200);
      expect((await get('/loki/api/v1/series', { 'match[]': `{app="${app}"}` })).status).toBe(200);
    } finally {
      await drilldown(true);
    }
  });
});
