import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { insertToken } from '../../server/products/qryn/instances/qryn-repository';
import { newToken } from '../../server/products/qryn/qryn-backend';
import { TAIL_PROTOCOL } from '../../server/products/qryn/read/loki-tail';
import { tailSocket } from '../../src/services/qryn-logs';

// Loki's live tail over WebSocket, opened as Grafana's Loki datasource opens it (ws:// on the instance URL,
// /loki/api/v1/tail?query=…&start=…&limit=…, the datasource's basic auth with a read token), against a real
// platform: history first, then pushed lines in order, the LogQL pipeline, refusals, limits and shutdown.

let platform: TestPlatform;
let qryn: EnabledQryn;
let readAuth: string;
let writeAuth: string;
const run = randomBytes(3).toString('hex');
const app = `tail-${run}`;
let clock = BigInt(Date.now()) * 1_000_000n;
/** Increasing timestamps, a millisecond apart (pushes in the test never share one). */
const nextNs = () => (clock += 1_000_000n).toString();

async function push(labels: Record<string, string>, lines: string[]) {
  const response = await fetch(`${qryn.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { authorization: qryn.basic, 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [{ stream: labels, values: lines.map((line) => [nextNs(), line]) }] }),
  });
  expect(response.status).toBe(204);
}

interface Tail {
  ws: WebSocket;
  frames: any[];
  /** The lines received so far, in the order received: [ns, line, labels]. */
  entries(): [string, string, Record<string, string>][];
  waitFor(count: number, timeoutMs?: number): Promise<[string, string, Record<string, string>][]>;
  closed: Promise<{ code: number; reason: string }>;
}

function tailUrl(params: Record<string, string>) {
  return `${qryn.url.replace(/^http/, 'ws')}/loki/api/v1/tail?${new URLSearchParams(params)}`;
}

function openTail(params: Record<string, string>, auth = readAuth): Promise<Tail> {
  const ws = new WebSocket(tailUrl(params), { headers: auth ? { authorization: auth } : {} });
  const frames: any[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const entries = () => frames.flatMap((f) => f.streams.flatMap((s: any) => s.values.map(([ns, line]: [string, string]) => [ns, line, s.stream])));
  const tail: Tail = {
    ws,
    frames,
    entries,
    closed,
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (entries().length < count) {
        if (Date.now() > until) throw new Error(`Timed out with ${entries().length} of ${count} lines: ${JSON.stringify(entries())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return entries();
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(tail));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
  });
}

async function refusal(params: Record<string, string>, auth?: string): Promise<{ status: number; body: string }> {
  try {
    const tail = await openTail(params, auth);
    tail.ws.close();
    throw new Error('the tail was accepted');
  } catch (error) {
    const e = error as { status?: number; body?: string };
    if (e.status === undefined) throw error;
    return { status: e.status, body: e.body ?? '' };
  }
}

beforeAll(async () => {
  platform = await startTestPlatform();
  qryn = (await enableQrynOnSeededProject(platform, 'Acme Staging')).qryn;
  const read = newToken();
  const write = newToken();
  await insertToken(platform.db, { instanceId: qryn.instanceId, name: 'Grafana', scope: 'read', token: read, creatorUserId: null });
  await insertToken(platform.db, { instanceId: qryn.instanceId, name: 'Loggen', scope: 'write', token: write, creatorUserId: null });
  // Grafana's datasource sends basic auth with any user name and the token as password.
  readAuth = `Basic ${Buffer.from(`grafana:${read}`).toString('base64')}`;
  writeAuth = `Bearer ${write}`;
});

afterAll(async () => {
  await platform?.stop();
});

