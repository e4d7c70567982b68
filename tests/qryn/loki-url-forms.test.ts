import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import pinoLoki from 'pino-loki';
import winston from 'winston';
import LokiTransport from 'winston-loki';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, eventually, type EnabledQryn } from '../support/qryn';
import { startRecordingProxy } from '../support/recording-proxy';
import { insertToken } from '../../server/products/qryn/instances/qryn-repository';
import { newToken } from '../../server/products/qryn/qryn-backend';

// The instance URL as the console shows it ({PUBLIC_URL}/qryn/{id}, no trailing slash) given to Loki clients that
// build their push URL differently: winston-loki appends '/loki/api/v1/push' to it, pino-loki resolves
// 'loki/api/v1/push' relative to it (new URL(path, host)), which drops the last segment — the instance id. Each,
// with and without a trailing slash, must get its lines stored and readable; the instance then comes from the
// credential, which belongs to exactly one instance.

let platform: TestPlatform;
let qryn: EnabledQryn;
let other: EnabledQryn;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;

const origin = () => new URL(qryn.url).origin;

async function lines(label: string, instance = qryn): Promise<string[]> {
  const params = new URLSearchParams({ query: `{form="${label}"}`, limit: '100', start: `${Date.now() - 3_600_000}000000`, end: `${Date.now() + 60_000}000000` });
  const response = await fetch(`${instance.url}/loki/api/v1/query_range?${params}`, { headers: { authorization: instance.basic } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { result: { values: [string, string][] }[] } };
  return body.data.result.flatMap((s) => s.values.map((v) => v[1])).sort();
}

const waitForLines = (label: string, count: number) =>
  eventually(async () => {
    const found = await lines(label);
    return found.length >= count ? found : undefined;
  });

function pushBody(label: string, texts: string[]) {
  const now = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({ streams: [{ stream: { form: label }, values: texts.map((t, i) => [String(now + BigInt(i)), t]) }] });
}

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ qryn } = await enableQrynOnSeededProject(platform, 'Acme Production'));
  ({ qryn: other } = await enableQrynOnSeededProject(platform, 'Acme Staging'));
  proxy = await startRecordingProxy(platform.url);
});

afterAll(async () => {
  await proxy?.close();
  await platform?.stop();
});

/** The instance URL on the recording proxy, so the path each client really sent can be checked. */
const viaProxy = (url: string) => url.replace(origin(), proxy.url);