describe('live tail (/loki/api/v1/tail)', () => {
  it('sends the recent history, then every pushed line in order', async () => {
    await push({ app, env: 'a' }, ['history 1', 'history 2']);
    await push({ app: `other-${run}` }, ['not selected']);
    const start = (BigInt(Date.now() - 60_000) * 1_000_000n).toString();
    const tail = await openTail({ query: `{app="${app}"}`, start, limit: '1' });
    // limit 1: only the newest line of the history.
    expect((await tail.waitFor(1)).map((e) => e[1])).toEqual(['history 2']);
    await push({ app, env: 'a' }, ['live 1']);
    await push({ app, env: 'b' }, ['live 2']);
    await push({ app: `other-${run}` }, ['still not selected']);
    await push({ app, env: 'a' }, ['live 3', 'live 4']);
    const entries = await tail.waitFor(5);
    expect(entries.map((e) => e[1])).toEqual(['history 2', 'live 1', 'live 2', 'live 3', 'live 4']);
    expect(entries.map((e) => e[2].env)).toEqual(['a', 'a', 'b', 'a', 'a']);
    expect(entries.every((e) => e[2].app === app)).toBe(true);
    const times = entries.map((e) => BigInt(e[0]));
    expect(times.every((t, i) => i === 0 || t > times[i - 1])).toBe(true);
    // Loki's frame shape: streams with stream labels and [ns, line] values; no dropped entries.
    expect(tail.frames[0]).toEqual({ streams: [{ stream: { app, env: 'a' }, values: [[entries[0][0], 'history 2']] }] });
    await new Promise((r) => setTimeout(r, 1_300));
    expect(tail.entries()).toHaveLength(5);
    tail.ws.close(1000);
    expect((await tail.closed).code).toBe(1000);
  });

  it('runs the query’s pipeline on each line (line filter, parser, label filter, format)', async () => {
    const papp = `pipe-${run}`;
    const tail = await openTail({ query: `{app="${papp}"} |= "req" | logfmt | level="error" | line_format "{{.msg}} ({{.level}})"` });
    await push({ app: papp }, ['level=info msg="req ok"', 'level=error msg="req failed"', 'level=error msg="no match"', 'level=error msg="req slow"']);
    const entries = await tail.waitFor(2);
    expect(entries.map((e) => e[1])).toEqual(['req failed (error)', 'req slow (error)']);
    expect(entries[0][2]).toEqual({ app: papp, level: 'error', msg: 'req failed' });
    tail.ws.close();
  });

  it('takes the credential as a subprotocol from a browser, which cannot set headers on a WebSocket', async () => {
    const bapp = `browser-${run}`;
    const token = readAuth.replace(/^Basic /, '');
    const key = Buffer.from(token, 'base64').toString('utf8');
    // The console's own builder: the query in the URL, the credential in the subprotocol qryn-auth.<base64url>.
    const socket = tailSocket(qryn.url, key, `{app="${bapp}"}`, Date.now() - 60_000);
    expect(socket.url).not.toContain(key.split(':')[1]);
    const ws = new WebSocket(socket.url, socket.protocols);
    const lines: string[] = [];
    ws.on('message', (data) => lines.push(...JSON.parse(String(data)).streams.flatMap((s: any) => s.values.map((v: string[]) => v[1]))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    // The answer selects loki-tail only: the credential is not echoed back.
    expect(ws.protocol).toBe(TAIL_PROTOCOL);
    await push({ app: bapp }, ['from the browser']);
    const until = Date.now() + 10_000;
    while (lines.length < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(lines).toEqual(['from the browser']);
    ws.close(1000);
    // A wrong credential in the subprotocol is refused as a wrong header is; without loki-tail it is not read.
    const wrong = tailSocket(qryn.url, 'grafana:not-a-token', `{app="${bapp}"}`, Date.now());
    const refusedStatus = await new Promise<number>((resolve, reject) => {
      const bad = new WebSocket(wrong.url, wrong.protocols);
      bad.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      bad.once('open', () => reject(new Error('the tail was accepted')));
    });
    expect(refusedStatus).toBe(401);
    const lone = await new Promise<number>((resolve, reject) => {
      const bad = new WebSocket(socket.url, [socket.protocols[1]]);
      bad.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      bad.once('open', () => reject(new Error('the tail was accepted')));
    });
    expect(lone).toBe(401);
  });

  it('refuses without credentials, without the read scope, and for bad parameters', async () => {
    expect((await refusal({ query: `{app="${app}"}` }, '')).status).toBe(401);
    expect((await refusal({ query: `{app="${app}"}` }, 'Basic bm9ib2R5Om5vdGhpbmc=')).status).toBe(401);
    expect((await refusal({ query: `{app="${app}"}` }, writeAuth)).status).toBe(403);
    const noQuery = await refusal({});
    expect(noQuery.status).toBe(400);
    expect(JSON.parse(noQuery.body).error).toBe('The query parameter is required.');
    const bad = await refusal({ query: '{app=' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/^parse error at line 1, col \d+/);
    expect((await refusal({ query: 'count_over_time({app="x"}[1m])' })).status).toBe(400);
    expect((await refusal({ query: `{app="${app}"}`, delay_for: '6' })).status).toBe(400);
    expect((await refusal({ query: `{app="${app}"}`, limit: '0' })).status).toBe(400);
  });

  it('holds at most 10 live tails per instance', async () => {
    const open = await Promise.all(Array.from({ length: 10 }, () => openTail({ query: `{app="${app}"}`, limit: '1' })));
    expect(qryn.backend.liveTail.count(qryn.instanceId)).toBe(10);
    const refused = await refusal({ query: `{app="${app}"}` });
    expect(refused.status).toBe(429);
    open[0].ws.close();
    await open[0].closed;
    await new Promise((r) => setTimeout(r, 100));
    const again = await openTail({ query: `{app="${app}"}`, limit: '1' });
    for (const t of [...open.slice(1), again]) t.ws.close();
    await Promise.all([...open.slice(1), again].map((t) => t.closed));
    await new Promise((r) => setTimeout(r, 100));
    expect(qryn.backend.liveTail.count(qryn.instanceId)).toBe(0);
  });

  it('the platform refuses WebSocket upgrades that no product takes', async () => {
    const status = (url: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url, { headers: { authorization: readAuth } });
        ws.once('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
        });
        ws.once('open', () => reject(new Error(`accepted: ${url}`)));
        ws.once('error', () => undefined);
      });
    expect(await status(`${platform.url.replace(/^http/, 'ws')}/api/anything`)).toBe(404);
    expect(await status(`${qryn.url.replace(/^http/, 'ws')}/loki/api/v1/labels`)).toBe(404);
  });

  it('closes every tail when the platform stops (close frame 1001)', async () => {
    const tail = await openTail({ query: `{app="${app}"}` });
    await tail.waitFor(1);
    await platform.stop();
    expect(await tail.closed).toEqual({ code: 1001, reason: 'The server is shutting down.' });
    expect(qryn.backend.liveTail.count()).toBe(0);
  });
});