describe('every Loki client URL form reaches the instance', () => {
  it('pino-loki resolves its path relative to the instance URL (the id is dropped): the credential names the instance', async () => {
    for (const [label, host] of [['pino-plain', viaProxy(qryn.url)], ['pino-slash', `${viaProxy(qryn.url)}/`]] as const) {
      const logger = pino({ level: 'info' }, pinoLoki({ host, basicAuth: { username: qryn.apiKey, password: qryn.apiSecret }, labels: { form: label }, batching: false }));
      logger.info(`${label} one`);
      logger.info(`${label} two`);
      expect((await waitForLines(label, 2)).map((l) => JSON.parse(l).msg)).toEqual([`${label} one`, `${label} two`]);
    }
    const paths = proxy.requests.filter((r) => r.method === 'POST').map((r) => `${r.path} ${r.status}`);
    expect(paths).toContain('/qryn/loki/api/v1/push 204');
    expect(paths).toContain(`/qryn/${qryn.instanceId}/loki/api/v1/push 204`);
  });

  it('winston-loki appends the push path, to the URL with and without a trailing slash', async () => {
    for (const [label, host] of [['winston-plain', viaProxy(qryn.url)], ['winston-slash', `${viaProxy(qryn.url)}/`]] as const) {
      const errors: unknown[] = [];
      const transport = new LokiTransport({ host, basicAuth: `${qryn.apiKey}:${qryn.apiSecret}`, labels: { form: label }, json: true, batching: false, onConnectionError: (e: unknown) => errors.push(e) });
      const logger = winston.createLogger({ transports: [transport] });
      logger.info(`${label} line`);
      expect((await waitForLines(label, 1))[0]).toContain(`${label} line`);
      expect(errors).toEqual([]);
      logger.close();
    }
    const paths = proxy.requests.filter((r) => r.method === 'POST').map((r) => `${r.path} ${r.status}`);
    expect(paths).toContain(`/qryn/${qryn.instanceId}//loki/api/v1/push 204`);
  });

  it('plain HTTP: relative with a token, repeated slashes, a trailing slash; lines stored byte for byte', async () => {
    const token = newToken();
    await insertToken(platform.db, { instanceId: qryn.instanceId, name: 'url forms', scope: 'write', token, creatorUserId: null });
    const tricky = ['tab\there', 'new\nline', 'back\\slash', 'ünïcødé ✓ 日本', 'x'.repeat(300), ''];
    const forms: [string, string, string][] = [
      ['relative-token', `${origin()}/qryn/loki/api/v1/push`, `Bearer ${token}`],
      ['relative-basic-token', `${origin()}/qryn/loki/api/v1/push`, `Basic ${Buffer.from(`grafana:${token}`).toString('base64')}`],
      ['repeated-slashes', `${origin()}/qryn//${qryn.instanceId}///loki//api/v1/push`, qryn.basic],
      ['trailing-slash', `${qryn.url}/loki/api/v1/push/`, qryn.basic],
    ];
    for (const [label, url, authorization] of forms) {
      const response = await fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: pushBody(label, tricky) });
      expect(response.status, `${label}: ${await response.text()}`).toBe(204);
      expect(await lines(label)).toEqual([...tricky].sort());
    }
  });

  it('without an id in the path the credential must still be right, and another instance is never reached', async () => {
    const relative = `${origin()}/qryn/loki/api/v1/push`;
    const body = pushBody('refused', ['nope']);
    expect((await fetch(relative, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401);
    const wrong = `Basic ${Buffer.from(`${qryn.apiKey}:not-the-secret`).toString('base64')}`;
    expect((await fetch(relative, { method: 'POST', headers: { authorization: wrong, 'content-type': 'application/json' }, body })).status).toBe(401);
    const reader = newToken();
    await insertToken(platform.db, { instanceId: qryn.instanceId, name: 'reader', scope: 'read', token: reader, creatorUserId: null });
    expect((await fetch(relative, { method: 'POST', headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' }, body })).status).toBe(403);
    // The other instance's credential on this instance's path is refused; on the relative path it writes to its own.
    expect((await fetch(`${qryn.url}/loki/api/v1/push`, { method: 'POST', headers: { authorization: other.basic, 'content-type': 'application/json' }, body })).status).toBe(401);
    expect((await fetch(relative, { method: 'POST', headers: { authorization: other.basic, 'content-type': 'application/json' }, body: pushBody('other', ['theirs']) })).status).toBe(204);
    expect(await lines('other')).toEqual([]);
    expect(await lines('other', other)).toEqual(['theirs']);
    expect(await lines('refused')).toEqual([]);
    // A path with neither an id nor a known call is not found once signed in.
    expect((await fetch(`${origin()}/qryn/nothing/here`, { headers: { authorization: qryn.basic } })).status).toBe(404);
  });
});

describe('gatewayTarget', () => {
  it('reads the instance id, or leaves it to the credential, from each path form', async () => {
    const { gatewayTarget } = await import('../../server/products/qryn/gateway/gateway');
    const id = '0123456789abcdef';
    expect(gatewayTarget(`/qryn/${id}/loki/api/v1/push`)).toEqual({ instanceId: id, path: '/loki/api/v1/push' });
    expect(gatewayTarget(`/qryn/${id}//loki/api/v1/push/`)).toEqual({ instanceId: id, path: '/loki/api/v1/push' });
    expect(gatewayTarget(`/qryn//${id}///api/v1/query_range`)).toEqual({ instanceId: id, path: '/api/v1/query_range' });
    expect(gatewayTarget('/qryn/loki/api/v1/push')).toEqual({ instanceId: undefined, path: '/loki/api/v1/push' });
    expect(gatewayTarget('/qryn/0/ready')).toEqual({ instanceId: '0', path: '/ready' });
    expect(gatewayTarget(`/qryn/${id}`)).toEqual({ instanceId: id, path: '/' });
    expect(gatewayTarget('/qryn')).toBeUndefined();
    expect(gatewayTarget('/qryn/')).toBeUndefined();
  });
});
